package org.casebook.docs.gen;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.casebook.core.Json;

/**
 * Realistic crawled pages for tests, the CLI and the benchmark: forum (BBS) posts, blogs and news
 * articles in Chinese and English from a handful of sites, each about {@code pageBytes} characters
 * of content (UTF-8 bytes), with comment threads whose lengths are heavy-tailed (most pages get
 * none or a few, a few get hundreds). Deterministic for a seed.
 */
public final class DocGenerator {
  /** One generated document; {@code parentType}/{@code parentId} are set for comments. */
  public record Generated(
      String type, String id, Map<String, Object> fields, String parentType, String parentId) {
    /** The two {@code _bulk} lines of this document (action, then document). */
    public String bulkLines() {
      Map<String, Object> target = new LinkedHashMap<>();
      target.put("_index", type);
      target.put("_id", id);
      if (parentType != null) {
        target.put("parent", Map.of("type", parentType, "id", parentId));
      }
      return Json.write(Map.of("index", target)) + "\n" + Json.write(fields) + "\n";
    }
  }

  private record Site(String host, String type, boolean chinese, String section) {}

  private static final List<Site> SITES =
      List.of(
          new Site("bbs.tianya.cn", "bbs", true, "天涯杂谈"),
          new Site("tieba.baidu.com", "bbs", true, "数码吧"),
          new Site("www.reddit.com", "bbs", false, "r/programming"),
          new Site("blog.sina.com.cn", "blog", true, "随笔"),
          new Site("medium.com", "blog", false, "engineering"),
          new Site("news.163.com", "news", true, "科技"),
          new Site("news.sina.com.cn", "news", true, "财经"),
          new Site("www.theguardian.com", "news", false, "technology"));

  private static final String[] ZH_WORDS = {
    "今天", "我们", "讨论", "一下", "大数据", "平台", "的", "性能", "问题", "，", "其实", "很多", "用户", "都", "关心", "存储",
    "成本", "。", "这个", "方案", "在", "实际", "生产", "环境", "中", "表现", "不错", "，", "但是", "也有", "一些", "缺点", "。",
    "网友", "认为", "价格", "太高", "了", "。", "分析", "显示", "市场", "增长", "明显", "，", "专家", "建议", "谨慎", "投资", "。"
  };
  private static final String[] EN_WORDS = {
    "the",
    "cluster",
    "handles",
    "millions",
    "of",
    "writes",
    "per",
    "day",
    "and",
    "readers",
    "asked",
    "whether",
    "latency",
    "stays",
    "low",
    "when",
    "regions",
    "split",
    "under",
    "load",
    "a",
    "new",
    "release",
    "improves",
    "compaction",
    "throughput",
    "for",
    "large",
    "tables",
    "engineers",
    "reported",
    "that",
    "costs",
    "fell",
    "after",
    "the",
    "migration",
    "market",
    "analysts",
    "expect",
    "growth",
    "to",
    "continue",
    "this",
    "year"
  };
  private static final String[] ZH_NAMES = {"小明", "老王", "数据控", "天涯过客", "编辑部", "李雷", "韩梅梅"};
  private static final String[] EN_NAMES = {"alice", "bob", "carol", "dave", "newsdesk", "erin"};
  private static final String[] TAGS = {"hbase", "bigdata", "科技", "财经", "观点", "review", "news"};

  private final Random random;
  private final long startMillis;
  private final int days;
  private final int pageBytes;
  private final int maxComments;
  private final int commentBytes;
  private long pageNumber;
  private long commentNumber;

  /**
   * Pages created over {@code days} days from {@code start}; content of about {@code pageBytes}
   * bytes; at most {@code maxComments} comments per page.
   */
  public DocGenerator(long seed, Instant start, int days, int pageBytes, int maxComments) {
    this(seed, start, days, pageBytes, maxComments, DEFAULT_COMMENT_BYTES);
  }

  /** Typical forum comments: a sentence or a short paragraph. */
  public static final int DEFAULT_COMMENT_BYTES = 140;

  /**
   * As above, with comments of about {@code commentBytes} bytes of UTF-8 content on average (0.3 to
   * 1.7 times that), for loads whose documents must average a given size.
   */
  public DocGenerator(
      long seed, Instant start, int days, int pageBytes, int maxComments, int commentBytes) {
    this.random = new Random(seed);
    this.startMillis = start.toEpochMilli();
    this.days = Math.max(1, days);
    this.pageBytes = Math.max(40, pageBytes);
    this.maxComments = Math.max(0, maxComments);
    this.commentBytes = Math.max(30, commentBytes);
  }

