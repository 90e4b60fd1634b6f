package org.casebook.docs;

import java.util.List;
import org.casebook.core.page.Page;

/** A page of documents as the REST API and CLI print it: {@code {"documents":[…],"next":…}}. */
public record DocumentsPage(List<Document> documents, String next) {
  public DocumentsPage {
    documents = List.copyOf(documents);
  }

  public static DocumentsPage of(Page<Document> page) {
    return new DocumentsPage(page.items(), page.nextOrNull());
  }
}
