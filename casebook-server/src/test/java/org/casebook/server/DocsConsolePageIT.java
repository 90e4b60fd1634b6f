package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.casebook.core.Json;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The docs system's console page in headless Chromium: a blog with two comments written over REST
 * is listed by its site and day, opened with both families, its version and its comments in either
 * order; an edit saved from the page is read back over REST; a save over a version someone else
 * replaced meanwhile shows the conflict and the stored version, and stores nothing; the fields
 * edited by hand are marked corrected, a bulk re-crawl keeps them and changes the rest, the history
 * shows both sides, and dropping a correction from the page lets the next crawl win.
 */
@ExtendWith({EmbeddedHBase.class, ConsoleServer.class})
class DocsConsolePageIT {
  private static final String DAY = "2026-09-10";

  private final ConsoleServer console;

  DocsConsolePageIT(ConsoleServer console) {
    this.console = console;
  }

  private static String docPath(String type, String id) {
    return "/api/docs/" + type + "/" + URLEncoder.encode(id, StandardCharsets.UTF_8);
  }

  private HttpResponse<String> send(String method, String path, String body, String ifMatch)
      throws Exception {
    return ifMatch == null
        ? console.send(method, path, body)
        : console.send(method, path, body, "If-Match", ifMatch);
  }

  private static JsonNode json(HttpResponse<String> r) throws Exception {
    return Json.mapper().readTree(r.body());
  }

  /** What the page shows for a failed answer: the API's error, after the field it names. */
  private static String problem(HttpResponse<String> r) throws Exception {
    JsonNode e = json(r);
    return e.get("field").asText() + ": " + e.get("error").asText();
  }

  private JsonNode read(String id) throws Exception {
    HttpResponse<String> r = send("GET", docPath("blog", id), null, null);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return json(r);
  }

  private static String value(WebDriver browser, String field) {
    return browser.findElement(By.id("docs-field-" + field)).getDomProperty("value");
  }

  private static void type(WebDriver browser, String id, String text) {
    WebElement e = browser.findElement(By.id(id));
    e.clear();
    e.sendKeys(text);
  }

  private static String shownVersion(WebDriver browser) {
    List<WebElement> v = browser.findElements(By.id("docs-version"));
    return v.isEmpty() ? null : v.get(0).getDomAttribute("data-version");
  }

  private static List<String> commentIds(WebDriver browser) {
    return browser.findElements(By.cssSelector("#docs-comments tbody tr")).stream()
        .map(tr -> tr.getDomAttribute("data-id"))
        .toList();
  }

