package org.casebook.trails;

import com.fasterxml.jackson.core.type.TypeReference;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;

/**
 * An immutable set of behaviours, the built-ins and those declared, by id and by label: what one
 * read of the registry found. MapReduce tasks get theirs as JSON in the job configuration ({@link
 * #encode}, {@link #decode}), so a task decodes declared behaviours as the client that submitted
 * the job does.
 */
public final class Behaviours implements BehaviourLookup {
  /** The four built-ins alone: what data without a registry holds. */
  public static final Behaviours BUILT_INS = new Behaviours(Behaviour.BUILT_INS);

  private final Behaviour[] byId = new Behaviour[Behaviour.LAST_ID + 1];
  private final TreeMap<String, Behaviour> byLabel = new TreeMap<>();
  private final List<Behaviour> all;

  private Behaviours(Collection<Behaviour> behaviours) {
    List<Behaviour> sorted = new ArrayList<>();
    for (Behaviour b : behaviours) {
      if (byId[b.id()] != null || byLabel.containsKey(b.label())) {
        throw new IllegalStateException("behaviour id or label twice: " + b.label());
      }
      byId[b.id()] = b;
      byLabel.put(b.label(), b);
    }
    for (Behaviour b : byId) {
      if (b != null) {
        sorted.add(b);
      }
    }
    this.all = List.copyOf(sorted);
  }

  /** The built-ins and {@code declared}. */
  static Behaviours withDeclared(Collection<Behaviour> declared) {
    List<Behaviour> all = new ArrayList<>(Behaviour.BUILT_INS);
    all.addAll(declared);
    return new Behaviours(all);
  }

  @Override
  public Optional<Behaviour> byLabel(String label) {
    return Optional.ofNullable(label == null ? null : byLabel.get(label));
  }

  @Override
  public Optional<Behaviour> byId(int id) {
    return Optional.ofNullable(id >= 0 && id < byId.length ? byId[id] : null);
  }

  @Override
  public Behaviours snapshot() {
    return this;
  }

  /** Every behaviour, by id. */
  public List<Behaviour> all() {
    return all;
  }

  /** The declared behaviours (not built in), by id. */
  public List<Behaviour> declared() {
    return all.stream().filter(b -> !b.builtIn()).toList();
  }

  /**
   * The behaviour a user named by {@code label} (any case), or a 400 on {@code field} listing the
   * known ones.
   */
  public Behaviour parse(String label, String field) {
    String l = label == null ? "" : label.trim().toLowerCase(Locale.ROOT);
    return byLabel(l)
        .orElseThrow(
            () ->
                new InvalidInputException(
                    field,
                    field
                        + ": unknown behaviour '"
                        + (label == null ? "" : label)
                        + "'; known: "
                        + String.join(", ", byLabel.keySet())));
  }

  /**
   * The declared behaviours as JSON, name to definition as the registry's rows hold them (what a
   * MapReduce job's configuration carries to its tasks).
   */
  public String encode() {
    Map<String, BehaviourStore.Definition> out = new LinkedHashMap<>();
    declared().forEach(b -> out.put(b.label(), BehaviourStore.definition(b)));
    return Json.write(out);
  }

  /** What {@link #encode} wrote (null, empty or no behaviour: the built-ins alone). */
  public static Behaviours decode(String text) {
    if (text == null || text.isEmpty()) {
      return BUILT_INS;
    }
    Map<String, BehaviourStore.Definition> in;
    try {
      in =
          Json.mapper()
              .readValue(
                  text, new TypeReference<LinkedHashMap<String, BehaviourStore.Definition>>() {});
    } catch (IOException e) {
      throw new IllegalStateException("corrupt behaviours in a job's configuration", e);
    }
    if (in.isEmpty()) {
      return BUILT_INS;
    }
    List<Behaviour> declared = new ArrayList<>();
    in.forEach((name, d) -> declared.add(BehaviourStore.behaviour(name, d)));
    return withDeclared(declared);
  }

  @Override
  public String toString() {
    return all.toString();
  }
}
