package org.casebook.docs;

import static org.casebook.docs.Family.BI;
import static org.casebook.docs.Family.DI;
import static org.casebook.docs.FieldKind.DOUBLE;
import static org.casebook.docs.FieldKind.KEYWORD;
import static org.casebook.docs.FieldKind.KEYWORDS;
import static org.casebook.docs.FieldKind.LONG;
import static org.casebook.docs.FieldKind.TEXT;
import static org.casebook.docs.FieldKind.TIME;

import java.util.ArrayList;
import java.util.List;

/**
 * The types every store starts with: forum posts, blogs, news and the comments on blogs and BBS.
 */
final class DefaultTypes {
  static final DocType BBS =
      page(
          "bbs",
          List.of(FieldDef.of("forum", KEYWORD, BI)),
          List.of(FieldDef.of("replies", LONG, DI)));
  static final DocType BLOG = page("blog", List.of(), List.of(FieldDef.of("likes", LONG, DI)));
  static final DocType NEWS =
      page(
          "news",
          List.of(FieldDef.of("publisher", KEYWORD, BI), FieldDef.of("section", KEYWORD, BI)),
          List.of());
  static final DocType COMMENT =
      new DocType(
          "comment",
          List.of(
              FieldDef.of("content", TEXT, BI),
              FieldDef.of("author", KEYWORD, BI),
              FieldDef.of("created", TIME, BI),
              FieldDef.of("likes", LONG, DI),
              FieldDef.of("sentiment", DOUBLE, DI),
              FieldDef.of("corrections", TEXT, DI)),
          List.of("blog", "bbs"));

  static final List<DocType> ALL = List.of(BBS, BLOG, NEWS, COMMENT);

  private DefaultTypes() {}

  /** A crawled page: the common BI and DI fields around the type's own. */
  private static DocType page(String name, List<FieldDef> moreBase, List<FieldDef> moreDynamic) {
    List<FieldDef> fields = new ArrayList<>();
    fields.add(FieldDef.of("title", TEXT, BI));
    fields.add(FieldDef.of("content", TEXT, BI));
    fields.add(FieldDef.of("author", KEYWORD, BI));
    fields.add(FieldDef.of("created", TIME, BI));
    fields.add(FieldDef.of("url", KEYWORD, BI));
    fields.addAll(moreBase);
    fields.add(FieldDef.of("views", LONG, DI));
    fields.add(FieldDef.of("sentiment", DOUBLE, DI));
    fields.add(FieldDef.of("tags", KEYWORDS, DI));
    fields.add(FieldDef.of("corrections", TEXT, DI));
    fields.addAll(moreDynamic);
    return new DocType(name, fields, List.of());
  }
}
