package org.casebook.banknote.wire;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.casebook.banknote.BanknoteService;
import org.casebook.banknote.BranchLocation;
import org.casebook.banknote.CloneCheck;
import org.casebook.banknote.CloneSweep;
import org.casebook.banknote.DeviceKind;
import org.casebook.banknote.DisputePack;
import org.casebook.banknote.FileContext;
import org.casebook.banknote.Note;
import org.casebook.banknote.NoteJson;
import org.casebook.banknote.NoteRules;
import org.casebook.banknote.Operation;
import org.casebook.banknote.ProbableClone;
import org.casebook.banknote.Reject;
import org.casebook.banknote.Settlement;
import org.casebook.banknote.SettlementCsv;
import org.casebook.banknote.WatchEntry;
import org.casebook.banknote.WatchHit;
import org.casebook.core.Enums;
import org.casebook.core.Ids;
import org.casebook.core.InvalidInputException;
import org.casebook.core.http.HttpRequest;
import org.casebook.core.http.HttpResponse;
import org.casebook.core.http.RouteTable;
import org.casebook.core.page.Page;

/**
 * REST adapter: the collector's uploads (JSON batches, FSN pieces) and the four listings, on the
 * public service API; JSON bodies are {@link NoteJson} and the records below. The literal routes
 * ({@code batches}, {@code devices}, {@code suspects}) are declared before {@code {serial}}, which
 * would otherwise match them.
 */
public final class BanknoteRoutes {
  private static final String BASE = "/api/banknotes";

  /**
   * The routes live under {@code /api/banknotes} (plural, as the agents' and the bank's contract
   * names it) rather than under the system's own {@code /api/banknote/}: declared as the system's
   * protocol path, so the server refuses any other system claiming it.
   */
  public static final List<String> PATHS = List.of(BASE);

  private static final int PAGE = 100;

  /** Body of {@code POST /api/banknotes/batches}: up to 1,000 notes. */
  public record BatchRequest(List<NoteJson> notes) {}

  /** The acknowledgement: every note of the batch is durable. */
  public record BatchResponse(int stored) {}

  /** The acknowledgement of an FSN piece: its notes are durable; these records were rejected. */
  public record PieceResponse(int stored, List<Reject> rejected) {}

  public record HistoryPage(String serial, List<NoteJson> notes, String next) {}

  public record DevicePage(
      String device, String from, String to, List<NoteJson> notes, String next) {}

  public record BatchPage(String batch, List<NoteJson> notes, String next) {}

  public record SuspectsPage(String branch, String day, List<NoteJson> notes, String next) {}

  /** Body of {@code POST /api/banknotes/watch}: a serial or pattern ({@code ?}: any character). */
  public record WatchRequest(String pattern, Integer denomination, String note, String addedBy) {}

  /** A watch-list entry as JSON. */
  public record WatchJson(
      String id, String pattern, Integer denomination, String note, String addedBy, String added) {
    static WatchJson of(WatchEntry e) {
      return new WatchJson(
          e.id(), e.pattern(), e.denomination(), e.note(), e.addedBy(), e.added().toString());
    }
  }

  public record WatchPage(List<WatchJson> entries, String next) {}

  /** A hit: the note as stored and the entry it matched. */
  public record HitJson(String entry, String pattern, NoteJson note) {}

  public record HitsPage(String branch, String day, List<HitJson> hits, String next) {}

  /**
   * A probable clone: what differs, both readings, and where both branches have a location the way
   * between them ({@code speedKmh} null when the readings share their instant: no time at all).
   */
  public record CloneJson(
      List<String> differs,
      NoteJson earlier,
      NoteJson later,
      Double distanceKm,
      Double hours,
      Double speedKmh) {
    public static CloneJson of(ProbableClone c) {
      ProbableClone.Travel t = c.travel();
      return new CloneJson(
          c.differs(),
          NoteJson.of(c.earlier().withoutImage()),
          NoteJson.of(c.later().withoutImage()),
          t == null ? null : round(t.distanceKm(), 10),
          t == null ? null : round(t.hours(), 10_000),
          t == null || Double.isInfinite(t.speedKmh()) ? null : round(t.speedKmh(), 10));
    }

    private static double round(double value, double scale) {
      return Math.round(value * scale) / scale;
    }
  }

  /** A serial's probable clones and the pairs not checked for travel for lack of a location. */
  public record ClonesPage(
      String serial,
      int readings,
      int unlocated,
      int maxSpeedKmh,
      int minDistanceKm,
      List<CloneJson> clones) {
    public static ClonesPage of(CloneCheck c) {
      return new ClonesPage(
          c.serial(),
          c.readings(),
          c.unlocated(),
          c.maxSpeedKmh(),
          c.minDistanceKm(),
          c.clones().stream().map(CloneJson::of).toList());
    }
  }

