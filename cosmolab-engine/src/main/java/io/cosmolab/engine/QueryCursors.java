package io.cosmolab.engine;

import io.cosmolab.engine.PageInput.Loaded;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.routing.RoutingMap;
import io.cosmolab.query.exec.Executor;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Queries whose later pages would run them again, kept open between pages: a page of such a query
 * (a GROUP BY, an aggregate or a DISTINCT without ORDER BY, resumed by the count of rows returned:
 * {@link Resume#afterRows}) leaves its open executor here, and the next page takes it and reads on,
 * instead of running the query again over everything to skip the rows earlier pages returned. A
 * query of 20,000 groups over 100,000 documents in pages of 100 ran its grouping 200 times; now
 * once (docs/benchmarks.md, "GROUP BY's pages").
 *
 * <p>What a page gets is what running the query again would give it, or it runs it again: a kept
 * query is taken only by the request of its next page (the same query, parameters and scope, and
 * the continuation it returned) and only while nothing it read can have changed: no write in its
 * physical partitions (their LSNs as it left them), the same layout (a split or merge gives other
 * targets), the same computed properties, search policy and indexing policy (and filters an index
 * serves), no time to live on the container (a document that expires between pages leaves the
 * query's input without a write), and nothing in the query that a run again would make anew (a
 * user-defined function, the clock, RAND: QueryRunner.keepsOpen). A page is charged as the
 * run-again page would be: for the documents loaded after the rows earlier pages returned, and for
 * its rows. [A] One difference: a page whose client has gone before its first document pays for the
 * documents of its first row, which the page before read ahead (a run again would have read nothing
 * yet); no client sees that charge.
 *
 * <p>Bounded: at most {@link #MAX_KEPT} queries, holding at most a sixteenth of the heap between
 * them ({@link #MAX_BYTES}: their groups, DISTINCT values and the like by the executor's own count,
 * and the documents an index served them), each kept {@link #IDLE_MILLIS} after its page on the
 * engine's clock (looked at when a query is kept or taken); the least recently left goes first, and
 * a dropped container's go with it. A taken query is gone from here, so two requests with one
 * continuation (a retry, or two clients of the same query) cannot share it: the second runs the
 * query again. A page keeps its query only once it is done with it (QueryRunner.run). [A] The
 * service keeps no such state between pages (its continuation carries a query's partial state);
 * this is the emulator's way to make the pages' work add up to one pass, with the same pages.
 */
final class QueryCursors {
  /** The most queries kept open at once. */
  static final int MAX_KEPT = 64;

  /** How long a kept query waits for its next page, in milliseconds of the engine's clock. */
  static final long IDLE_MILLIS = 60_000;

  /** What the kept queries may hold between them: a sixteenth of the heap. */
  static final long MAX_BYTES = Runtime.getRuntime().maxMemory() / 16;

  /** What one document an index served a kept query costs it: the set's entry and its copy. */
  static final long CANDIDATE_BYTES = 128;

  /** What identifies the next page of a kept query: its request, any page size, in a container. */
  record Key(String containerRid, QueryRequest request) {
    static Key of(String containerRid, QueryRequest request, String continuation) {
      return new Key(containerRid, request.withMaxItemCount(-1).withContinuation(continuation));
    }
  }

  /** What the kept query read, as its next page must find it. */
  record Stamp(
      RoutingMap routing,
      List<PartitionKeyRange> targets,
      List<Long> lsns,
      io.cosmolab.query.ComputedProperties computed,
      io.cosmolab.query.SearchPolicy search,
      io.cosmolab.engine.index.IndexingPolicy indexing,
      List<io.cosmolab.query.plan.IndexPredicate> served) {
    /**
     * What a page of a query over {@code targets} reads: their documents (by their LSNs), the
     * layout, the stored properties that rewrite the query, and the filters an index serves (an
     * index built or dropped between pages changes which documents a page loads).
     */
    static Stamp of(
        Container c,
        List<PartitionKeyRange> targets,
        List<io.cosmolab.query.plan.IndexPredicate> served) {
      List<Long> lsns = new java.util.ArrayList<>(targets.size());
      for (PartitionKeyRange r : targets) {
        lsns.add(c.lsn(r.id()));
      }
      // the stored properties are replaced whole when they change: the same objects, no change
      return new Stamp(
          c.routing(),
          List.copyOf(targets),
          lsns,
          c.computedProperties(),
          c.searchPolicy(),
          c.indexingPolicy(),
          List.copyOf(served));
    }
  }

  /**
   * A query left open after a page: its results, the row after that page's last ({@code next}, the
   * next page's first), its input, and what the pages before paid for ({@code paidUntil}).
   */
  record Kept(
      Executor.Cursor rows,
      Executor.Output next,
      PageInput input,
      Loaded paidUntil,
      Stamp stamp,
      long bytes,
      long leftAt) {}

  private final java.time.InstantSource clock;
  private final Map<Key, Kept> kept = new LinkedHashMap<>();
  private int maxKept = MAX_KEPT;
  private long bytes;
  private long taken;
  private long missed;

  QueryCursors(java.time.InstantSource clock) {
    this.clock = clock;
  }

  /** Keeps at most {@code n} queries (0: none, every later page runs its query again). */
  synchronized void maxKept(int n) {
    if (n < 0) {
      throw new IllegalArgumentException("the queries kept must be 0 or more: " + n);
    }
    maxKept = n;
    evict();
  }

  /**
   * Keeps a query for the page of {@code key}, evicting the least recently left past the bounds.
   */
  synchronized void keep(Key key, Kept query) {
    Kept before = kept.remove(key); // put again, it is the most recently left
    if (before != null) {
      bytes -= before.bytes();
    }
    kept.put(key, query);
    bytes += query.bytes();
    evict();
  }

  /** Drops the queries of these containers (deleted: nothing can take them). */
  synchronized void forget(java.util.Collection<String> containerRids) {
    if (containerRids.isEmpty()) {
      return;
    }
    dropWhere((key, query) -> containerRids.contains(key.containerRid()));
  }

  /** Drops every kept query (the engine closes). */
  synchronized void clear() {
    kept.clear();
    bytes = 0;
  }

  /**
   * The query kept for the page of {@code key}, if what it read is as {@code now} says (else it is
   * dropped); null when none is kept for it.
   */
  synchronized Kept take(Key key, Stamp now) {
    expire();
    Kept k = kept.remove(key);
    if (k == null) {
      missed++;
      return null;
    }
    bytes -= k.bytes();
    if (!k.stamp().equals(now)) {
      missed++;
      return null;
    }
    taken++;
    return k;
  }

  /** How many pages took a kept query, and how many found none or one out of date (for tests). */
  synchronized long[] counts() {
    return new long[] {taken, missed};
  }

  /** How many queries are kept now. */
  synchronized int size() {
    expire();
    return kept.size();
  }

  private void evict() {
    expire();
    Iterator<Map.Entry<Key, Kept>> it = kept.entrySet().iterator();
    while (it.hasNext() && (kept.size() > maxKept || bytes > MAX_BYTES)) {
      bytes -= it.next().getValue().bytes();
      it.remove();
    }
  }

  private void expire() {
    long now = clock.millis();
    dropWhere((key, query) -> now - query.leftAt() > IDLE_MILLIS);
  }

  /** Drops the kept queries {@code drop} says, with what they held. */
  private void dropWhere(java.util.function.BiPredicate<Key, Kept> drop) {
    Iterator<Map.Entry<Key, Kept>> it = kept.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<Key, Kept> e = it.next();
      if (drop.test(e.getKey(), e.getValue())) {
        bytes -= e.getValue().bytes();
        it.remove();
      }
    }
  }
}
