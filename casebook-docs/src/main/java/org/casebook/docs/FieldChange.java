package org.casebook.docs;

/**
 * One field of a change in a document's history, values as a read shows them. Long values are cut
 * ({@code cut} says so): the history is for people to follow what happened, not a copy of every
 * state.
 *
 * @param before the value before the change; null when the field was absent
 * @param after the value after the change (or, when {@code kept}, the value the crawl offered);
 *     null when the change removed the field
 * @param cut whether either value was shortened for the history
 * @param kept whether this is a crawl's value for a corrected field, which the correction kept out:
 *     {@code before} is what the document still holds
 */
public record FieldChange(String field, Object before, Object after, boolean cut, boolean kept) {}
