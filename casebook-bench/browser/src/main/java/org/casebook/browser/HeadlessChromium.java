package org.casebook.browser;

import java.nio.file.Path;
import java.util.logging.Level;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Headless Chromium driven through its chromedriver, as {@code bench console} and the console's
 * browser tests open it: the given binaries (Debian's {@code chromium} and {@code
 * chromium-driver}), no sandbox or GPU, a desktop-sized window, and the browser's console kept at
 * {@code logLevel} and above.
 */
public final class HeadlessChromium {
  /** Debian's paths. */
  public static final Path CHROMIUM = Path.of("/usr/bin/chromium");

  public static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

  private HeadlessChromium() {}

  /**
   * Opens {@code url} from a blank page (a fresh navigation, not a change of the link's fragment)
   * and waits until the page has set {@code body[attribute]}, which it returns as a number: a
   * console page's own milliseconds from navigation to its first drawn answer.
   */
  public static long openAndAwait(
      WebDriver browser, String url, String attribute, java.time.Duration timeout)
      throws InterruptedException {
    browser.get("about:blank");
    browser.get(url);
    long deadline = System.currentTimeMillis() + timeout.toMillis();
    while (System.currentTimeMillis() < deadline) {
      String v = browser.findElement(By.tagName("body")).getDomAttribute(attribute);
      if (v != null && !v.isEmpty()) {
        return Long.parseLong(v);
      }
      Thread.sleep(20);
    }
    String error =
        browser.findElements(By.cssSelector(".error")).stream()
            .map(org.openqa.selenium.WebElement::getText)
            .filter(t -> !t.isBlank())
            .findFirst()
            .orElse("no error shown");
    throw new IllegalStateException(
        url + " drew no data within " + timeout.toSeconds() + " s (" + error + ")");
  }

  public static WebDriver start(Path chromium, Path chromedriver, Level logLevel) {
    ChromeOptions options = new ChromeOptions();
    options.setBinary(chromium.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1300,1000");
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, logLevel);
    options.setCapability("goog:loggingPrefs", logs);
    ChromeDriverService service =
        new ChromeDriverService.Builder().usingDriverExecutable(chromedriver.toFile()).build();
    return new ChromeDriver(service, options);
  }
}
