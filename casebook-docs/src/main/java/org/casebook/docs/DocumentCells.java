package org.casebook.docs;

/**
 * The field cells of a whole-document write, which do not depend on the version: encoded where the
 * document is checked ({@link DocCodec#cells}; bulk loads encode on several threads and write on
 * one). Cell {@code i} is {@code families[i]:qualifiers[i] = values[i]}.
 */
@SuppressWarnings("ArrayRecordComponent") // cells: never compared with equals, never mutated
record DocumentCells(byte[][] families, byte[][] qualifiers, byte[][] values) {}
