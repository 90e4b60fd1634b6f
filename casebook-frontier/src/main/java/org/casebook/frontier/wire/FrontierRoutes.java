package org.casebook.frontier.wire;

import java.util.ArrayList;
import java.util.List;
import org.casebook.core.Enums;
import org.casebook.core.InvalidInputException;
import org.casebook.core.http.HttpResponse;
import org.casebook.core.http.RouteTable;
import org.casebook.core.key.KeyBuilder;
import org.casebook.core.page.Cursors;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.casebook.frontier.ChannelInfo;
import org.casebook.frontier.ChannelKind;
import org.casebook.frontier.DailyStats;
import org.casebook.frontier.FrontierService;
import org.casebook.frontier.HostInfo;

/**
 * REST for people: channels (crawl IDs) with their kind and default delay, hosts with their rate
 * and queue, daily statistics. Crawlers speak URLFrontier gRPC instead.
 */
public final class FrontierRoutes {
  private static final String BASE = "/api/frontier/channels";
  private static final String CHANNEL = BASE + "/{crawlId}";
  private static final String HOST = CHANNEL + "/hosts/{key}";
  private static final int CHANNELS_PAGE = 100;
  private static final int HOSTS_PAGE = 100;
  private static final int DAYS_PAGE = 31;
  private static final String DAYS_SCOPE = "frontier.days";

  /** Body of {@code POST /api/frontier/channels}: kind FIFO (default) or PRIORITY. */
  record CreateChannel(String crawlId, String kind, Long delayMs) {}

  /** Body of the delay routes: milliseconds between two hand-outs of one host (null: channel's). */
  record Delay(Long delayMs) {}

  record ChannelsPage(List<ChannelInfo> channels, String next) {}

  record HostsPage(List<HostInfo> hosts, String next) {}

  record StatsPage(List<DailyStats> days, String next) {}

  public static final RouteTable<FrontierService> ROUTES =
      RouteTable.<FrontierService>builder()
          .list(
              BASE,
              "Channels (crawl IDs) with kind, default delay, queued and completed URLs",
              (svc, req) -> {
                Page<ChannelInfo> p = svc.channels(req.page(CHANNELS_PAGE));
                return HttpResponse.ok(new ChannelsPage(p.items(), p.nextOrNull()));
              })
          .post(
              BASE,
              "Create a channel: crawlId, kind (FIFO or PRIORITY), delayMs between hand-outs of a host",
              (svc, req) -> {
                CreateChannel c = req.body(CreateChannel.class);
                InvalidInputException.check(
                    c.crawlId() != null && !c.crawlId().isBlank(),
                    "crawlId",
                    "crawlId is required");
                ChannelKind kind =
                    c.kind() == null
                        ? ChannelKind.FIFO
                        : Enums.parse(ChannelKind.class, c.kind(), "kind");
                long delay = c.delayMs() == null ? 1000 : c.delayMs();
                InvalidInputException.check(delay >= 0, "delayMs", "must not be negative");
                return HttpResponse.created(svc.createChannel(c.crawlId(), kind, delay));
              })
          .get(
              CHANNEL,
              "A channel",
              (svc, req) -> HttpResponse.ok(svc.channel(req.pathParam("crawlId"))))
          .put(
              CHANNEL + "/delay",
              "Set a channel's default delay between two hand-outs of one host",
              (svc, req) -> {
                Delay d = req.body(Delay.class);
                InvalidInputException.check(d.delayMs() != null, "delayMs", "delayMs is required");
                return HttpResponse.ok(svc.setChannelDelay(req.pathParam("crawlId"), d.delayMs()));
              })
          .list(
              CHANNEL + "/hosts",
              "Hosts (queues) of a channel with delay in force, queue size, blocked-until",
              (svc, req) -> {
                Page<HostInfo> p = svc.hosts(req.pathParam("crawlId"), req.page(HOSTS_PAGE));
                return HttpResponse.ok(new HostsPage(p.items(), p.nextOrNull()));
              })
          .get(
              HOST,
              "One host (queue) of a channel",
              (svc, req) ->
                  HttpResponse.ok(svc.host(req.pathParam("crawlId"), req.pathParam("key"))))
          .put(
              HOST + "/delay",
              "Set a host's delay between hand-outs (its crawl rate); null = the channel's",
              (svc, req) -> {
                Delay d = req.body(Delay.class);
                InvalidInputException.check(
                    d.delayMs() == null || d.delayMs() >= 0, "delayMs", "must not be negative");
                return HttpResponse.ok(
                    svc.setHostDelay(req.pathParam("crawlId"), req.pathParam("key"), d.delayMs()));
              })
          .list(
              CHANNEL + "/stats",
              "Daily statistics of a channel, newest day first",
              (svc, req) ->
                  HttpResponse.ok(
                      days(svc.dailyStats(req.pathParam("crawlId"), null), req.page(DAYS_PAGE))))
          .list(
              HOST + "/stats",
              "Daily statistics of one host, newest day first",
              (svc, req) ->
                  HttpResponse.ok(
                      days(
                          svc.dailyStats(req.pathParam("crawlId"), req.pathParam("key")),
                          req.page(DAYS_PAGE))))
          .build();

  private FrontierRoutes() {}

  /** A page of days (newest first) after the cursor's day. */
  static StatsPage days(List<DailyStats> all, PageRequest page) {
    String after =
        page.cursor().map(c -> Cursors.decode(DAYS_SCOPE, c, r -> r.readString())).orElse(null);
    List<DailyStats> fetched = new ArrayList<>();
    for (DailyStats d : all) {
      if (after != null && d.day().compareTo(after) >= 0) {
        continue;
      }
      fetched.add(d);
      if (fetched.size() >= page.fetchSize()) {
        break;
      }
    }
    Page<DailyStats> p =
        Page.of(
            fetched,
            page.limit(),
            d -> Cursors.encode(DAYS_SCOPE, KeyBuilder.create().addString(d.day()).build()));
    return new StatsPage(p.items(), p.nextOrNull());
  }
}