  /** A page of a branch's day sweep (see {@link CloneSweep}). */
  public record SweepPage(
      String branch,
      String day,
      int serials,
      int checked,
      int unlocated,
      int truncated,
      int maxSpeedKmh,
      int minDistanceKm,
      List<CloneJson> clones,
      String next) {
    public static SweepPage of(CloneSweep s) {
      return new SweepPage(
          s.branch(),
          s.day(),
          s.serials(),
          s.checked(),
          s.unlocated(),
          s.truncated(),
          s.maxSpeedKmh(),
          s.minDistanceKm(),
          s.clones().stream().map(CloneJson::of).toList(),
          s.next().orElse(null));
    }
  }

  /** Body of {@code PUT /api/banknotes/branches/{branch}}: degrees, and an optional name. */
  public record BranchRequest(Double lat, Double lon, String name) {}

  /** A branch's location as JSON. */
  public record BranchJson(String branch, double lat, double lon, String name) {
    public static BranchJson of(BranchLocation b) {
      return new BranchJson(b.branch(), b.lat(), b.lon(), b.name());
    }
  }

  public record BranchesPage(List<BranchJson> branches, String next) {}

  /** A link of a dispute pack's chain; an inferred one has no note, only device and times. */
  public record StepJson(
      String stage, boolean inferred, String device, String after, String before, NoteJson note) {
    static StepJson of(DisputePack.Step s) {
      return new StepJson(
          Enums.label(s.stage()),
          s.inferred(),
          s.device(),
          s.after() == null ? null : s.after().toString(),
          s.before() == null ? null : s.before().toString(),
          s.note() == null ? null : NoteJson.of(s.note()));
    }
  }

  /** A dispute pack: the custody chain to the payout, what came after, the clones. */
  public record DisputeJson(
      String serial,
      NoteJson paidOut,
      List<StepJson> chain,
      List<StepJson> after,
      int earlier,
      List<CloneJson> clones) {}

  /** What a purge answers: the file and the notes purged. */
  record PurgeResponse(String device, String source, long purged) {}

