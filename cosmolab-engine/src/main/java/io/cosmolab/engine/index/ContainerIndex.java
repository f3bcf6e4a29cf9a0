package io.cosmolab.engine.index;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import io.cosmolab.engine.store.StoredDocument;
import io.cosmolab.query.exec.Values;
import io.cosmolab.query.plan.IndexPredicate;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The range indexes of a container: for each indexed path a query has filtered on, the documents by
 * the value at that path, ordered as ORDER BY orders values.
 */
/*
 * How and why. The service indexes every path on write. An emulator whose users mostly write and
 * read points would pay that on every write for indexes few queries use, so an index is built the
 * first time a query filters on its path and from then on maintained by every write. A path the
 * indexing policy excludes is never indexed: queries on it scan, and their charge shows it.
 *
 * Values of different types never compare (a range on numbers selects numbers only), so range
 * lookups are bounded by sentinels at the type boundaries of the cross-type order.
 *
 * Building without stopping writes: the index is registered first (so every write from then on
 * maintains it), then filled from a scan of the container that takes no lock, and only then used.
 * A scan is weakly consistent (it may see a document before or after a write that runs meanwhile),
 * so while an index builds, it remembers for each document the LSN of the last write that
 * maintained it (a delete included), and the fill skips a version no newer than that: the newest
 * version of every document wins, whichever path brought it. A document present throughout the
 * scan is always seen, one written meanwhile is maintained by its write, so no version is missed
 * and none left behind. One caller builds; others asking for the same path wait for it.
 *
 * Concurrency: writes to different partitions maintain an index at once; each path's index is a
 * monitor for its updates (a handful of map operations), and an update adds the new entry before
 * it removes the old one, so a lookup that runs meanwhile finds the document under one value or
 * both, never neither. Lookups take no lock; the query runs in full on the documents a lookup
 * returns, so an entry it sees early or late changes nothing.
 */
public final class ContainerIndex {
  /** A document's key in the store. */
  public record DocRef(String epk, String id) {}

  /**
   * Documents an ORDER BY walk of a path yields together ({@link #ordered}): those without a value
   * at the path, those with one equal scalar value, or those with an array or object there (whose
   * values differ: the reader sorts them), by the document part of their RIDs ({@link
   * io.cosmolab.engine.resource.ResourceIds#documentPart}), which orders ties.
   *
   * @param byRid the run's documents by RID document part, in no order; live: copy what is needed
   */
  public record Run(Kind kind, JsonNode value, Map<Long, DocRef> byRid) {
    /** Which documents a run holds, in ORDER BY's ascending order of the three. */
    public enum Kind {
      UNDEFINED,
      VALUE,
      CONTAINERS;

      /** The kind of run a document with {@code value} at the path (null: none) sits in. */
      public static Kind of(JsonNode value) {
        return value == null ? UNDEFINED : value.isContainerNode() ? CONTAINERS : VALUE;
      }
    }

    /** Whether a document with {@code v} at the path (null: none) belongs in this run. */
    public boolean holds(JsonNode v) {
      return holds(kind, value, v);
    }

    /** Whether {@code v} belongs in a run of {@code kind} (of {@code value}, for a VALUE run). */
    static boolean holds(Kind kind, JsonNode value, JsonNode v) {
      return Kind.of(v) == kind && (kind != Kind.VALUE || Values.ORDER.compare(v, value) == 0);
    }
  }

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private volatile IndexingPolicy policy;
  private volatile io.cosmolab.query.ComputedProperties computed =
      io.cosmolab.query.ComputedProperties.NONE;
  private final Map<List<String>, PathIndex> byPath = new ConcurrentHashMap<>();

  /**
   * The index of one path: documents by scalar value, and the documents with no value or an array
   * or object there (for ORDER BY, which returns those too); usable once the fill completed.
   */
  private static final class PathIndex {
    /**
     * The value a document has at the path (null: none): its property, or a computed property's
     * value.
     */
    final java.util.function.Function<JsonNode, JsonNode> valueOf;

