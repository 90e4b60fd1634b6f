package org.casebook.docs;

/**
 * The mark a person's edit leaves on a field it changed: a re-crawl keeps the field as the person
 * left it until the correction is dropped ({@link DocsService#dropCorrection}).
 *
 * @param by the editor the edit named, or {@code person} when it named none
 * @param at when the edit was stored (ISO-8601)
 * @param version the document version the edit stored
 */
public record Correction(String by, String at, long version) {}
