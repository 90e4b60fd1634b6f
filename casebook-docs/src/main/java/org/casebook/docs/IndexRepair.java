package org.casebook.docs;

/** What a repair of the source-day index did for one type. */
public record IndexRepair(String type, long entriesChecked, long staleRemoved, long missingAdded) {}