  /** Every route, declared once (the descriptor lists them, start binds them). */
  public static final RouteTable<BanknoteService> ROUTES =
      RouteTable.<BanknoteService>builder()
          .post(
              BASE + "/batches",
              "Collector: store a batch of notes; answers once every note is durable in HBase",
              (svc, req) -> HttpResponse.ok(new BatchResponse(svc.store(notes(req)))))
          .post(
              BASE + "/fsn",
              "Collector: store a piece of an FSN file (its header and a run of its records;"
                  + " ?source=&first= name the file and the piece's first record); answers once"
                  + " every note is durable",
              (svc, req) -> {
                BanknoteService.PieceResult r =
                    svc.storeFsn(
                        required(req, "source"), first(req), req.body(), context(svc, req));
                return HttpResponse.ok(new PieceResponse(r.stored(), r.rejected()));
              })
          .post(
              BASE + "/watch",
              "Watch list: add a serial or pattern (? matches one character; same length only)",
              (svc, req) -> {
                WatchRequest w = req.body(WatchRequest.class);
                return HttpResponse.created(
                    WatchJson.of(svc.watch(w.pattern(), w.denomination(), w.note(), w.addedBy())));
              })
          .list(
              BASE + "/watch",
              "Watch list: the entries, by id",
              (svc, req) -> {
                Page<WatchEntry> p = svc.watchList(req.page(PAGE));
                return HttpResponse.ok(
                    new WatchPage(p.items().stream().map(WatchJson::of).toList(), p.nextOrNull()));
              })
          .list(
              BASE + "/watch/hits",
              "Watch-list hits of a branch on a day (?branch=&day=YYYY-MM-DD), newest first",
              (svc, req) -> {
                String branch = req.query("branch").orElse(null);
                InvalidInputException.check(branch != null, "branch", "branch is required");
                String day = req.query("day").orElse(null);
                Page<WatchHit> p =
                    svc.hits(branch, BanknoteService.parseDay(day, "day"), req.page(PAGE));
                List<HitJson> hits =
                    p.items().stream()
                        .map(h -> new HitJson(h.entry(), h.pattern(), NoteJson.of(h.note())))
                        .toList();
                return HttpResponse.ok(new HitsPage(branch, day, hits, p.nextOrNull()));
              })
          .get(
              BASE + "/clones/{serial}",
              "Impossible history: readings of a serial whose denomination or edition differs from"
                  + " the reading before, or read at a branch further from the one before than a"
                  + " note travels in the time between (probable clones), with both readings",
              (svc, req) -> HttpResponse.ok(ClonesPage.of(svc.clones(req.pathParam("serial")))))
          .list(
              BASE + "/clones",
              "Day sweep (?branch=&day=YYYY-MM-DD): probable clones among the serials read at a"
                  + " branch on a day, each checked against its history; by serial",
              (svc, req) -> {
                String branch = req.query("branch").orElse(null);
                InvalidInputException.check(branch != null, "branch", "branch is required");
                java.time.LocalDate day =
                    BanknoteService.parseDay(req.query("day").orElse(null), "day");
                return HttpResponse.ok(SweepPage.of(svc.cloneSweep(branch, day, req.page(PAGE))));
              })
          .put(
              BASE + "/branches/{branch}",
              "Declare where a branch is ({\"lat\",\"lon\"} in degrees, optional \"name\");"
                  + " replaces an earlier declaration",
              (svc, req) -> {
                BranchRequest b = req.body(BranchRequest.class);
                return HttpResponse.ok(
                    BranchJson.of(
                        svc.putBranch(req.pathParam("branch"), b.lat(), b.lon(), b.name())));
              })
          .get(
              BASE + "/branches/{branch}",
              "A branch's location",
              (svc, req) -> HttpResponse.ok(BranchJson.of(svc.branch(req.pathParam("branch")))))
          .delete(
              BASE + "/branches/{branch}",
              "Remove a branch's location (its readings are then not checked for travel)",
              (svc, req) -> {
                svc.deleteBranch(req.pathParam("branch"));
                return HttpResponse.noContent();
              })
          .list(
              BASE + "/branches",
              "Branches with a location, by id",
              (svc, req) -> {
                Page<BranchLocation> p = svc.branches(req.page(PAGE));
                return HttpResponse.ok(
                    new BranchesPage(
                        p.items().stream().map(BranchJson::of).toList(), p.nextOrNull()));
              })
          .get(
              BASE + "/settlement",
              "Daily settlement of a branch (?branch=&day=YYYY-MM-DD, the bank's zone): notes per"
                  + " device and denomination by operation, suspects, files, notes per hour, and"
                  + " whether the day is closed; &format=csv for one line per device and"
                  + " denomination",
              (svc, req) -> {
                String branch = req.query("branch").orElse(null);
                InvalidInputException.check(branch != null, "branch", "branch is required");
                String format = req.query("format").orElse("json");
                InvalidInputException.check(
                    format.equals("json") || format.equals("csv"),
                    "format",
                    "format must be json or csv, got '" + format + "'");
                java.time.LocalDate day =
                    BanknoteService.parseDay(req.query("day").orElse(null), "day");
                Settlement s = svc.settlement(branch, day);
                if (format.equals("csv")) {
                  return HttpResponse.text(200, "text/csv; charset=utf-8", SettlementCsv.write(s))
                      .withHeader(
                          "Content-Disposition",
                          "attachment; filename=\"settlement-"
                              + branch.replaceAll("[^A-Za-z0-9._-]", "_")
                              + "-"
                              + day
                              + ".csv\"");
                }
                return HttpResponse.ok(SettlementJson.of(s));
              })
          .post(
              BASE + "/settlement/{branch}/{day}/devices/{device}/delivered",
              "Declare that a device delivered every file of a branch's day (idempotent); the day"
                  + " closes when every device with notes that day has declared",
              (svc, req) -> {
                Settlement.Delivery d =
                    svc.declareDelivered(
                        req.pathParam("branch"),
                        BanknoteService.parseDay(req.pathParam("day"), "day"),
                        req.pathParam("device"));
                return HttpResponse.ok(SettlementJson.DeliveryJson.of(d));
              })
          .get(
              BASE + "/dispute/{serial}",
              "Dispute pack of a serial: its custody chain to its newest payout (deposit, sorter"
                  + " batch, bundle, ATM cassette, payout) with serial images, what was read after,"
                  + " probable clones",
              (svc, req) -> {
                DisputePack d = svc.dispute(req.pathParam("serial"));
                return HttpResponse.ok(
                    new DisputeJson(
                        d.serial(),
                        d.paidOut() == null ? null : NoteJson.of(d.paidOut()),
                        d.chain().stream().map(StepJson::of).toList(),
                        d.after().stream().map(StepJson::of).toList(),
                        d.earlier(),
                        d.clones().stream().map(CloneJson::of).toList()));
              })
          .delete(
              BASE + "/watch/{id}",
              "Watch list: remove an entry",
              (svc, req) -> {
                svc.unwatch(req.pathParam("id"));
                return HttpResponse.noContent();
              })
          .admin(
              "DELETE",
              BASE + "/devices/{id}/files/{source}",
              "Purge every reading one delivered file made (a wrong upload), from every table",
              (svc, req) ->
                  HttpResponse.ok(
                      new PurgeResponse(
                          req.pathParam("id"),
                          req.pathParam("source"),
                          svc.purgeFile(req.pathParam("id"), req.pathParam("source")))))
          .list(
              BASE + "/batches/{id}",
              "Every note of a batch (ATM transaction, sorter run), by device and time",
              (svc, req) -> {
                String id = req.pathParam("id");
                Page<Note> p = svc.batch(id, req.page(PAGE));
                return HttpResponse.ok(new BatchPage(id, json(p), p.nextOrNull()));
              })
          .list(
              BASE + "/devices/{id}",
              "What a device read in [from, to) (ISO-8601 times or dates), oldest first",
              (svc, req) -> {
                String id = req.pathParam("id");
                Instant from = svc.parseTime(req.query("from").orElse(null), "from");
                Instant to = svc.parseTime(req.query("to").orElse(null), "to");
                Page<Note> p = svc.device(id, from, to, req.page(PAGE));
                return HttpResponse.ok(
                    new DevicePage(id, from.toString(), to.toString(), json(p), p.nextOrNull()));
              })
          .list(
              BASE + "/suspects",
              "Suspect notes of a branch on a day (?branch=&day=YYYY-MM-DD), by time",
              (svc, req) -> {
                String branch = req.query("branch").orElse(null);
                InvalidInputException.check(branch != null, "branch", "branch is required");
                String day = req.query("day").orElse(null);
                Page<Note> p =
                    svc.suspects(branch, BanknoteService.parseDay(day, "day"), req.page(PAGE));
                return HttpResponse.ok(new SuspectsPage(branch, day, json(p), p.nextOrNull()));
              })
          .list(
              BASE + "/{serial}",
              "A note's history by serial number, newest first (?images=true adds serial images)",
              (svc, req) -> {
                String serial = BanknoteService.lookupSerial(req.pathParam("serial"));
                Page<Note> p = svc.history(serial, req.page(PAGE), images(req));
                return HttpResponse.ok(new HistoryPage(serial, json(p), p.nextOrNull()));
              })
          .build();

