package io.cosmolab.engine;

import io.cosmolab.engine.index.ContainerIndex;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.store.ContainerStore;
import io.cosmolab.engine.store.StoredDocument;
import io.cosmolab.query.plan.IndexPredicate;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * What queries and scans read of a container: its live documents — by EPK range, from a position,
 * by id in one logical partition — and the documents its indexes select. Expired documents are
 * invisible here before the sweep deletes them. Bodies are the stored ones: callers must not modify
 * them.
 */
/*
 * Concurrency: no lock. The store's walks and point reads are safe beside writers (a batch is seen
 * whole or not at all, see the stores), and an index lookup returns a fresh set.
 */
final class LiveDocuments {
  private final ContainerStore store;
  private final TimeToLive ttl;
  private final ContainerIndex index;
  private final WritePath writes;
  private final InstantSource clock;

  LiveDocuments(
      ContainerStore store,
      TimeToLive ttl,
      ContainerIndex index,
      WritePath writes,
      InstantSource clock) {
    this.store = store;
    this.ttl = ttl;
    this.index = index;
    this.writes = writes;
    this.clock = clock;
  }

  /** The live documents whose EPK is in {@code range}, in (EPK, id) order. */
  Iterator<StoredDocument> scan(EpkRange range) {
    return live(store.scan(range));
  }

  /**
   * The live documents whose EPK is in {@code range} at or after (fromEpk, fromId), in (EPK, id)
   * order: where a query page resumes. {@code fromEpk} lies in {@code range}.
   */
  Iterator<StoredDocument> scanFrom(EpkRange range, String fromEpk, String fromId) {
    return live(store.scanFrom(range, fromEpk, fromId));
  }

  /**
   * The live documents of one logical partition by id, read from one state of it (a batch is seen
   * whole or not at all); gone and expired ones are left out, the order is that of {@code ids}.
   */
  List<StoredDocument> byIds(String epk, List<String> ids, long now) {
    List<StoredDocument> out = new ArrayList<>(ids.size());
    for (StoredDocument d : store.getAll(epk, ids)) {
      if (!ttl.isExpired(d, now)) {
        out.add(d);
      }
    }
    return out;
  }

  /**
   * The documents of a path's index in ORDER BY order, a run at a time (see {@link
   * ContainerIndex#ordered}), building the index if needed; null when it is gone meanwhile (a
   * replace of the computed properties dropped it): then scan.
   */
  Iterator<ContainerIndex.Run> ordered(
      List<String> path,
      boolean ascending,
      boolean fromStart,
      com.fasterxml.jackson.databind.JsonNode from) {
    ensureBuilt(path);
    return index.ordered(path, ascending, fromStart, from);
  }

  /** Builds the index of a path unless complete: once; writes go on meanwhile, and maintain it. */
  private void ensureBuilt(List<String> path) {
    if (!index.covers(path)) {
      writes.buildIndex(path);
    }
  }

  /** The predicates an index serves, of a query's index-servable conjuncts (none: a scan). */
  List<IndexPredicate> served(List<IndexPredicate> predicates) {
    return index.usableAll(predicates);
  }

  /** Whether the indexing policy indexes a path (a computed property's only when named). */
  boolean indexes(List<String> path) {
    return index.indexes(path);
  }

  /**
   * The documents the index selects for a query's conjuncts — the intersection of the hits of every
   * indexed equality and served disjunction (the union of its branches'), else those of the first
   * indexed range — building the index of a path if needed; null when no predicate's path is
   * indexed (the query must scan).
   */
  Set<ContainerIndex.DocRef> candidates(List<IndexPredicate> usable) {
    return candidates(usable, new java.util.HashMap<>());
  }

  /**
   * As above, each comparison looked up once ({@code found}): the branches of a readMany's OR all
   * repeat the partition key's equality, whose hits are the whole logical partition.
   */
  private Set<ContainerIndex.DocRef> candidates(
      List<IndexPredicate> usable, Map<IndexPredicate, Set<ContainerIndex.DocRef>> found) {
    if (usable.isEmpty()) {
      return null;
    }
    List<Set<ContainerIndex.DocRef>> hits = new ArrayList<>();
    for (IndexPredicate p : usable) {
      Set<ContainerIndex.DocRef> hit;
      if (p.op() == IndexPredicate.Op.ANY_OF) {
        hit = anyOf(p, found);
      } else {
        hit = found.get(p);
        if (hit == null) {
          ensureBuilt(p.path());
          hit = index.lookup(p);
          if (hit != null) {
            found.put(p, hit);
          }
        }
      }
      if (hit == null) {
        return null; // dropped meanwhile: scan
      }
      hits.add(hit);
    }
    if (hits.size() == 1) {
      return hits.get(0);
    }
    hits.sort(Comparator.comparingInt(Set::size));
    // the smallest, copied: the sets may be another branch's too; intersecting a copy changes none
    Set<ContainerIndex.DocRef> out = new java.util.HashSet<>(hits.get(0));
    for (int i = 1; i < hits.size() && !out.isEmpty(); i++) {
      out.retainAll(hits.get(i));
    }
    return out;
  }

  /** The union of what each branch of a served disjunction selects; null when one must scan. */
  private Set<ContainerIndex.DocRef> anyOf(
      IndexPredicate p, Map<IndexPredicate, Set<ContainerIndex.DocRef>> found) {
    Set<ContainerIndex.DocRef> out = new java.util.HashSet<>();
    for (List<IndexPredicate> branch : p.branches()) {
      Set<ContainerIndex.DocRef> hits = candidates(index.usableAll(branch), found);
      if (hits == null) {
        return null;
      }
      out.addAll(hits);
    }
    return out;
  }

  /** Skips the expired documents of a walk (they are invisible before the sweep deletes them). */
  private Iterator<StoredDocument> live(Iterator<StoredDocument> it) {
    long now = clock.millis();
    return new Iterator<>() {
      StoredDocument next = advance();

      private StoredDocument advance() {
        while (it.hasNext()) {
          StoredDocument d = it.next();
          if (!ttl.isExpired(d, now)) {
            return d;
          }
        }
        return null;
      }

      @Override
      public boolean hasNext() {
        return next != null;
      }

      @Override
      public StoredDocument next() {
        if (next == null) {
          throw new NoSuchElementException();
        }
        StoredDocument d = next;
        next = advance();
        return d;
      }
    };
  }
}
