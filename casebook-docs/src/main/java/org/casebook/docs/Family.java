package org.casebook.docs;

/** The two column families of every document table (seed 002). */
public enum Family {
  /** Base data, written when the page is crawled: title, content, author, created, URL. */
  BI,
  /** Dynamic data, changed afterwards: views, sentiment, tags, corrections. */
  DI
}
