package io.cosmolab.engine;

import io.cosmolab.engine.store.StoredDocument;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A transaction's own writes, by document (EPK and id): the version it staged last for each, and
 * the documents it deleted. What its later reads see before the store does.
 *
 * <p>A point write stages one version and deletes nothing, and it is most writes: that one is kept
 * in a field, and the maps (and the key text they need) are made only when a second document is
 * staged or one is deleted. Each of those was about 300 bytes a create for the collector
 * (docs/benchmarks.md, sixteenth session). Not thread-safe: a transaction is one thread's.
 */
final class StagedWrites {
  private StoredDocument only; // the one version staged while there is one; null once `many` is
  private Map<String, StoredDocument> many; // by key(epk, id), once a second document is staged
  private Set<String> deleted; // by key(epk, id)

  /** A document's key in a transaction's maps: its EPK, a NUL (no EPK holds one), its id. */
  static String key(String epk, String id) {
    return epk + '\u0000' + id;
  }

  private static boolean isOf(StoredDocument d, String epk, String id) {
    return d.id().equals(id) && d.epk().equals(epk);
  }

  /** Whether nothing is staged and nothing deleted. */
  boolean isEmpty() {
    return only == null
        && (many == null || many.isEmpty())
        && (deleted == null || deleted.isEmpty());
  }

  /** Stages {@code d} as its document's version, in place of one staged or deleted before. */
  void put(StoredDocument d) {
    if (deleted != null) {
      deleted.remove(key(d.epk(), d.id()));
    }
    if (many == null) {
      if (only == null || isOf(only, d.epk(), d.id())) {
        only = d;
        return;
      }
      many = new HashMap<>();
      many.put(key(only.epk(), only.id()), only);
      only = null;
    }
    many.put(key(d.epk(), d.id()), d);
  }

  /** Marks the document deleted, dropping any version of it staged before. */
  void delete(String epk, String id) {
    if (only != null && isOf(only, epk, id)) {
      only = null;
    } else if (many != null) {
      many.remove(key(epk, id));
    }
    if (deleted == null) {
      deleted = new HashSet<>();
    }
    deleted.add(key(epk, id));
  }

  /** The version staged for the document, or null. */
  StoredDocument get(String epk, String id) {
    if (only != null) {
      return isOf(only, epk, id) ? only : null;
    }
    return many == null ? null : many.get(key(epk, id));
  }

  /** Whether the document was deleted (and not staged again since). */
  boolean isDeleted(String epk, String id) {
    return deleted != null && deleted.contains(key(epk, id));
  }

  /** The versions staged, one per document. */
  Collection<StoredDocument> versions() {
    if (only != null) {
      return List.of(only);
    }
    return many == null ? List.of() : many.values();
  }

  /** The ids of the documents of the logical partition {@code epk} that were deleted. */
  List<String> deletedIds(String epk) {
    List<String> ids = new ArrayList<>();
    if (deleted != null) {
      String prefix = epk + '\u0000';
      for (String k : deleted) {
        if (k.startsWith(prefix)) {
          ids.add(k.substring(prefix.length()));
        }
      }
    }
    return ids;
  }
}
