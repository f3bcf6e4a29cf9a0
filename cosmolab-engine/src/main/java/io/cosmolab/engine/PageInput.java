package io.cosmolab.engine;

import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.resource.ResourceIds;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.store.StoredDocument;
import io.cosmolab.query.exec.Executor;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The documents a page's query reads, in (EPK, id) order — the index's hits, or a scan of the
 * targets in scope — loaded only as the query pulls them, and counted per target as they are. A
 * streaming query's inputs are numbered in read order, and the last one read is the document of the
 * row the query returns (its rows come out one document at a time); any other query orders its
 * inputs by the RID's document part, which matters only to ORDER BY ties.
 */
final class PageInput implements Iterable<Executor.Input> {
  /**
   * What a page walks in ORDER BY order: the first item's index's runs (from the position on), the
   * items' paths and directions, and whether JOINs make several rows of a document.
   */
  record Walk(
      Iterator<io.cosmolab.engine.index.ContainerIndex.Run> runs,
      List<List<String>> paths,
      List<Boolean> ascending,
      boolean joins) {}

  /** What a page has loaded so far, per target: a snapshot, taken between rows. */
  static final class Loaded {
    final long[] bytes;
    final long documents;

    Loaded(long[] bytes, long documents) {
      this.bytes = bytes;
      this.documents = documents;
    }

    long total() {
      long t = 0;
      for (long b : bytes) {
        t += b;
      }
      return t;
    }
  }

  private final Container container;
  // whether the page's client has gone (Container.query), asked every ABANDON_CHECK_EVERY documents
  private java.util.function.BooleanSupplier abandoned;
  private final List<PartitionKeyRange> targets;
  private final EpkRange scope;
  private final String exactEpk;
  private final Resume resume;
  private final boolean streaming;
  private final boolean ordered;
  private final java.util.Set<io.cosmolab.engine.index.ContainerIndex.DocRef> candidates;
  private final Walk walk;
  private OrderedWalk walked;
  private final long now;
  // an index serves the query: versions written with the Exclude directive are not in its input
  private final boolean indexedOnly;
  // with chargeLikeAWalk: each document read, by its RID part: its target << 40 | its bytes
  private final ReadByRid readByRid;
  private final long[] bytes;
  private long documents;
  private long documentsBefore; // read by the pages before this one (resumeFor)
  private StoredDocument last;
  private java.util.function.BooleanSupplier stop = () -> false;
  private boolean stopped;
  private boolean abandonedSeen;

  PageInput(
      Container container,
      java.util.function.BooleanSupplier abandoned,
      List<PartitionKeyRange> targets,
      EpkRange scope,
      String exactEpk,
      Resume resume,
      boolean streaming,
      boolean ordered,
      java.util.Set<io.cosmolab.engine.index.ContainerIndex.DocRef> candidates,
      Walk walk,
      boolean recordReads,
      boolean indexedOnly,
      long now) {
    this.container = container;
    this.abandoned = abandoned;
    this.targets = targets;
    this.scope = scope;
    this.exactEpk = exactEpk;
    this.resume = resume;
    this.streaming = streaming;
    this.ordered = ordered;
    this.candidates = candidates;
    this.walk = walk;
    this.indexedOnly = indexedOnly;
    this.now = now;
    this.readByRid = recordReads ? new ReadByRid() : null;
    this.bytes = new long[targets.size()];
  }

  Loaded loaded() {
    return new Loaded(bytes.clone(), documents);
  }

  /**
   * What the documents of the rows with these RID parts weigh, per target (recorded reads): each
   * document once, however many rows its JOINs made, and not {@code paidBefore}'s (the last row
   * earlier pages returned, resumed after by its position or counted past by an offset; null on the
   * first page), whose rows began on the page before, which paid for it.
   */
  Loaded loadedBy(List<Long> rids, Long paidBefore) {
    long[] b = new long[targets.size()];
    java.util.Set<Long> counted = new java.util.HashSet<>();
    if (paidBefore != null) {
      counted.add(paidBefore);
    }
    for (long rid : rids) {
      long read = counted.add(rid) ? readByRid.get(rid, -1) : -1; // target << 40 | bytes
      if (read != -1) {
        b[(int) (read >>> 40)] += read & ((1L << 40) - 1);
      }
    }
    return new Loaded(b, counted.size() - (paidBefore != null ? 1 : 0));
  }

  /**
   * Ends the input early, before the next document, once {@code when} says so (the page's time
   * bound): the executor then sees no more documents, and {@link #stopped} tells the page that the
   * query is not over.
   */
  void stopWhen(java.util.function.BooleanSupplier when) {
    this.stop = when;
  }

