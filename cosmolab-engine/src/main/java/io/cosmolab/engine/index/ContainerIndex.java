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
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

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
 * maintains it), then filled one physical partition at a time, each under that partition's write
 * lock, and only then used. A write before its partition was filled adds its new value, which the
 * fill finds again (a set: no duplicate); after, it is maintained as usual. No version is missed
 * and none left behind.
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

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final IndexingPolicy policy;
  private final Map<List<String>, PathIndex> byPath = new ConcurrentHashMap<>();

  /** The index of one path: documents by value; usable once every partition was filled in. */
  private static final class PathIndex {
    final List<String> path;
    final NavigableMap<JsonNode, Set<DocRef>> byValue = new ConcurrentSkipListMap<>(Values.ORDER);
    volatile boolean complete;

    PathIndex(List<String> path) {
      this.path = path;
    }

    synchronized void replace(StoredDocument before, StoredDocument after) {
      JsonNode was = before == null ? null : valueAt(before.body(), path);
      JsonNode is = after == null ? null : valueAt(after.body(), path);
      if (was != null && is != null && Values.ORDER.compare(was, is) == 0) {
        return; // same entry
      }
      if (is != null) {
        byValue
            .computeIfAbsent(is, k -> ConcurrentHashMap.newKeySet())
            .add(new DocRef(after.epk(), after.id()));
      }
      if (was != null) {
        Set<DocRef> refs = byValue.get(was);
        if (refs != null) {
          refs.remove(new DocRef(before.epk(), before.id()));
          if (refs.isEmpty()) {
            byValue.remove(was);
          }
        }
      }
    }
  }

  public ContainerIndex(IndexingPolicy policy) {
    this.policy = policy;
  }

  public IndexingPolicy policy() {
    return policy;
  }

  /** True once at least one path is indexed (writes must then maintain it). */
  public boolean active() {
    return !byPath.isEmpty();
  }

  /** The first predicate whose path the policy indexes, or null. */
  public IndexPredicate usable(List<IndexPredicate> predicates) {
    for (IndexPredicate p : predicates) {
      if (policy.isIndexed(p.path()) && lookupPossible(p)) {
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
    return i != null && i.complete;
  }

  /**
   * Registers the index of a path, empty, so every write maintains it from now on; then the caller
   * fills it ({@link #fill}) and marks it complete ({@link #complete}). Idempotent.
   */
  public void begin(List<String> path) {
    byPath.computeIfAbsent(List.copyOf(path), PathIndex::new);
  }

  /** Adds documents to a registered index: a partition's, read under its write lock. */
  public void fill(List<String> path, Iterator<StoredDocument> documents) {
    PathIndex i = byPath.get(path);
    while (documents.hasNext()) {
      i.replace(null, documents.next());
    }
  }

  /** Every partition was filled in: lookups may use the index. */
  public void complete(List<String> path) {
    byPath.get(path).complete = true;
  }

  /** After a commit, under the document's partition lock: a version replaced another. */
  public void onWrite(StoredDocument before, StoredDocument after) {
    for (PathIndex i : byPath.values()) {
      i.replace(before, after);
    }
  }

  /** The documents that may satisfy the predicate (its path must have been ensured). */
  public Set<DocRef> lookup(IndexPredicate p) {
    NavigableMap<JsonNode, Set<DocRef>> index = byPath.get(p.path()).byValue;
    Set<DocRef> out = new HashSet<>();
    if (p.op() == IndexPredicate.Op.EQUAL) {
      for (JsonNode v : p.values()) {
        Set<DocRef> hits = index.get(v);
        if (hits != null) {
          out.addAll(hits);
        }
      }
      return out;
    }
    JsonNode v = p.values().get(0);
    // the type's neighbours in the cross-type order bound the range to values of v's type
    JsonNode below = v.isNumber() ? BooleanNode.TRUE : DoubleNode.valueOf(Double.POSITIVE_INFINITY);
    JsonNode above = v.isNumber() ? TextNode.valueOf("") : emptyArray();
    NavigableMap<JsonNode, Set<DocRef>> range =
        switch (p.op()) {
          case LESS -> index.subMap(below, false, v, false);
          case LESS_OR_EQUAL -> index.subMap(below, false, v, true);
          case GREATER -> index.subMap(v, false, above, false);
          default -> index.subMap(v, true, above, false);
        };
    for (Set<DocRef> refs : range.values()) {
      out.addAll(refs);
    }
    return out;
  }

  private static ArrayNode emptyArray() {
    return NODES.arrayNode();
  }

  private static JsonNode valueAt(JsonNode doc, List<String> path) {
    JsonNode v = doc;
    for (String s : path) {
      v = v == null || !v.isObject() ? null : v.get(s);
    }
    return v == null || v.isContainerNode() ? null : v;
  }
}
