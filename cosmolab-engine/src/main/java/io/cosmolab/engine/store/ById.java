package io.cosmolab.engine.store;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A container's documents by id, for point reads: a document is found by one hash look-up of its id
 * and a check of its EPK. An id is usually in one logical partition only, so each entry is the
 * document itself; an id that several logical partitions use holds an immutable array of their
 * documents, replaced whole.
 *
 * <p>Why by id and not by (EPK, id): the pair needed a key object per stored document, kept as long
 * as the document, 24 bytes that the collector copies with it (docs/benchmarks.md, "What a stored
 * document keeps"); and a look-up made one. Why a table of its own and not a {@code
 * ConcurrentHashMap}: the map keeps a node per entry (32 bytes, one more object per stored document
 * for the collector to copy); here an entry is a slot of an array.
 */
/*
 * The table: STRIPES stripes by the id's hash, each an open-addressing array probed linearly. A
 * slot holds null (never used: a probe stops there), an entry (a document, or an array of the
 * documents of one id), or GONE (an entry removed: a probe goes past it, an insert may reuse it).
 * Ids hash with String.hashCode, which the id string caches.
 *
 * Concurrency: a write (put, remove) takes its stripe's monitor, so two writers meet only on the
 * same stripe (the engine writes to one logical partition from one thread at a time, so only
 * different logical partitions race here, and on one of 64 stripes by chance). A write changes one
 * slot with one volatile write, so a reader, which takes no lock, sees each id's entry before or
 * after it, never between. A stripe that fills past its load grows into a new array, filled under
 * the monitor before it is published by one volatile write; a reader still on the old array sees
 * it as it was at the swap, a state that was true then (writes go to the new one after).
 */
final class ById {
  private static final int STRIPES = 64; // a power of two
  private static final int FIRST = 8; // slots of a stripe's first array: a power of two
  private static final Object GONE = new Object();

  private final Stripe[] stripes = new Stripe[STRIPES];

  ById() {
    for (int s = 0; s < STRIPES; s++) {
      stripes[s] = new Stripe();
    }
  }

  /** The document {@code id} in the logical partition of {@code epk}, or null. */
  StoredDocument get(String epk, String id) {
    int h = hash(id);
    AtomicReferenceArray<Object> table = stripes[h & (STRIPES - 1)].table;
    int mask = table.length() - 1;
    for (int i = (h >>> 6) & mask; ; i = (i + 1) & mask) {
      Object entry = table.get(i);
      if (entry == null) {
        return null;
      }
      if (entry != GONE && idOf(entry).equals(id)) {
        if (entry instanceof StoredDocument d) {
          return d.epk().equals(epk) ? d : null;
        }
        int at = indexOf(entry, epk);
        return at < 0 ? null : ((StoredDocument[]) entry)[at];
      }
    }
  }

  /**
   * Puts {@code document} in place of its logical partition's one of the same id: that, or null.
   */
  StoredDocument put(StoredDocument document) {
    String id = document.id();
    int h = hash(id);
    Stripe stripe = stripes[h & (STRIPES - 1)];
    synchronized (stripe) {
      int i = stripe.find(h, id);
      if (i < 0) {
        stripe.insert(-i - 1, document);
        return null;
      }
      Object entry = stripe.table.get(i);
      int at = indexOf(entry, document.epk());
      Object next;
      if (entry instanceof StoredDocument single) {
        next = at == 0 ? document : new StoredDocument[] {single, document};
      } else {
        StoredDocument[] all = (StoredDocument[]) entry;
        StoredDocument[] copy = Arrays.copyOf(all, at < 0 ? all.length + 1 : all.length);
        copy[at < 0 ? all.length : at] = document;
        next = copy;
      }
      stripe.table.set(i, next);
      return at < 0 ? null : at(entry, at);
    }
  }

  /** Removes the document {@code id} of the logical partition of {@code epk}: that, or null. */
  StoredDocument remove(String epk, String id) {
    int h = hash(id);
    Stripe stripe = stripes[h & (STRIPES - 1)];
    synchronized (stripe) {
      int i = stripe.find(h, id);
      if (i < 0) {
        return null;
      }
      Object entry = stripe.table.get(i);
      int at = indexOf(entry, epk);
      if (at < 0) {
        return null;
      }
      if (entry instanceof StoredDocument) {
        stripe.table.set(i, GONE);
        stripe.live--;
        if (16 * stripe.live < stripe.table.length() && stripe.table.length() > FIRST) {
          stripe.rebuild(null); // mostly emptied: a smaller array
        }
      } else {
        stripe.table.set(i, without((StoredDocument[]) entry, at));
      }
      return at(entry, at);
    }
  }

  /** How many slots the stripes have in all (for tests: the table grows and shrinks back). */
  int capacity() {
    int n = 0;
    for (Stripe s : stripes) {
      n += s.table.length();
    }
    return n;
  }

  private static int hash(String id) {
    int h = id.hashCode();
    return h ^ (h >>> 16) ^ (h >>> 23); // the stripe takes the low bits, the slot the next
  }

  /** One stripe's table; its writes, and the fields below, under its monitor. */
  private static final class Stripe {
    volatile AtomicReferenceArray<Object> table = new AtomicReferenceArray<>(FIRST);
    int live; // entries
    int used; // entries and GONE slots: what probes walk over

    /** The slot of {@code id}'s entry, or {@code -(a free slot for it) - 1}. */
    int find(int h, String id) {
      AtomicReferenceArray<Object> t = table;
      int mask = t.length() - 1;
      int free = -1;
      for (int i = (h >>> 6) & mask; ; i = (i + 1) & mask) {
        Object entry = t.get(i);
        if (entry == null) {
          return -(free >= 0 ? free : i) - 1;
        }
        if (entry == GONE) {
          if (free < 0) {
            free = i;
          }
        } else if (idOf(entry).equals(id)) {
          return i;
        }
      }
    }

    /** Puts a new id's entry into free slot {@code i} (from {@link #find}), growing as needed. */
    void insert(int i, Object entry) {
      AtomicReferenceArray<Object> t = table;
      boolean reused = t.get(i) == GONE;
      if (!reused && 2 * (used + 1) > t.length()) {
        rebuild(entry); // half full at most, so probes stay short and always end
        return;
      }
      t.set(i, entry);
      live++;
      used += reused ? 0 : 1;
    }

    /**
     * A new array with every entry and {@code entry} if not null (without the GONE slots), sized so
     * that the entries fill up to a quarter of it, published whole.
     */
    void rebuild(Object entry) {
      AtomicReferenceArray<Object> old = table;
      if (entry != null) {
        live++;
      }
      int size = FIRST;
      while (4 * live > size) {
        size <<= 1;
      }
      AtomicReferenceArray<Object> next = new AtomicReferenceArray<>(size);
      int mask = size - 1;
      for (int k = -1; k < old.length(); k++) {
        Object e = k < 0 ? entry : old.get(k);
        if (e == null || e == GONE) {
          continue;
        }
        int i = (hash(idOf(e)) >>> 6) & mask;
        while (next.get(i) != null) {
          i = (i + 1) & mask;
        }
        next.set(i, e);
      }
      used = live;
      table = next;
    }
  }

  /** The id of an entry (a document, or the documents of one id). */
  private static String idOf(Object entry) {
    return entry instanceof StoredDocument d ? d.id() : ((StoredDocument[]) entry)[0].id();
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
