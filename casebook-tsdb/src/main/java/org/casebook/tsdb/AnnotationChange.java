package org.casebook.tsdb;

import java.util.Map;

/**
 * An annotation as a request gives it ({@code POST} or {@code PUT /api/annotation}): each field
 * null when the request did not give it. A field counts as changed, as in OpenTSDB, when it is
 * given with a value other than its default ({@code 0}, {@code ""}; {@code custom} whenever given
 * non-null); a request that changes nothing stores nothing ({@code 304}).
 *
 * @param tsuid the series, or null or empty for a global annotation
 * @param startTime the start (seconds or milliseconds); required
 */
public record AnnotationChange(
    String tsuid,
    Long startTime,
    Long endTime,
    String description,
    String notes,
    Map<String, String> custom) {

  boolean changesEndTime() {
    return endTime != null && endTime != 0;
  }

  boolean changesDescription() {
    return description != null && !description.isEmpty();
  }

  boolean changesNotes() {
    return notes != null && !notes.isEmpty();
  }

  boolean changesCustom() {
    return custom != null;
  }

  boolean changesAnything() {
    return changesEndTime() || changesDescription() || changesNotes() || changesCustom();
  }

  /**
   * The annotation this change makes of {@code stored} (null: none stored): with {@code overwrite}
   * ({@code PUT}) every field is the request's (its default when not given); without ({@code POST})
   * a field the request does not change keeps its stored value.
   */
  Annotation applyTo(Annotation stored, boolean overwrite) {
    boolean keep = stored != null && !overwrite;
    return new Annotation(
        tsuid,
        startTime == null ? 0 : startTime,
        keep && !changesEndTime() ? stored.endTime() : (endTime == null ? 0 : endTime),
        keep && !changesDescription() ? stored.description() : description,
        keep && !changesNotes() ? stored.notes() : notes,
        keep && !changesCustom() ? stored.custom() : custom);
  }
}
