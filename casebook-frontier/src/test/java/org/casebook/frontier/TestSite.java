package org.casebook.frontier;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A generated web site served on loopback, one HTTP server per host: 127.0.0.2, 127.0.0.3 … (on
 * Linux every 127.x.y.z address is loopback), each a host of its own to a crawler. Page {@code n}
 * of a host links to page {@code n + 1} of the same host (so every page is reachable from the
 * hosts' first pages), to its host's first page (a page the crawler has seen already) and to pages
 * drawn from every host with a seeded {@link Random}. Every request is recorded with the time it
 * arrived.
 */
final class TestSite implements AutoCloseable {
  /** A request the site answered: the page's URL and when it arrived ({@link System#nanoTime}). */
  record Fetch(String host, String url, long startNanos) {}

  private static final String PAGE_PATH = "/page/";

  private final int pagesPerHost;
  private final List<HttpServer> servers = new ArrayList<>();
  private final List<String> hosts = new ArrayList<>();
  private final List<String> origins = new ArrayList<>();
  private final int[][] links;
  private final ConcurrentLinkedQueue<Fetch> fetches = new ConcurrentLinkedQueue<>();

  private TestSite(int hostCount, int pagesPerHost, int linksPerPage, long seed) {
    if (hostCount < 1 || hostCount > 250 || pagesPerHost < 2 || linksPerPage < 2) {
      throw new IllegalArgumentException("a site needs hosts, pages and links");
    }
    this.pagesPerHost = pagesPerHost;
    Random random = new Random(seed);
    int pageCount = hostCount * pagesPerHost;
    links = new int[pageCount][linksPerPage];
    for (int page = 0; page < pageCount; page++) {
      int host = page / pagesPerHost;
      int number = page % pagesPerHost;
      links[page][0] = host * pagesPerHost + (number + 1) % pagesPerHost;
      links[page][1] = host * pagesPerHost;
      for (int i = 2; i < linksPerPage; i++) {
        links[page][i] = random.nextInt(pageCount);
      }
    }
  }

  /** Generates the site from {@code seed} and serves it on {@code hostCount} loopback hosts. */
  static TestSite serve(int hostCount, int pagesPerHost, int linksPerPage, long seed)
      throws IOException {
    TestSite site = new TestSite(hostCount, pagesPerHost, linksPerPage, seed);
    try {
      for (int host = 0; host < hostCount; host++) {
        site.start(host);
      }
    } catch (IOException | RuntimeException e) {
      site.close();
      throw e;
    }
    return site;
  }

  private void start(int host) throws IOException {
    String address = "127.0.0." + (2 + host);
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getByName(address), 0), 0);
    server.createContext("/", exchange -> answer(host, address, exchange));
    server.start();
    servers.add(server);
    hosts.add(address);
    origins.add("http://" + address + ":" + server.getAddress().getPort());
  }

  private void answer(int host, String address, HttpExchange exchange) throws IOException {
    long start = System.nanoTime();
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      int number = pageNumber(path);
      if (!"GET".equals(exchange.getRequestMethod()) || number < 0) {
        exchange.sendResponseHeaders(404, -1);
        return;
      }
      fetches.add(new Fetch(address, origins.get(host) + path, start));
      byte[] body = html(host * pagesPerHost + number).getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  private int pageNumber(String path) {
    if (!path.startsWith(PAGE_PATH)) {
      return -1;
    }
    try {
      int number = Integer.parseInt(path.substring(PAGE_PATH.length()));
      return number >= 0 && number < pagesPerHost ? number : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private String html(int page) {
    StringBuilder html = new StringBuilder("<html><body><h1>page ").append(page).append("</h1>\n");
    for (int target : links[page]) {
      html.append("<a href=\"").append(url(target)).append("\">page ").append(target);
      html.append("</a>\n");
    }
    return html.append("</body></html>\n").toString();
  }

  private String url(int page) {
    return origins.get(page / pagesPerHost) + PAGE_PATH + page % pagesPerHost;
  }

  /** The hosts, as URLs name them. */
  List<String> hosts() {
    return List.copyOf(hosts);
  }

  /** Every page's URL. */
  List<String> pageUrls() {
    List<String> urls = new ArrayList<>();
    for (int page = 0; page < links.length; page++) {
      urls.add(url(page));
    }
    return urls;
  }

  /** The first page of every host: where the crawl starts. */
  List<String> seedUrls() {
    List<String> urls = new ArrayList<>();
    for (int host = 0; host < hosts.size(); host++) {
      urls.add(url(host * pagesPerHost));
    }
    return urls;
  }

  /** Links the site's pages carry in all (each page's, duplicates included). */
  long linkCount() {
    return (long) links.length * links[0].length;
  }

  /** The pages the site served so far, in no particular order. */
  List<Fetch> fetches() {
    return List.copyOf(fetches);
  }

  @Override
  public void close() {
    for (HttpServer server : servers) {
      server.stop(0);
    }
  }
}