    /** The computed properties whose definition it holds values of (null: a stored path). */
    final io.cosmolab.query.ComputedProperties definitions;

    // every entry holds its documents by RID document part, which orders the ties of a value: in a
    // hash map, as an ordered one cost writes to a key of few values a quarter of their rate; the
    // walk finds the next RIDs of a run with one pass over it (OrderedWalk)
    final NavigableMap<JsonNode, Map<Long, DocRef>> byValue =
        new ConcurrentSkipListMap<>(Values.ORDER);
    final Map<Long, DocRef> undefined = new ConcurrentHashMap<>();
    final Map<Long, DocRef> containers = new ConcurrentHashMap<>();
    volatile boolean complete;
    // while filling: the LSN of the last write that maintained each document (guarded by this)
    private Map<DocRef, Long> maintained = new HashMap<>();
    // the one fill of this path; others wait for it (null: none started, or the last one failed)
    private final AtomicReference<CompletableFuture<Void>> fill = new AtomicReference<>();

    PathIndex(
        java.util.function.Function<JsonNode, JsonNode> valueOf,
        io.cosmolab.query.ComputedProperties definitions) {
      this.valueOf = valueOf;
      this.definitions = definitions;
    }

    /**
     * A write replaced {@code before} by {@code after} (null: deleted) at {@code lsn}; {@code rid}
     * is the document's RID document part, which a new version keeps.
     */
    synchronized void replace(StoredDocument before, StoredDocument after, long lsn, long rid) {
      StoredDocument d = after != null ? after : before;
      // a version written with the Exclude directive has no entry: as if absent
      StoredDocument was = before != null && before.indexed() ? before : null;
      StoredDocument is = after != null && after.indexed() ? after : null;
      if (maintained == null) {
        replace(was, is, rid);
        return;
      }
      maintained.put(new DocRef(d.epk(), d.id()), lsn);
      // the fill may not have reached the version replaced, so an unchanged value is no proof that
      // the document has an entry, and the fill will now skip it: add the new entry, then remove
      // the old one unless it is the same
      if (is != null) {
        replace(null, is, rid);
      }
      if (was != null
          && (is == null || !sameEntry(valueOf.apply(was.body()), valueOf.apply(is.body())))) {
        replace(was, null, rid);
      }
    }

    /** Whether two values put a document in the same entry: one value, or the same set. */
    private static boolean sameEntry(JsonNode was, JsonNode is) {
      return Run.holds(Run.Kind.of(was), was, is);
    }

    /** The entry a document with {@code v} at the path sits in; a value's is made when missing. */
    private Map<Long, DocRef> entry(JsonNode v) {
      return switch (Run.Kind.of(v)) {
        case UNDEFINED -> undefined;
        case CONTAINERS -> containers;
        case VALUE -> byValue.computeIfAbsent(v, k -> new ConcurrentHashMap<>());
      };
    }

    /** A version the fill's scan found, unless a write already maintained a newer one. */
    synchronized void fillOne(StoredDocument d) {
      Long last = maintained == null ? null : maintained.get(new DocRef(d.epk(), d.id()));
      if (d.indexed() && (last == null || last < d.lsn())) {
        replace(null, d, ridOf(d));
      }
    }

    synchronized void filled() {
      maintained = null;
      complete = true;
    }

    private void replace(StoredDocument before, StoredDocument after, long rid) {
      JsonNode was = before == null ? null : valueOf.apply(before.body());
      JsonNode is = after == null ? null : valueOf.apply(after.body());
      if (before != null && after != null && sameEntry(was, is)) {
        return;
      }
      if (after != null) {
        entry(is).put(rid, new DocRef(after.epk(), after.id()));
      }
      if (before != null) {
        Map<Long, DocRef> refs =
            Run.Kind.of(was) == Run.Kind.VALUE ? byValue.get(was) : entry(was); // not made here
        if (refs != null) {
          refs.remove(rid, new DocRef(before.epk(), before.id()));
          if (refs.isEmpty() && Run.Kind.of(was) == Run.Kind.VALUE) {
            byValue.remove(was);
          }
        }
      }
    }

