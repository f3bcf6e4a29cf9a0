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
import java.util.function.Supplier;

/**
 * The range indexes of a container: for each indexed path a query has filtered on, the documents by
 * the value at that path, ordered as ORDER BY orders values.
 */
/*
 * How and why. The service indexes every path on write. An emulator whose users mostly write and
 * read points would pay that on every write for indexes few queries use, so an index is built the
 * first time a query filters on its path (a scan under the container's write lock, so no write is
 * missed) and from then on maintained by every write. A path the indexing policy excludes is never
 * indexed: queries on it scan, and their charge shows it.
 *
 * Values of different types never compare (a range on numbers selects numbers only), so range
 * lookups are bounded by sentinels at the type boundaries of the cross-type order.
 *
 * Concurrency: maintenance and building happen under the container's write lock; lookups read
 * concurrent maps and may see a write in progress, which is harmless because the query runs in
 * full on the documents the lookup returns.
 */
public final class ContainerIndex {
  /** A document's key in the store. */
  public record DocRef(String epk, String id) {}

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final IndexingPolicy policy;
  private final Map<List<String>, NavigableMap<JsonNode, Set<DocRef>>> byPath =
      new ConcurrentHashMap<>();

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

  /** Whether the index of this path exists (then lookups need no lock). */
  public boolean covers(List<String> path) {
    return byPath.containsKey(path);
  }

  /** Guarded by the write lock: builds the index of a path from every document, if absent. */
  public void ensure(List<String> path, Supplier<Iterator<StoredDocument>> all) {
    if (byPath.containsKey(path)) {
      return;
    }
    NavigableMap<JsonNode, Set<DocRef>> index = new ConcurrentSkipListMap<>(Values.ORDER);
    Iterator<StoredDocument> it = all.get();
    while (it.hasNext()) {
      add(index, path, it.next());
    }
    byPath.put(List.copyOf(path), index);
  }

  /** Guarded by the write lock: a document version replaced another (either may be null). */
  public void onWrite(StoredDocument before, StoredDocument after) {
    for (Map.Entry<List<String>, NavigableMap<JsonNode, Set<DocRef>>> e : byPath.entrySet()) {
      if (before != null) {
        remove(e.getValue(), e.getKey(), before);
      }
      if (after != null) {
        add(e.getValue(), e.getKey(), after);
      }
    }
  }

  /** The documents that may satisfy the predicate (its path must have been ensured). */
  public Set<DocRef> lookup(IndexPredicate p) {
    NavigableMap<JsonNode, Set<DocRef>> index = byPath.get(p.path());
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

  private static void add(
      NavigableMap<JsonNode, Set<DocRef>> index, List<String> path, StoredDocument d) {
    JsonNode v = valueAt(d.body(), path);
    if (v != null) {
      index.computeIfAbsent(v, k -> ConcurrentHashMap.newKeySet()).add(new DocRef(d.epk(), d.id()));
    }
  }

  private static void remove(
      NavigableMap<JsonNode, Set<DocRef>> index, List<String> path, StoredDocument d) {
    JsonNode v = valueAt(d.body(), path);
    if (v == null) {
      return;
    }
    Set<DocRef> refs = index.get(v);
    if (refs != null) {
      refs.remove(new DocRef(d.epk(), d.id()));
      if (refs.isEmpty()) {
        index.remove(v);
      }
    }
  }
}