  /**
   * Makes this input, left by a page with its query open ({@link #leave}), read for the next page,
   * whose client {@code abandoned} asks about.
   */
  void resumeFor(java.util.function.BooleanSupplier abandoned) {
    this.abandoned = abandoned;
    this.documentsBefore = documents;
  }

  /** Whether an index served this input its documents (else it scans). */
  boolean servedByIndex() {
    return candidates != null;
  }

  /** How many documents an index served this input (0 when it scans). */
  int candidateCount() {
    return candidates == null ? 0 : candidates.size();
  }

  /**
   * Lets go of what this page's request gave the input (its client, its time bound, which holds its
   * rows) before the input is kept for the next page (QueryCursors).
   */
  void leave() {
    this.abandoned = () -> false;
    this.stop = () -> false;
  }

  /** The documents read since this page began (a kept query's input read for pages before). */
  long documentsOfPage() {
    return documents - documentsBefore;
  }

  /** Whether {@link #stopWhen}'s condition ended the input. */
  boolean stopped() {
    return stopped;
  }

  /** Whether the input ended because the client went away (see {@link QueryRunner#run}). */
  boolean abandoned() {
    return abandonedSeen;
  }

  /** The last document read, or null. */
  StoredDocument last() {
    return last;
  }

  /** Whether the page has read a document after the one it resumed at (its progress). */
  boolean pastResume() {
    return last != null && !resume.isDocument(last.epk(), last.id());
  }

  /** Whether the documents come in ORDER BY order, from the index ({@link OrderedWalk}). */
  boolean walks() {
    return walk != null;
  }

  /** The walk that read the documents, once they have been read; null when they were scanned. */
  OrderedWalk walked() {
    return walked;
  }

  /** The document a streaming query's row came from: the last one it read. */
  StoredDocument documentOf(Executor.Output row) {
    if (last == null || row.order() != documents - 1) {
      throw new IllegalStateException(
          "a streaming row came from input " + row.order() + ", not the last read");
    }
    return last;
  }

  boolean isResumeDocument(Executor.Output row) {
    StoredDocument d = documentOf(row);
    return resume.isDocument(d.epk(), d.id());
  }

  @Override
  public Iterator<Executor.Input> iterator() {
    Iterator<StoredDocument> found = walk != null ? walk() : candidates != null ? hits() : scan();
    Iterator<StoredDocument> all = indexedOnly ? indexedOf(found) : found;
    Iterator<StoredDocument> docs = resume.isBounded() ? upToUntil(all) : all;
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        if (stopped || abandonedSeen || !docs.hasNext()) {
          return false; // ends when the documents do: a page never stops before nothing
        }
        if (documentsOfPage() % QueryRunner.ABANDON_CHECK_EVERY == 0 && abandoned.getAsBoolean()) {
          abandonedSeen = true; // the page ends here; run() charges it and reports it
          return false;
        }
        if (stop.getAsBoolean()) {
          stopped = true;
          return false;
        }
        return true;
      }