    /** Fills from {@code scan} once; a caller that finds a fill running waits for it. */
    void build(Supplier<Iterator<StoredDocument>> scan) {
      CompletableFuture<Void> mine = new CompletableFuture<>();
      CompletableFuture<Void> running = fill.compareAndExchange(null, mine);
      if (running != null) {
        running.join();
        return;
      }
      try {
        Iterator<StoredDocument> documents = scan.get();
        while (documents.hasNext()) {
          fillOne(documents.next());
        }
        filled();
        mine.complete(null);
      } catch (RuntimeException | Error e) {
        fill.set(null); // a later query tries again
        mine.completeExceptionally(e);
        throw e;
      }
    }
  }

  public ContainerIndex(IndexingPolicy policy) {
    this.policy = policy;
  }

  public IndexingPolicy policy() {
    return policy;
  }

  /**
   * Swaps the policy. An index holds the values at its path whatever the policy, so the indexes
   * built stay right; the policy decides which of them queries may use.
   */
  public void setPolicy(IndexingPolicy newPolicy) {
    this.policy = newPolicy;
  }

  /**
   * Swaps the computed properties. The indexes of their paths hold values of the old definitions,
   * so they are dropped, and built again from the new ones when a query needs them.
   */
  public void setComputed(io.cosmolab.query.ComputedProperties newComputed) {
    java.util.Set<String> changed = new java.util.HashSet<>(computed.names());
    changed.addAll(newComputed.names());
    this.computed = newComputed;
    byPath.keySet().removeIf(p -> p.size() == 1 && changed.contains(p.get(0)));
  }

  /**
   * Whether the policy indexes a path: a computed property's only when an included path names it
   * ({@link IndexingPolicy#isExplicitlyIncluded}), any other as the policy says.
   */
  public boolean indexes(List<String> path) {
    if (path.size() > 1 && computed.names().contains(path.get(0))) {
      return false; // inside a computed value: no index holds it (the stored body has none)
    }
    return isComputed(path) ? policy.isExplicitlyIncluded(path) : policy.isIndexed(path);
  }

  private boolean isComputed(List<String> path) {
    return path.size() == 1 && computed.names().contains(path.get(0));
  }

  /** True once at least one path is indexed (writes must then maintain it). */
  public boolean active() {
    return !byPath.isEmpty();
  }

  /**
   * The predicates an index lookup serves together: every equality (and IN) on a path the policy
   * indexes, and every disjunction whose branches are all served, whose hits are intersected, as
   * the service's index intersects the terms of a conjunction; without one, the first indexed
   * range. Empty when no predicate's path is indexed.
   */
  public List<IndexPredicate> usableAll(List<IndexPredicate> predicates) {
    List<IndexPredicate> equalities = new java.util.ArrayList<>();
    for (IndexPredicate p : predicates) {
      if (p.op() == IndexPredicate.Op.EQUAL ? indexes(p.path()) : servesEveryBranch(p)) {
        equalities.add(p);
      }
    }
    if (!equalities.isEmpty()) {
      return equalities;
    }
    IndexPredicate first = usable(predicates);
    return first == null ? List.of() : List.of(first);
  }

  /** Whether {@code p} is a disjunction whose every branch an index lookup serves. */
  private boolean servesEveryBranch(IndexPredicate p) {
    if (p.op() != IndexPredicate.Op.ANY_OF) {
      return false;
    }
    for (List<IndexPredicate> branch : p.branches()) {
      if (usableAll(branch).isEmpty()) {
        return false;
      }
    }
    return true;
  }

  /** The first comparison whose path the policy indexes, or null. */
  public IndexPredicate usable(List<IndexPredicate> predicates) {
    for (IndexPredicate p : predicates) {
      if (p.op() != IndexPredicate.Op.ANY_OF && indexes(p.path()) && lookupPossible(p)) {
        return p;
      }
    }
    return null;
  }

