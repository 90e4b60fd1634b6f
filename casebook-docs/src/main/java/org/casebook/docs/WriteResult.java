package org.casebook.docs;

/** A stored document and whether the write created it (201) or replaced it (200). */
public record WriteResult(Document document, boolean created) {}