      @Override
      public Executor.Input next() {
        if (stopped) {
          throw new java.util.NoSuchElementException("the page's input ended early");
        }
        StoredDocument d = docs.next();
        int target = PartitionKeyRange.indexOfOwner(targets, d.epk());
        bytes[target] += d.sizeBytes();
        last = d;
        long order = documents++;
        if (streaming) {
          return new Executor.Input(d.body(), order);
        }
        if (!ordered) {
          return new Executor.Input(d.body(), 0);
        }
        long rid = ResourceIds.documentPartOf(d.body());
        if (readByRid != null) {
          readByRid.put(rid, ((long) target << 40) | d.sizeBytes());
        }
        return new Executor.Input(d.body(), rid);
      }
    };
  }

  /** The versions of {@code docs} in the indexes: not those written with the Exclude directive. */
  private static Iterator<StoredDocument> indexedOf(Iterator<StoredDocument> docs) {
    return new Advancing() {
      @Override
      StoredDocument advance() {
        while (docs.hasNext()) {
          StoredDocument d = docs.next();
          if (d.indexed()) {
            return d;
          }
        }
        return null;
      }
    };
  }

  /** The documents of a partial token's range: {@code docs} up to its last (in key order). */
  private Iterator<StoredDocument> upToUntil(Iterator<StoredDocument> docs) {
    return new Advancing() {
      @Override
      StoredDocument advance() {
        if (!docs.hasNext()) {
          return null;
        }
        StoredDocument d = docs.next();
        return resume.isPastUntil(d.epk(), d.id()) ? null : d;
      }
    };
  }

  /** The index's documents in scope (and among the candidates), in ORDER BY order. */
  private Iterator<StoredDocument> walk() {
    walked =
        new OrderedWalk(
            walk.runs(),
            walk.paths(),
            walk.ascending(),
            ref ->
                scope.contains(ref.epk())
                    && (exactEpk == null || exactEpk.equals(ref.epk()))
                    && (candidates == null || candidates.contains(ref)),
            (epk, ids) -> container.reads().byIds(epk, ids, now),
            resume.after(),
            wholeRunLimit(),
            walk.joins());
    return walked;
  }

  /**
   * The largest run a walk of several items loads whole: a quarter of the container's documents
   * (1,024 at least). Loading a run by its ids cost about 3.7 times what a scan does per document
   * (PagingBench, ORDER BY c.status, c.n: pages of runs of 33,000 of 100,000 documents took 9.5 s
   * against the scan's 7.8 s), so a larger run is scanned instead.
   */
  private int wholeRunLimit() {
    return (int)
        Math.min(Integer.MAX_VALUE, Math.max(OrderedWalk.MAX_CHUNK, container.documentCount() / 4));
  }

  private boolean wanted(String epk, String id) {
    return (exactEpk == null || exactEpk.equals(epk)) && !resume.isBefore(epk, id);
  }

  /**
   * The index's hits in scope and after the position, in the stores' (EPK, id) order, loaded one
   * logical partition at a time from one state of it, so a batch is seen whole or not at all.
   */
  private Iterator<StoredDocument> hits() {
    List<io.cosmolab.engine.index.ContainerIndex.DocRef> refs = new ArrayList<>();
    for (io.cosmolab.engine.index.ContainerIndex.DocRef ref : candidates) {
      if (scope.contains(ref.epk()) && wanted(ref.epk(), ref.id())) {
        refs.add(ref);
      }
    }
    refs.sort(
        java.util.Comparator.comparing(io.cosmolab.engine.index.ContainerIndex.DocRef::epk)
            .thenComparing(
                io.cosmolab.engine.index.ContainerIndex.DocRef::id,
                io.cosmolab.engine.store.Utf8Order.COMPARATOR));
    return new Advancing() {
      private int next;
      private Iterator<StoredDocument> group = java.util.Collections.emptyIterator();

      @Override
      StoredDocument advance() {
        while (!group.hasNext() && next < refs.size()) {
          String epk = refs.get(next).epk();
          List<String> ids = new ArrayList<>();
          while (next < refs.size() && refs.get(next).epk().equals(epk)) {
            ids.add(refs.get(next++).id());
          }
          group = container.reads().byIds(epk, ids, now).iterator();
        }
        return group.hasNext() ? group.next() : null;
      }
    };
  }

  /** The targets' documents in scope and after the position, in key order. */
  private Iterator<StoredDocument> scan() {
    return new Advancing() {
      private int target = -1;
      private Iterator<StoredDocument> current = java.util.Collections.emptyIterator();

      @Override
      StoredDocument advance() {
        while (true) {
          while (current.hasNext()) {
            StoredDocument d = current.next();
            if (wanted(d.epk(), d.id())) {
              return d;
            }
          }
          if (++target >= targets.size()) {
            return null;
          }
          EpkRange part = resume.clip(intersect(scope, targets.get(target).range()));
          if (part == null) {
            current = java.util.Collections.emptyIterator();
          } else if (resume.isPosition() && part.contains(resume.positionEpk())) {
            // seek to the position: the ids before it in its logical partition are done
            current = container.reads().scanFrom(part, resume.positionEpk(), resume.positionId());
          } else {
            current = container.reads().scan(part);
          }
        }
      }
    };
  }

  /** An iterator over what {@link #advance} finds, one ahead. */
  private abstract static class Advancing implements Iterator<StoredDocument> {
    private StoredDocument next;
    private boolean started;

    abstract StoredDocument advance();

    @Override
    public boolean hasNext() {
      if (!started) {
        started = true;
        next = advance();
      }
      return next != null;
    }

    @Override
    public StoredDocument next() {
      if (!hasNext()) {
        throw new java.util.NoSuchElementException();
      }
      started = false; // the next document is read when it is asked for, not before
      return next;
    }
  }

  /** The part both ranges hold; null when either is null. */
  static EpkRange intersect(EpkRange a, EpkRange b) {
    return a == null || b == null ? null : a.intersect(b);
  }
}