  private static boolean lookupPossible(IndexPredicate p) {
    if (p.op() == IndexPredicate.Op.EQUAL) {
      return true;
    }
    JsonNode v = p.values().get(0);
    return v.isNumber() || v.isTextual();
  }

  /** Whether the index of this path is complete (then lookups can use it). */
  public boolean covers(List<String> path) {
    PathIndex i = byPath.get(path);
    return i != null && i.complete && !stale(i);
  }

  /**
   * Whether an index holds values of computed properties that were replaced since it was made (a
   * replace can race a query that is creating it): it is then made again.
   */
  private boolean stale(PathIndex i) {
    return i.definitions != null && i.definitions != computed;
  }

  /**
   * Builds the index of a path, if it is not yet complete, from {@code scan} (every document of the
   * container, read without locks while writes go on); returns when it is complete. Writes maintain
   * it from the start of the build. One caller scans; concurrent callers wait for it.
   */
  public void build(List<String> path, Supplier<Iterator<StoredDocument>> scan) {
    PathIndex i =
        byPath.compute(
            List.copyOf(path), (k, old) -> old == null || stale(old) ? newIndex(k) : old);
    if (!i.complete) {
      i.build(scan);
    }
  }

  /**
   * After a commit, under the document's partition lock: a version replaced another ({@code after}
   * null for a delete) by the write at {@code lsn}.
   */
  public void onWrite(StoredDocument before, StoredDocument after, long lsn) {
    if (byPath.isEmpty()) {
      return;
    }
    long rid = ridOf(after != null ? after : before); // a new version keeps its document's RID
    for (PathIndex i : byPath.values()) {
      i.replace(before, after, lsn, rid);
    }
  }

  /** The document part of a stored version's RID, which orders the ties of an index entry. */
  private static long ridOf(StoredDocument d) {
    return io.cosmolab.engine.resource.ResourceIds.documentPartOf(d.body());
  }

  /**
   * The documents that may satisfy the predicate (its path must have been built), or null when the
   * index is gone (a replace of the computed properties dropped it meanwhile): then scan.
   */
  public Set<DocRef> lookup(IndexPredicate p) {
    PathIndex built = byPath.get(p.path());
    if (built == null || stale(built)) {
      return null;
    }
    NavigableMap<JsonNode, Map<Long, DocRef>> index = built.byValue;
    Set<DocRef> out = new HashSet<>();
    if (p.op() == IndexPredicate.Op.EQUAL) {
      for (JsonNode v : p.values()) {
        Map<Long, DocRef> hits = index.get(v);
        if (hits != null) {
          out.addAll(hits.values());
        }
      }
      return out;
    }
    JsonNode v = p.values().get(0);
    // the type's neighbours in the cross-type order bound the range to values of v's type
    JsonNode below = v.isNumber() ? BooleanNode.TRUE : DoubleNode.valueOf(Double.POSITIVE_INFINITY);
    JsonNode above = v.isNumber() ? TextNode.valueOf("") : emptyArray();
    NavigableMap<JsonNode, Map<Long, DocRef>> range =
        switch (p.op()) {
          case LESS -> index.subMap(below, false, v, false);
          case LESS_OR_EQUAL -> index.subMap(below, false, v, true);
          case GREATER -> index.subMap(v, false, above, false);
          case STARTS_WITH -> {
            String end = IndexPredicate.prefixEnd(v.textValue());
            yield end == null
                ? index.subMap(v, true, above, false)
                : index.subMap(v, true, TextNode.valueOf(end), false);
          }
          default -> index.subMap(v, true, above, false);
        };
    for (Map<Long, DocRef> refs : range.values()) {
      out.addAll(refs.values());
    }
    return out;
  }

  private PathIndex newIndex(List<String> path) {
    io.cosmolab.query.ComputedProperties cp = computed;
    if (isComputed(path)) {
      String name = path.get(0);
      return new PathIndex(doc -> computedValue(cp, name, doc), cp);
    }
    return new PathIndex(doc -> valueAt(doc, path), null);
  }