  /** One page and its comments (the page first). */
  public List<Generated> next() {
    Site site = SITES.get(random.nextInt(SITES.size()));
    long created = startMillis + (long) (random.nextDouble() * days * 86_400_000L);
    long n = ++pageNumber;
    String url = "https://" + site.host() + "/" + site.type() + "/" + (100_000 + n) + ".html";
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("title", sentence(site.chinese(), 8 + random.nextInt(10)));
    f.put("content", text(site.chinese(), site.chinese() ? pageBytes / 3 : pageBytes));
    f.put("author", name(site.chinese()));
    f.put("created", Instant.ofEpochMilli(created).toString());
    f.put("url", url);
    switch (site.type()) {
      case "bbs" -> f.put("forum", site.section());
      case "news" -> {
        f.put("publisher", site.host());
        f.put("section", site.section());
      }
      default -> {}
    }
    f.put("views", (long) Math.floor(Math.exp(random.nextGaussian() * 1.5 + 5)));
    f.put("sentiment", Math.round((random.nextDouble() * 2 - 1) * 100) / 100.0);
    f.put("tags", List.of(TAGS[random.nextInt(TAGS.length)], TAGS[random.nextInt(TAGS.length)]));
    List<Generated> out = new ArrayList<>();
    out.add(new Generated(site.type(), url, f, null, null));
    if (!site.type().equals("news")) {
      int comments = commentCount();
      for (int i = 0; i < comments; i++) {
        out.add(comment(site, url, created + 60_000L * (i + 1) + random.nextInt(60_000)));
      }
    }
    return out;
  }

  /** A page with exactly {@code comments} comments (the benchmark's "blog with 100 comments"). */
  public List<Generated> blogWithComments(int comments) {
    Site site = SITES.get(4);
    long created = startMillis;
    pageNumber++;
    String url = "https://" + site.host() + "/blog/thread-" + pageNumber + ".html";
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("title", sentence(false, 10));
    f.put("content", text(false, pageBytes));
    f.put("author", name(false));
    f.put("created", Instant.ofEpochMilli(created).toString());
    f.put("url", url);
    List<Generated> out = new ArrayList<>();
    out.add(new Generated("blog", url, f, null, null));
    for (int i = 0; i < comments; i++) {
      out.add(comment(site, url, created + 1_000L * (i + 1)));
    }
    return out;
  }

  private Generated comment(Site site, String parentUrl, long created) {
    Map<String, Object> f = new LinkedHashMap<>();
    // A Chinese character is 3 bytes of UTF-8, as for pages.
    int bytes = (int) (commentBytes * (0.3 + 1.4 * random.nextDouble()));
    f.put("content", text(site.chinese(), site.chinese() ? bytes / 3 : bytes));
    f.put("author", name(site.chinese()));
    f.put("created", Instant.ofEpochMilli(created).toString());
    f.put("likes", (long) random.nextInt(20));
    commentNumber++;
    return new Generated("comment", "c" + commentNumber, f, site.type(), parentUrl);
  }

  /** Pareto-distributed (alpha 1.1): half the pages get no comment, a few get hundreds. */
  private int commentCount() {
    double pareto = 1 / Math.pow(1 - random.nextDouble(), 1 / 1.1);
    return (int) Math.min(maxComments, Math.floor(pareto) - 1);
  }

  private String name(boolean chinese) {
    return chinese
        ? ZH_NAMES[random.nextInt(ZH_NAMES.length)] + random.nextInt(1000)
        : EN_NAMES[random.nextInt(EN_NAMES.length)] + random.nextInt(1000);
  }

  private String sentence(boolean chinese, int words) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < words; i++) {
      appendWord(b, chinese);
    }
    return b.toString().trim();
  }

  private String text(boolean chinese, int chars) {
    StringBuilder b = new StringBuilder(chars + 16);
    int sinceBreak = 0;
    while (b.length() < chars) {
      appendWord(b, chinese);
      if (++sinceBreak > 60 && random.nextInt(10) == 0) {
        b.append('\n');
        sinceBreak = 0;
      }
    }
    return b.toString().trim();
  }

  private void appendWord(StringBuilder b, boolean chinese) {
    if (chinese) {
      b.append(ZH_WORDS[random.nextInt(ZH_WORDS.length)]);
    } else {
      if (b.length() > 0) {
        b.append(' ');
      }
      b.append(EN_WORDS[random.nextInt(EN_WORDS.length)]);
    }
  }
}
