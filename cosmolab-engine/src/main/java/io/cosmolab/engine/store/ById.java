package io.cosmolab.engine.store;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A container's documents by id, for point reads: a document is found by one hash look-up of its id
 * and a check of its EPK. An id is usually in one logical partition only, so each entry holds the
 * document itself; an id that several logical partitions use holds an immutable array of their
 * documents, replaced whole.
 *
 * <p>Why by id and not by (EPK, id): the pair needed a key object per stored document, kept as long
 * as the document, 24 bytes that the collector copies with it (docs/benchmarks.md, "What a stored
 * document keeps"); and a look-up made one.
 *
 * <p>Concurrency: a put or remove is a compare-and-set of the id's entry, retried if another
 * logical partition changed the same id's entry meanwhile (the engine writes to one logical
 * partition from one thread at a time, so only different logical partitions race here). A reader
 * sees each id's entry before or after a write, never between.
 */
final class ById {
  private final ConcurrentHashMap<String, Object> entries = new ConcurrentHashMap<>();

  /** The document {@code id} in the logical partition of {@code epk}, or null. */
  StoredDocument get(String epk, String id) {
    Object entry = entries.get(id);
    if (entry instanceof StoredDocument d) {
      return d.epk().equals(epk) ? d : null;
    }
    int i = indexOf(entry, epk);
    return i < 0 ? null : ((StoredDocument[]) entry)[i];
  }

  /**
   * Puts {@code document} in place of its logical partition's one of the same id: that, or null.
   */
  StoredDocument put(StoredDocument document) {
    String id = document.id();
    while (true) {
      Object entry = entries.putIfAbsent(id, document);
      if (entry == null) {
        return null;
      }
      int i = indexOf(entry, document.epk());
      Object next;
      if (entry instanceof StoredDocument single) {
        next = i == 0 ? document : new StoredDocument[] {single, document};
      } else {
        StoredDocument[] all = (StoredDocument[]) entry;
        StoredDocument[] copy = Arrays.copyOf(all, i < 0 ? all.length + 1 : all.length);
        copy[i < 0 ? all.length : i] = document;
        next = copy;
      }
      if (entries.replace(id, entry, next)) {
        return i < 0 ? null : at(entry, i);
      }
    }
  }

  /** Removes the document {@code id} of the logical partition of {@code epk}: that, or null. */
  StoredDocument remove(String epk, String id) {
    while (true) {
      Object entry = entries.get(id);
      int i = indexOf(entry, epk);
      if (i < 0) {
        return null;
      }
      boolean done;
      if (entry instanceof StoredDocument) {
        done = entries.remove(id, entry);
      } else {
        StoredDocument[] all = (StoredDocument[]) entry;
        done = entries.replace(id, entry, without(all, i));
      }
      if (done) {
        return at(entry, i);
      }
    }
  }

  /** Where {@code entry} holds the document of {@code epk}: 0 for a single one, or -1. */
  private static int indexOf(Object entry, String epk) {
    if (entry instanceof StoredDocument d) {
      return d.epk().equals(epk) ? 0 : -1;
    }
    if (entry instanceof StoredDocument[] all) {
      for (int i = 0; i < all.length; i++) {
        if (all[i].epk().equals(epk)) {
          return i;
        }
      }
    }
    return -1;
  }

  private static StoredDocument at(Object entry, int i) {
    return entry instanceof StoredDocument d ? d : ((StoredDocument[]) entry)[i];
  }

  /** {@code all} without its {@code i}-th: the one left by itself, or a shorter array. */
  private static Object without(StoredDocument[] all, int i) {
    if (all.length == 2) {
      return all[1 - i];
    }
    StoredDocument[] rest = new StoredDocument[all.length - 1];
    System.arraycopy(all, 0, rest, 0, i);
    System.arraycopy(all, i + 1, rest, i, all.length - i - 1);
    return rest;
  }
}
