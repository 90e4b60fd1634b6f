package org.casebook.docs;

/**
 * What the version cell of a document row ({@code DI:_v}) holds; {@link DocCodec} gives its bytes.
 *
 * @param version the version of the write that stored the row's current state
 * @param live whether the document exists (a deleted row keeps its version)
 * @param base the version of the last whole-document write: cells older than it are not shown
 */
record RowState(long version, boolean live, long base) {}