  /**
   * A computed property's value for the index; undefined when its definition fails on this document
   * (a write has committed by then, and the query that reads it fails on its own).
   */
  private static JsonNode computedValue(
      io.cosmolab.query.ComputedProperties cp, String name, JsonNode doc) {
    try {
      return cp.valueOf(name, doc);
    } catch (io.cosmolab.query.QueryException e) {
      return null;
    }
  }

  private static ArrayNode emptyArray() {
    return NODES.arrayNode();
  }

  /**
   * The value at a property path in a document, as a query reads {@code c.a.b}: null when a
   * property is missing or a step is not an object.
   */
  public static JsonNode valueAt(JsonNode doc, List<String> path) {
    JsonNode v = doc;
    for (String s : path) {
      v = v == null || !v.isObject() ? null : v.get(s);
    }
    return v;
  }

  /**
   * The documents of a path's index in ORDER BY order of their values, a run at a time: ascending,
   * those without a value, then each scalar value's, then those with an array or object there;
   * descending, all reversed. The walk starts at the run that holds {@code from}, the first sort
   * key of the row an earlier page ended at (null: undefined), or at the beginning when {@code
   * fromStart}. Null when the path has no complete index, or names a computed property (then scan).
   *
   * <p>Weakly consistent, like every lookup: a document written meanwhile may be in the run of its
   * old value, of its new one, or of both, so the reader checks each document it loads against its
   * run. A run's map is live: copy what is needed of it.
   */
  public Iterator<Run> ordered(
      List<String> path, boolean ascending, boolean fromStart, JsonNode from) {
    PathIndex built = byPath.get(path);
    if (built == null || !built.complete || stale(built) || built.definitions != null) {
      return null; // a computed property's index holds values the reader cannot check: scan
    }
    Run.Kind start = fromStart ? null : Run.Kind.of(from); // null: from the first run
    List<Iterator<Run>> parts = new java.util.ArrayList<>(3);
    Run none = new Run(Run.Kind.UNDEFINED, null, built.undefined);
    Run others = new Run(Run.Kind.CONTAINERS, null, built.containers);
    // the kinds in the walk's order; the walk starts at the kind of the position
    List<Run.Kind> kinds = Arrays.asList(Run.Kind.values());
    if (!ascending) {
      Collections.reverse(kinds);
    }
    for (Run.Kind kind : kinds.subList(start == null ? 0 : kinds.indexOf(start), kinds.size())) {
      switch (kind) {
        case UNDEFINED -> parts.add(List.of(none).iterator());
        case CONTAINERS -> parts.add(List.of(others).iterator());
        case VALUE -> {
          NavigableMap<JsonNode, Map<Long, DocRef>> values = built.byValue;
          if (kind == start) { // from the position's value on
            values = ascending ? values.tailMap(from, true) : values.headMap(from, true);
          }
          parts.add(runs(ascending ? values : values.descendingMap()));
        }
      }
    }
    return concat(parts);
  }

  /**
   * The iterators one after another, each read only as far as asked (a stream's flatMap would read
   * a whole part into a buffer on the first request).
   */
  private static Iterator<Run> concat(List<Iterator<Run>> parts) {
    return new Iterator<>() {
      private int part;

      @Override
      public boolean hasNext() {
        while (part < parts.size() && !parts.get(part).hasNext()) {
          part++;
        }
        return part < parts.size();
      }

      @Override
      public Run next() {
        if (!hasNext()) {
          throw new java.util.NoSuchElementException();
        }
        return parts.get(part).next();
      }
    };
  }

  private static Iterator<Run> runs(NavigableMap<JsonNode, Map<Long, DocRef>> values) {
    Iterator<Map.Entry<JsonNode, Map<Long, DocRef>>> entries = values.entrySet().iterator();
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return entries.hasNext();
      }

      @Override
      public Run next() {
        Map.Entry<JsonNode, Map<Long, DocRef>> e = entries.next();
        return new Run(Run.Kind.VALUE, e.getKey(), e.getValue());
      }
    };
  }
}
