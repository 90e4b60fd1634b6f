package org.casebook.archive;

import static org.casebook.archive.ArchiveSchema.BASIC;
import static org.casebook.archive.ArchiveSchema.OTHER;
import static org.casebook.archive.ArchiveSchema.RELATIONSHIP;
import static org.casebook.archive.ArchiveSchema.STATUSES;
import static org.casebook.archive.ArchiveSchema.TEXT;
import static org.casebook.archive.ArchiveSchema.U;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.key.KeyLayout;

/**
 * The archive's cells (seed 001 §2.1): a user row (profile, followers and friends as qualifiers), a
 * status row, the status id in its user's row and the id index, written alike by both import paths,
 * and read back by {@link ArchiveStore}. The writing half is public because the loaders in {@code
 * batch} (the bulk load's mapper, the put path) live in a package of their own; the row keys stay
 * package-private behind it.
 */
public final class ArchiveCellCodec {
  private static final byte[] UID = Bytes.toBytes("uid");

  private ArchiveCellCodec() {}

  /** The cells of one user row (for the {@code user} table). */
  public static Put userPut(Layout layout, UserRecord u) {
    Put p = new Put(layout.userRow(u.uid()));
    for (Map.Entry<String, String> f : u.profile().entrySet()) {
      p.addColumn(BASIC, Bytes.toBytes(f.getKey()), Bytes.toBytes(f.getValue()));
    }
    p.addColumn(BASIC, Bytes.toBytes("id"), Bytes.toBytes(u.uid()));
    for (String f : u.followers()) {
      p.addColumn(RELATIONSHIP, relationQualifier('F', f), new byte[0]);
    }
    for (String f : u.friends()) {
      p.addColumn(RELATIONSHIP, relationQualifier('T', f), new byte[0]);
    }
    return p;
  }

  /**
   * A status's three rows, in this order: the status row (for {@code status}), its id in the user
   * row (for {@code user}: seed 001's secondary index both ways), and the id index (for {@code
   * status_index}).
   */
  public static List<Put> statusPuts(Layout layout, StatusRecord s) {
    Put row =
        new Put(layout.statusRow(s.uid(), s.id()))
            .addColumn(BASIC, Bytes.toBytes("user_id"), Bytes.toBytes(s.uid()))
            .addColumn(
                BASIC, Bytes.toBytes("created_at"), Bytes.toBytes(Long.toString(s.createdAt())))
            .addColumn(BASIC, Bytes.toBytes("source"), Bytes.toBytes(s.source()))
            .addColumn(
                BASIC, Bytes.toBytes("reposts_count"), Bytes.toBytes(Long.toString(s.reposts())))
            .addColumn(
                BASIC, Bytes.toBytes("comments_count"), Bytes.toBytes(Long.toString(s.comments())))
            .addColumn(
                BASIC,
                Bytes.toBytes("attitudes_count"),
                Bytes.toBytes(Long.toString(s.attitudes())))
            .addColumn(TEXT, Bytes.toBytes("text"), Bytes.toBytes(s.text()));
    if (s.geo() != null) {
      row.addColumn(OTHER, Bytes.toBytes("geo"), Bytes.toBytes(s.geo()));
    }
    if (s.retweetedId() != null) {
      row.addColumn(OTHER, Bytes.toBytes("retweeted_id"), Bytes.toBytes(s.retweetedId()));
      if (s.retweetedUid() != null) {
        row.addColumn(OTHER, Bytes.toBytes("retweeted_uid"), Bytes.toBytes(s.retweetedUid()));
      }
    }
    Put link =
        new Put(layout.userRow(s.uid()))
            .addColumn(
                STATUSES, ArchiveKeys.STATUS_QUALIFIER.encode(Bytes.toBytes(s.id())), new byte[0]);
    Put index = new Put(layout.indexRow(s.id())).addColumn(U, UID, Bytes.toBytes(s.uid()));
    return List.of(row, link, index);
  }

  static byte[] relationQualifier(char kind, String id) {
    return ArchiveKeys.RELATION.encode((int) kind, id);
  }

  /** The uid an index row points to, or null if there is none. */
  static String indexedUid(Result indexRow) {
    byte[] uid = indexRow.getValue(U, UID);
    return uid == null ? null : Bytes.toString(uid);
  }

  /** A user row read with its profile and relationship families; at most {@code maxRelations}. */
  static UserRecord user(String uid, Result r, int maxRelations) {
    Map<String, String> profile = new LinkedHashMap<>();
    for (String f : UserRecord.PROFILE_FIELDS) {
      byte[] v = r.getValue(BASIC, Bytes.toBytes(f));
      if (v != null) {
        profile.put(f, Bytes.toString(v));
      }
    }
    List<String> followers = new ArrayList<>();
    List<String> friends = new ArrayList<>();
    for (Cell c : r.rawCells()) {
      if (!CellUtil.matchingFamily(c, RELATIONSHIP)) {
        continue;
      }
      KeyLayout.Key k = ArchiveKeys.RELATION.decode(CellUtil.cloneQualifier(c));
      List<String> target = k.integer("kind") == 'F' ? followers : friends;
      if (target.size() < maxRelations) {
        target.add(k.string("id"));
      }
    }
    return new UserRecord(uid, profile, followers, friends);
  }

  static StatusRecord status(long id, Result r) {
    return new StatusRecord(
        id,
        str(r, BASIC, "user_id"),
        Long.parseLong(str(r, BASIC, "created_at")),
        str(r, TEXT, "text"),
        str(r, BASIC, "source"),
        Long.parseLong(str(r, BASIC, "reposts_count")),
        Long.parseLong(str(r, BASIC, "comments_count")),
        Long.parseLong(str(r, BASIC, "attitudes_count")),
        str(r, OTHER, "geo"),
        str(r, OTHER, "retweeted_id"),
        str(r, OTHER, "retweeted_uid"));
  }

  private static String str(Result r, byte[] family, String q) {
    byte[] v = r.getValue(family, Bytes.toBytes(q));
    return v == null ? null : Bytes.toString(v);
  }
}
