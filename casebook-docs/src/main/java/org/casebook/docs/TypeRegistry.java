package org.casebook.docs;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.casebook.core.ConflictException;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.schema.SchemaManager;

/**
 * The declared types, kept in the registry table (so every process sees the same) and cached here.
 * A cached type is re-read when a request names a type or field the cache does not know, and the
 * whole cache every few seconds, so a type declared by another process is seen at once where it
 * matters and soon everywhere else.
 */
final class TypeRegistry {
  private static final long RELOAD_MILLIS = 5_000;
  private final TypeStore store;
  private final SchemaManager schemas;
  private final DocsSchema schema;
  private final Clock clock;
  private final Map<String, DocType> cache = new ConcurrentHashMap<>();
  private volatile long loadedAt = Long.MIN_VALUE;

  TypeRegistry(TypeStore store, SchemaManager schemas, DocsSchema schema, Clock clock) {
    this.store = store;
    this.schemas = schemas;
    this.schema = schema;
    this.clock = clock;
  }

  /** Stores the default types that are not stored yet (a changed default is left as it is). */
  void installDefaults() {
    for (DocType t : DefaultTypes.ALL) {
      store.writeType(t.name(), null, Json.writeBytes(t));
    }
    reload();
  }

  /** The type, or a 400 naming {@code field} if there is none. */
  DocType get(String name, String field) {
    if (name == null || !cache.containsKey(name)) {
      DocLimits.typeName(name, field); // names in the cache were checked when stored
    }
    fresh();
    DocType t = cache.get(name);
    if (t == null) {
      t = reload(name);
    }
    InvalidInputException.check(t != null, field, "unknown document type '" + name + "'");
    return t;
  }

  /**
   * {@code type}, re-read from the registry if {@code fields} names a field it lacks (another
   * process may have added the field since this one cached the type).
   */
  DocType forFields(DocType type, Collection<String> fields) {
    for (String name : fields) {
      if (type.field(name).isEmpty()) {
        DocType t = reload(type.name());
        return t == null ? type : t;
      }
    }
    return type;
  }

  List<DocType> all() {
    reload();
    List<DocType> out = new ArrayList<>(cache.values());
    out.sort(Comparator.comparing(DocType::name));
    return out;
  }

  /** The child types that attach to documents of {@code parent}. */
  List<DocType> childrenOf(String parent) {
    fresh();
    List<DocType> out = new ArrayList<>();
    for (DocType t : cache.values()) {
      if (t.parents().contains(parent)) {
        out.add(t);
      }
    }
    out.sort(Comparator.comparing(DocType::name));
    return out;
  }

  /**
   * Declares or extends a type. Fields may be added; a field's kind and family never change (the
   * stored cells would be read wrongly), a child type stays a child and keeps its parents. Creates
   * the type's table first, so a type is only visible once documents can be written.
   */
  DocType put(DocType type) {
    Objects.requireNonNull(type, "type is null");
    for (String p : type.parents()) {
      DocType parent = get(p, "parents");
      InvalidInputException.check(
          !parent.isChild(), "parents", "'" + p + "' is itself a child type");
    }
    byte[] stored = store.readType(type.name()).orElse(null);
    if (stored != null) {
      DocType old = parse(stored);
      InvalidInputException.check(
          type.isChild() == old.isChild(),
          "parents",
          "a type cannot change between a document type and a child type");
      for (FieldDef f : old.fields()) {
        FieldDef now = type.field(f.name()).orElse(null);
        if (now == null || now.kind() != f.kind() || now.family() != f.family()) {
          throw new ConflictException(
              "field '"
                  + f.name()
                  + "' of "
                  + type.name()
                  + " is "
                  + f.kind()
                  + " in "
                  + f.family()
                  + "; stored fields cannot be removed or changed");
        }
      }
      if (!type.parents().containsAll(old.parents())) {
        throw new ConflictException("parents of " + type.name() + " can be added, not removed");
      }
    }
    schemas.ensure(schema.typeTable(type));
    if (!store.writeType(type.name(), stored, Json.writeBytes(type))) {
      throw new ConflictException("type " + type.name() + " was changed meanwhile; read it again");
    }
    cache.put(type.name(), type);
    return type;
  }

  private void fresh() {
    if (clock.millis() - loadedAt > RELOAD_MILLIS) {
      reload();
    }
  }

  private void reload() {
    Map<String, byte[]> stored = store.readTypes();
    for (Map.Entry<String, byte[]> e : stored.entrySet()) {
      cache.put(e.getKey(), parse(e.getValue()));
    }
    loadedAt = clock.millis();
  }

  private DocType reload(String name) {
    DocType t = store.readType(name).map(TypeRegistry::parse).orElse(null);
    if (t != null) {
      cache.put(name, t);
    }
    return t;
  }

  private static DocType parse(byte[] json) {
    try {
      return Json.mapper().readValue(json, DocType.class);
    } catch (IOException e) {
      throw new IllegalStateException("stored type definition does not parse", e);
    }
  }
}