  @Test
  void browseOpenEditAndAStaleSaveShowsTheConflictAndLosesNothing() throws Exception {
    String host = TestIds.unique("docspage") + ".example.com";
    String id = "https://" + host + "/p/1";
    HttpResponse<String> created =
        send(
            "PUT",
            docPath("blog", id),
            "{\"title\":\"First title\",\"content\":\"Line one\\nLine two\",\"author\":\"Ann\","
                + "\"created\":\""
                + DAY
                + "T08:00:00Z\",\"url\":\""
                + id
                + "\",\"views\":7,\"sentiment\":0.25,\"tags\":[\"hbase\",\"console\"]}",
            null);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String v1 = json(created).get("version").asText();
    String older = commentOf(id, "c1", "First comment", "Bob", DAY + "T09:00:00Z");
    String newer = commentOf(id, "c2", "Second comment", "Cy", DAY + "T10:00:00Z");

    WebDriver browser = ConsoleServer.browser();
    try {
      // The page redraws tables whole: an element found just before a redraw goes stale.
      WebDriverWait wait = ConsoleServer.waitFor(browser);
      wait.ignoring(StaleElementReferenceException.class);
      // A link opens the document at once.
      console.openLink(
          browser, "#/system/docs?type=blog&id=" + URLEncoder.encode(id, StandardCharsets.UTF_8));
      assertThat(browser.findElement(By.id("docs-doc-id")).getText()).isEqualTo(id);
      assertThat(browser.findElement(By.id("docs-version")).getDomAttribute("data-version"))
          .isEqualTo(v1);

      browser.get("about:blank");
      browser.get(console.base() + "/#/system/docs");
      wait.until(b -> !b.findElements(By.cssSelector("#docs-type option[value='blog']")).isEmpty());

      // Browse: a bad day is the API's 400, shown in the page; then the site's day lists the blog.
      new Select(browser.findElement(By.id("docs-type"))).selectByValue("blog");
      type(browser, "docs-source", host);
      type(browser, "docs-day", "yesterday");
      browser.findElement(By.id("docs-list-button")).click();
      String badDay =
          problem(send("GET", "/api/docs/blog?source=" + host + "&day=yesterday", null, null));
      assertThat(badDay).startsWith("day: ");
      wait.until(b -> b.findElement(By.id("docs-browse-error")).isDisplayed());
      assertThat(browser.findElement(By.id("docs-browse-error")).getText()).isEqualTo(badDay);
      ConsoleServer.assertOnlyRefused(
          browser, "/api/docs/blog?source=" + host + "&day=yesterday", 400);

      type(browser, "docs-day", DAY);
      browser.findElement(By.id("docs-list-button")).click();
      By listed = By.cssSelector("#docs-list tbody tr");
      wait.until(b -> b.findElements(listed).size() == 1);
      WebElement row = browser.findElement(listed);
      assertThat(row.getDomAttribute("data-id")).isEqualTo(id);
      assertThat(row.findElement(By.cssSelector("[data-column='title']")).getText())
          .isEqualTo("First title");
      assertThat(row.findElement(By.cssSelector("[data-column='created']")).getText())
          .isEqualTo(DAY + "T08:00:00Z");
      assertThat(browser.findElement(By.id("docs-browse-error")).isDisplayed()).isFalse();

      // Open it from the listing: both families with the version read, and its comments.
      row.findElement(By.cssSelector("a[data-open]")).click();
      wait.until(b -> v1.equals(shownVersion(b)));
      assertThat(browser.findElement(By.id("docs-doc-id")).getText()).isEqualTo(id);
      assertThat(value(browser, "title")).isEqualTo("First title");
      assertThat(value(browser, "content")).isEqualTo("Line one\nLine two");
      assertThat(value(browser, "author")).isEqualTo("Ann");
      assertThat(value(browser, "created")).isEqualTo(DAY + "T08:00:00Z");
      assertThat(value(browser, "url")).isEqualTo(id);
      assertThat(value(browser, "views")).isEqualTo("7");
      assertThat(value(browser, "sentiment")).isEqualTo("0.25");
      assertThat(value(browser, "tags")).isEqualTo("hbase\nconsole");
      assertThat(familyOf(browser, "title")).isEqualTo("BI");
      assertThat(familyOf(browser, "url")).isEqualTo("BI");
      assertThat(familyOf(browser, "views")).isEqualTo("DI");
      assertThat(familyOf(browser, "tags")).isEqualTo("DI");

      wait.until(b -> commentIds(b).size() == 2);
      assertThat(commentIds(browser)).as("newest first").containsExactly(newer, older);
      assertThat(commentCell(browser, newer, "content")).isEqualTo("Second comment");
      assertThat(commentCell(browser, newer, "author")).isEqualTo("Cy");
      assertThat(commentCell(browser, older, "content")).isEqualTo("First comment");
      assertThat(commentCell(browser, older, "author")).isEqualTo("Bob");
      new Select(browser.findElement(By.id("docs-comment-order"))).selectByValue("oldest");
      browser.findElement(By.id("docs-comments-button")).click();
      wait.until(b -> commentIds(b).equals(List.of(older, newer)));

      // A value of the wrong kind: the API's 400 in the page, nothing stored.
      type(browser, "docs-field-views", "many");
      browser.findElement(By.id("docs-save")).click();
      String badViews = problem(send("PATCH", docPath("blog", id), "{\"views\":\"many\"}", null));
      assertThat(badViews).startsWith("views: ");
      wait.until(b -> b.findElement(By.id("docs-save-error")).isDisplayed());
      assertThat(browser.findElement(By.id("docs-save-error")).getText()).isEqualTo(badViews);
      ConsoleServer.assertOnlyRefused(browser, docPath("blog", id), 400);
      assertThat(read(id).get("version").asText()).isEqualTo(v1);
      type(browser, "docs-field-views", "7");

      // An edit saved over the version read is stored, and the page moves to the new version.
      type(browser, "docs-editor", "Ann");
      type(browser, "docs-field-title", "Edited in the console");
      browser.findElement(By.id("docs-save")).click();
      wait.until(b -> shownVersion(b) != null && !v1.equals(shownVersion(b)));
      JsonNode edited = read(id);
      String v2 = edited.get("version").asText();
      assertThat(shownVersion(browser)).isEqualTo(v2);
      assertThat(edited.get("fields").get("title").asText()).isEqualTo("Edited in the console");
      assertThat(edited.get("fields").get("views").asLong()).isEqualTo(7);
      assertThat(edited.get("fields").get("content").asText()).isEqualTo("Line one\nLine two");
      assertThat(value(browser, "title")).isEqualTo("Edited in the console");

      // Someone else changes it behind the page's back; the page's save over v2 must not win.
      HttpResponse<String> behind =
          send(
              "PATCH",
              docPath("blog", id),
              "{\"title\":\"Changed behind the page\"}",
              "\"" + v2 + "\"");
      assertThat(behind.statusCode()).as(behind.body()).isEqualTo(200);
      String v3 = json(behind).get("version").asText();
      type(browser, "docs-field-title", "Stale edit");
      browser.findElement(By.id("docs-save")).click();
      wait.until(b -> b.findElement(By.id("docs-conflict")).isDisplayed());
      assertThat(browser.findElement(By.id("docs-conflict-message")).getText())
          .contains("is at version " + v3 + ", not " + v2);
      assertThat(browser.findElement(By.id("docs-conflict-version")).getText()).isEqualTo(v3);
      WebElement clash =
          browser.findElement(By.cssSelector("#docs-conflict-fields tr[data-field='title']"));
      assertThat(clash.findElement(By.cssSelector("[data-value='yours']")).getText())
          .isEqualTo("Stale edit");
      assertThat(clash.findElement(By.cssSelector("[data-value='stored']")).getText())
          .isEqualTo("Changed behind the page");
      assertThat(shownVersion(browser)).as("the form still holds what was read").isEqualTo(v2);
      ConsoleServer.screenshot(browser, "docs-conflict");
      ConsoleServer.assertOnlyRefused(browser, docPath("blog", id), 412);
      JsonNode stored = read(id);
      assertThat(stored.get("version").asText()).isEqualTo(v3);
      assertThat(stored.get("fields").get("title").asText()).isEqualTo("Changed behind the page");

      // Reloading shows the stored version, ready to edit over it.
      browser.findElement(By.id("docs-reload")).click();
      wait.until(b -> v3.equals(shownVersion(b)));
      assertThat(value(browser, "title")).isEqualTo("Changed behind the page");
      assertThat(browser.findElements(By.id("docs-conflict")).get(0).isDisplayed()).isFalse();

      // Both edits by hand are in the history, newest first; the title is marked corrected.
      wait.until(b -> historySides(b).equals(List.of("person", "person")));
      assertThat(historyCell(browser, 1, 3)).isEqualTo("Ann");
      assertThat(correctedBy(browser, "title")).isEqualTo("person");
      assertThat(correctedBy(browser, "content")).isNull();

      // A re-crawl keeps the corrected title and changes the rest; the page shows both sides.
      bulkIndex(id, "Crawled title", "Re-crawled content");
      browser.findElement(By.id("docs-reread")).click();
      wait.until(b -> historySides(b).equals(List.of("crawl", "person", "person")));
      assertThat(value(browser, "title")).isEqualTo("Changed behind the page");
      assertThat(value(browser, "content")).isEqualTo("Re-crawled content");
      assertThat(
              browser
                  .findElement(
                      By.cssSelector(
                          "#docs-history tbody tr[data-side='crawl'] li[data-field='title']"))
                  .getDomAttribute("data-kept"))
          .isEqualTo("true");

      // Dropping the correction from the page: unmarked, and the next crawl wins.
      browser.findElement(By.cssSelector("button[data-drop='title']")).click();
      wait.until(b -> correctedBy(b, "title") == null);
      wait.until(b -> historySides(b).size() == 4);
      assertThat(
              browser.findElements(
                  By.cssSelector("#docs-history tbody tr:first-child li[data-dropped='title']")))
          .hasSize(1);
      assertThat(read(id).get("fields").get("title").asText()).isEqualTo("Changed behind the page");
      bulkIndex(id, "Crawled title", "Re-crawled content");
      assertThat(read(id).get("fields").get("title").asText()).isEqualTo("Crawled title");

      assertThat(ConsoleServer.consoleErrors(browser))
          .as("errors in the browser's console")
          .isEmpty();
    } finally {
      browser.quit();
    }
  }