  private BanknoteRoutes() {}

  private static List<Note> notes(HttpRequest req) {
    BatchRequest body = req.body(BatchRequest.class);
    InvalidInputException.check(body.notes() != null, "notes", "notes are required");
    InvalidInputException.check(
        body.notes().size() <= BanknoteService.MAX_BATCH,
        "notes",
        "at most " + BanknoteService.MAX_BATCH + " notes a batch, got " + body.notes().size());
    List<Note> out = new ArrayList<>(body.notes().size());
    for (int i = 0; i < body.notes().size(); i++) {
      NoteJson n = body.notes().get(i);
      InvalidInputException.check(n != null, "notes[" + i + "]", "a note is an object");
      out.add(n.toNote("notes[" + i + "]"));
    }
    return out;
  }

  private static String required(HttpRequest req, String name) {
    String v = req.query(name).orElse(null);
    InvalidInputException.check(v != null && !v.isEmpty(), name, name + " is required");
    return v;
  }

  private static long first(HttpRequest req) {
    String v = required(req, "first");
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new InvalidInputException("first", "first must be a record number, got '" + v + "'");
    }
  }

  /** What the agent's options say about the file (query parameters), as its reader took them. */
  private static FileContext context(BanknoteService svc, HttpRequest req) {
    ZoneId zone = svc.zone();
    String z = req.query("zone").orElse(null);
    if (z != null) {
      try {
        zone = ZoneId.of(z);
      } catch (DateTimeException e) {
        throw new InvalidInputException("zone", "unknown time zone '" + z + "'");
      }
    }
    return new FileContext(
        req.query("branch").map(b -> Ids.check(b, "branch", NoteRules.MAX_ID)).orElse(null),
        req.query("kind").map(k -> Enums.parse(DeviceKind.class, k, "kind")).orElse(null),
        req.query("operation").map(o -> Enums.parse(Operation.class, o, "operation")).orElse(null),
        req.query("device").map(d -> Ids.check(d, "device", NoteRules.MAX_ID)).orElse(null),
        zone);
  }

  private static boolean images(HttpRequest req) {
    String v = req.query("images").orElse("false");
    InvalidInputException.check(
        v.equals("true") || v.equals("false"), "images", "images must be true or false");
    return v.equals("true");
  }

  private static List<NoteJson> json(Page<Note> page) {
    return page.items().stream().map(NoteJson::of).toList();
  }
}
