package org.casebook.banknote;

import java.util.List;
import java.util.Objects;

/**
 * A file read whole: the valid notes in file order and the records rejected with their reasons.
 * {@code format} names what the file was read as (an FSN variant or {@code jsonl}).
 */
public record ParsedFile(String source, String format, List<Note> notes, List<Reject> rejects) {
  public ParsedFile {
    Objects.requireNonNull(source, "source is null");
    Objects.requireNonNull(format, "format is null");
    notes = List.copyOf(notes);
    rejects = List.copyOf(rejects);
  }

  public int records() {
    return notes.size() + rejects.size();
  }
}