  /** Adds a comment to the blog {@code id} over REST; returns the comment's id. */
  private String commentOf(String id, String cid, String content, String author, String at)
      throws Exception {
    HttpResponse<String> r =
        send(
            "POST",
            docPath("blog", id) + "/comments?cid=" + cid,
            "{\"content\":\""
                + content
                + "\",\"author\":\""
                + author
                + "\",\"created\":\""
                + at
                + "\"}",
            null);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    return json(r).get("id").asText();
  }

  /** A bulk {@code index} of the blog {@code id}, as the crawler sends it. */
  private void bulkIndex(String id, String title, String content) throws Exception {
    String lines =
        "{\"index\":{\"_index\":\"blog\",\"_id\":\""
            + id
            + "\"}}\n{\"title\":\""
            + title
            + "\",\"content\":\""
            + content
            + "\",\"author\":\"Ann\",\"created\":\""
            + DAY
            + "T08:00:00Z\",\"url\":\""
            + id
            + "\"}\n";
    HttpResponse<String> r = send("POST", "/api/docs/_bulk", lines, null);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(json(r).get("errors").asBoolean()).as(r.body()).isFalse();
  }

  /** The side of each change the page's history shows, newest first. */
  private static List<String> historySides(WebDriver browser) {
    return browser.findElements(By.cssSelector("#docs-history tbody tr")).stream()
        .map(tr -> tr.getDomAttribute("data-side"))
        .toList();
  }

  private static String historyCell(WebDriver browser, int row, int column) {
    return browser
        .findElements(By.cssSelector("#docs-history tbody tr"))
        .get(row)
        .findElements(By.tagName("td"))
        .get(column)
        .getText();
  }

  /** Who the page shows corrected {@code field}, or null when it is not marked. */
  private static String correctedBy(WebDriver browser, String field) {
    return browser
        .findElement(By.cssSelector("#docs-fields tr[data-field='" + field + "']"))
        .getDomAttribute("data-corrected");
  }

  private static String familyOf(WebDriver browser, String field) {
    return browser
        .findElement(By.cssSelector("#docs-fields tr[data-field='" + field + "']"))
        .getDomAttribute("data-family");
  }

  private static String commentCell(WebDriver browser, String commentId, String column) {
    for (WebElement tr : browser.findElements(By.cssSelector("#docs-comments tbody tr"))) {
      if (commentId.equals(tr.getDomAttribute("data-id"))) {
        return tr.findElement(By.cssSelector("[data-column='" + column + "']")).getText();
      }
    }
    throw new AssertionError("comment " + commentId + " is not shown");
  }
}
