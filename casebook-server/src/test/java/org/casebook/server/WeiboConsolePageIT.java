package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * The social feed's console page shows a timeline written over REST (titles and images included)
 * and writes through REST.
 */
@ExtendWith({EmbeddedHBase.class, ConsoleServer.class})
class WeiboConsolePageIT {
  private final ConsoleServer console;

  WeiboConsolePageIT(ConsoleServer console) {
    this.console = console;
  }

  private int send(String method, String path, String json) throws Exception {
    return console.send(method, path, json).statusCode();
  }

  @Test
  void theTimelineFollowersAndPostsShowAndThePagePublishesAndFollows() throws Exception {
    String author = TestIds.unique("author");
    String reader = TestIds.unique("reader");
    String other = TestIds.unique("other");
    assertThat(send("PUT", "/api/weibo/users/" + reader + "/following/" + author, null))
        .isEqualTo(204);
    for (int i = 1; i <= 3; i++) {
      assertThat(
              send(
                  "POST",
                  "/api/weibo/users/" + author + "/posts",
                  "{\"content\":\"post " + i + " of the console test\"}"))
          .isEqualTo(201);
    }
    WebDriver browser = ConsoleServer.browser();
    try {
      // A link to the reader shows their timeline at once.
      console.openLink(browser, "#/system/weibo?uid=" + reader);
      assertThat(browser.findElements(By.cssSelector("#weibo-timeline tr"))).hasSize(3);
      assertThat(browser.findElement(By.id("weibo-following")).getText()).isEqualTo(author);

      // An answer drawn into a page that was replaced meanwhile (a detached element) does not
      // stamp the page shown now; one drawn into the page shown does.
      Object stamps =
          ((org.openqa.selenium.JavascriptExecutor) browser)
              .executeScript(
                  "delete document.body.dataset.pageDataMs;"
                      + "Casebook.dataDrawn(document.createElement('tbody'));"
                      + "const late = document.body.dataset.pageDataMs !== undefined;"
                      + "Casebook.dataDrawn(document.getElementById('weibo-timeline'));"
                      + "return [late, document.body.dataset.pageDataMs !== undefined];");
      assertThat(stamps).isEqualTo(List.of(false, true));

      browser.get("about:blank");
      browser.get(console.base() + "/#/system/weibo");
      ConsoleServer.waitFor(browser).until(b -> !b.findElements(By.id("weibo-uid")).isEmpty());
      browser.findElement(By.id("weibo-uid")).sendKeys(reader);
      browser.findElement(By.cssSelector("#weibo-show button")).click();
      ConsoleServer.waitFor(browser)
          .until(b -> b.findElements(By.cssSelector("#weibo-timeline tr")).size() == 3);
      List<String> shown =
          browser.findElements(By.cssSelector("#weibo-timeline tr td:nth-child(3)")).stream()
              .map(WebElement::getText)
              .toList();
      assertThat(shown)
          .as("newest first")
          .containsExactly(
              "post 3 of the console test",
              "post 2 of the console test",
              "post 1 of the console test");
      assertThat(browser.findElement(By.id("weibo-following")).getText()).isEqualTo(author);
      assertThat(browser.findElement(By.id("weibo-stats")).getText()).contains("follows 1");

      browser.findElement(By.id("weibo-content")).sendKeys("written from the console");
      browser.findElement(By.cssSelector("#weibo-publish button[type=submit]")).click();
      ConsoleServer.waitFor(browser)
          .until(b -> b.findElements(By.cssSelector("#weibo-posts tr")).size() == 1);
      assertThat(browser.findElement(By.cssSelector("#weibo-posts tr td:nth-child(3)")).getText())
          .isEqualTo("written from the console");

      browser.findElement(By.id("weibo-target")).sendKeys(other);
      browser.findElement(By.id("weibo-follow")).click();
      ConsoleServer.waitFor(browser)
          .until(b -> b.findElement(By.id("weibo-following")).getText().contains(other));
      assertThat(send("GET", "/api/weibo/users/" + other + "/followers", null)).isEqualTo(200);

      assertThat(ConsoleServer.consoleErrors(browser)).isEmpty();
      // An empty post is refused by the API; the page shows its answer, naming the field.
      browser.findElement(By.cssSelector("#weibo-publish button[type=submit]")).click();
      ConsoleServer.waitFor(browser)
          .until(b -> b.findElement(By.id("weibo-message")).getText().startsWith("content"));
      assertThat(browser.findElement(By.id("weibo-message")).getDomAttribute("class"))
          .isEqualTo("error");
      ConsoleServer.screenshot(browser, "weibo");
      ConsoleServer.assertOnlyRefused(browser, "/api/weibo/users/" + reader + "/posts", 400);

      // Titles and images: one post over REST into the timeline, one through the form. The image
      // URL points at a closed port, so nothing is fetched from a network.
      String picture = "https://127.0.0.1:9/cat.png";
      assertThat(
              send(
                  "POST",
                  "/api/weibo/users/" + author + "/posts",
                  "{\"content\":\"with a picture\",\"title\":\"A title\",\"images\":"
                      + "[{\"ref\":\""
                      + picture
                      + "\",\"width\":640,\"height\":480,\"alt\":\"a cat\"}]}"))
          .isEqualTo(201);
      browser.findElement(By.id("weibo-content")).sendKeys("mine, with a picture");
      browser.findElement(By.id("weibo-title")).sendKeys("My title");
      browser.findElement(By.id("weibo-images")).sendKeys(picture + " | my cat");
      browser.findElement(By.cssSelector("#weibo-publish button[type=submit]")).click();
      ConsoleServer.waitFor(browser)
          .until(b -> b.findElements(By.cssSelector("#weibo-posts .weibo-title")).size() == 1);
      WebElement newest = browser.findElement(By.cssSelector("#weibo-timeline tr"));
      assertThat(newest.findElement(By.className("weibo-title")).getText()).isEqualTo("A title");
      assertThat(newest.findElement(By.className("weibo-content")).getText())
          .isEqualTo("with a picture");
      WebElement img = newest.findElement(By.cssSelector("img.weibo-image"));
      assertThat(img.getDomAttribute("src")).isEqualTo(picture);
      assertThat(img.getDomAttribute("alt")).isEqualTo("a cat");
      assertThat(img.getDomAttribute("loading")).isEqualTo("lazy");
      assertThat(img.getDomAttribute("width")).isEqualTo("640");
      WebElement mine = browser.findElement(By.cssSelector("#weibo-posts tr"));
      assertThat(mine.findElement(By.className("weibo-title")).getText()).isEqualTo("My title");
      assertThat(mine.findElement(By.cssSelector("img.weibo-image")).getDomAttribute("alt"))
          .isEqualTo("my cat");
      assertThat(browser.findElement(By.id("weibo-title")).getDomProperty("value")).isEmpty();
      // The only complaints allowed: the images that could not be fetched.
      assertThat(ConsoleServer.consoleErrors(browser)).allMatch(line -> line.contains(picture));
    } finally {
      browser.quit();
    }
  }
}
