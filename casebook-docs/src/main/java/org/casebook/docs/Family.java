package org.casebook.docs;

import org.apache.hadoop.hbase.util.Bytes;

/** The two column families of every document table (seed 002). */
public enum Family {
  /** Base data, written when the page is crawled: title, content, author, created, URL. */
  BI,
  /** Dynamic data, changed afterwards: views, sentiment, tags, corrections. */
  DI;

  byte[] bytes() {
    return Bytes.toBytes(name());
  }
}
