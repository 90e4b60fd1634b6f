package org.casebook.docs;

import org.apache.hadoop.hbase.TableName;

/**
 * Where a document lives: its type, its id as the API shows it (canonical, or a comment's composite
 * id), its row key, its parent (comments) and its table. {@link Targets} works them out.
 */
@SuppressWarnings("ArrayRecordComponent") // a row key: never compared with equals, never mutated
record Target(DocType type, String id, byte[] row, DocRef parent, TableName table) {}
