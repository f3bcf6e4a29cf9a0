package io.cosmolab.migrator.internal;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.migrator.ChangeFeedMode;
import io.cosmolab.migrator.OnMissing;
import io.cosmolab.migrator.TargetKey;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies change-feed pages to the target, keeping each document's order: a page's records are
 * grouped by id, and each id's records are applied in feed order, the ids together. How, through a
 * bulk executor that keeps no order: a page goes out in steps; a step holds, for each id, a run of
 * its records in feed order, and its writes are reduced to the last write per target document
 * ({@link PageWrites} says why that equals applying them in order), then sent together. A record
 * whose writes depend on the target (one that must query for its old copies, below) starts a new
 * run, in the next step, so its query sees everything before it applied. With previous images (a
 * container opted in to them; cosmolab's {@code --change-feed-previous-images}) every page is one
 * step; an id changed twice within a page costs nothing more; only queried records cost a step
 * each.
 *
 * <p>All-versions records carry {@code current}, {@code previous} (where the account gives it) and
 * {@code metadata}. A create or replace is an upsert of the transformed document, preceded by a
 * delete of the old copy when the new key's value changed; without a previous image (the service
 * gives none unless the container opted in; a delete then names its id and key in its metadata) the
 * old copies are found by a query on the id, keeping the one under the current new key and only
 * those whose source key matches. A latest-version record is the document itself, with no previous
 * image and no deletes: it is treated as a replace without a previous image, and deletes are left
 * to {@link Reconciler}.
 */
public final class Changes {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final TargetKey key;
  private final TargetKey sourceKey;
  private final OnMissing writing;
  private final ChangeFeedMode mode;
  private final Writes writes;
  private final Reads reads;
  private final CosmosContainer target;

  public Changes(
      TargetKey key,
      TargetKey sourceKey,
      OnMissing onMissing,
      ChangeFeedMode mode,
      Writes writes,
      Reads reads,
      CosmosContainer target) {
    this.key = key;
    this.sourceKey = sourceKey;
    this.writing = onMissing.onceRunning();
    this.mode = mode;
    this.writes = writes;
    this.reads = reads;
    this.target = target;
  }

  /** What a page did. */
  public record Applied(long applied, long deleted, long skipped) {}

  public Applied applyPage(List<JsonNode> records) {
    Map<String, List<JsonNode>> byId = new LinkedHashMap<>();
    for (JsonNode r : records) {
      byId.computeIfAbsent(idOf(r), k -> new ArrayList<>()).add(r);
    }
    long applied = 0;
    long deleted = 0;
    long skipped = 0;
    // each id's records, cut before every record that must first query the target: a step
    List<List<List<JsonNode>>> steps = new ArrayList<>();
    for (List<JsonNode> group : byId.values()) {
      List<List<JsonNode>> cut = new ArrayList<>();
      for (JsonNode r : group) {
        applied++;
        if (isDelete(r)) {
          deleted++;
        } else if (writing.mode() == OnMissing.Mode.SKIP
            && current(r) instanceof ObjectNode c
            && !key.hasAllPaths(c)) {
          skipped++;
        }
        if (cut.isEmpty() || locating(r) != null) {
          cut.add(new ArrayList<>());
        }
        cut.get(cut.size() - 1).add(r);
      }
      steps.add(cut);
    }
    for (int step = 0; ; step++) {
      List<List<JsonNode>> now = new ArrayList<>();
      for (List<List<JsonNode>> cut : steps) {
        if (step < cut.size()) {
          now.add(cut.get(step));
        }
      }
      if (now.isEmpty()) {
        break;
      }
      applyStep(now);
    }
    return new Applied(applied, deleted, skipped);
  }

  /**
   * One step of a page: for each id, a run of its records in feed order, of which only the first
   * may need a query of the target (the runs of one id are steps apart, so that query sees its
   * earlier records applied). The step's look-ups go out together ({@link #copiesById}); then the
   * runs' writes, reduced to the last per target document ({@link PageWrites}), go out together
   * through the bulk executor.
   */
  private void applyStep(List<List<JsonNode>> runs) {
    List<Locate> locates = new ArrayList<>();
    for (List<JsonNode> run : runs) {
      locates.add(locating(run.get(0)));
    }
    Map<String, List<ObjectNode>> copies = copiesById(locates);
    PageWrites out = new PageWrites(key);
    for (int i = 0; i < runs.size(); i++) {
      Locate q = locates.get(i);
      if (q != null) {
        located(q, copies.getOrDefault(q.id(), List.of())).forEach(out::add);
      }
      for (JsonNode r : runs.get(i)) {
        plan(r, out);
      }
    }
    writes.apply(out.writes());
  }

  /** Ids per look-up query: a step's look-ups go out as one query per so many of its ids. */
  private static final int IDS_PER_QUERY = 100;

  /**
   * The target's documents with the ids the look-ups name, by id: one cross-partition query per
   * {@value #IDS_PER_QUERY} ids ({@code c.id IN (...)}), the queries in parallel. A step holds at
   * most one run per id, so its ids are distinct. One query a record (as before 2026-12-07) made a
   * busy source's catch-up three times slower without previous images (docs/benchmarks.md).
   */
  private Map<String, List<ObjectNode>> copiesById(List<Locate> locates) {
    List<String> ids = new ArrayList<>();
    for (Locate q : locates) {
      if (q != null) {
        ids.add(q.id());
      }
    }
    Map<String, List<ObjectNode>> byId = new java.util.concurrent.ConcurrentHashMap<>();
    List<Runnable> queries = new ArrayList<>();
    for (int from = 0; from < ids.size(); from += IDS_PER_QUERY) {
      SqlQuerySpec query = idsQuery(ids.subList(from, Math.min(ids.size(), from + IDS_PER_QUERY)));
      queries.add(
          () -> {
            for (ObjectNode doc : reads.all(target, query)) {
              byId.computeIfAbsent(doc.path("id").asText(), k -> new ArrayList<>()).add(doc);
            }
          });
    }
    writes.runAll(queries);
    return byId;
  }

  /** {@code SELECT * FROM c WHERE c.id IN (@id0, @id1, ...)}. */
  private static SqlQuerySpec idsQuery(List<String> ids) {
    StringBuilder text = new StringBuilder("SELECT * FROM c WHERE c.id IN (");
    List<SqlParameter> parameters = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      text.append(i == 0 ? "@id" : ", @id").append(i);
      parameters.add(new SqlParameter("@id" + i, ids.get(i)));
    }
    return new SqlQuerySpec(text.append(')').toString(), parameters);
  }

  /** The newest record time of a page, in epoch seconds, or -1. */
  public long newestSeconds(List<JsonNode> records) {
    long newest = -1;
    for (JsonNode r : records) {
      long t =
          mode == ChangeFeedMode.LATEST_VERSION
              ? r.path("_ts").asLong(-1)
              : r.path("metadata").path("crts").asLong(-1);
      newest = Math.max(newest, t);
    }
    return newest;
  }

  private JsonNode current(JsonNode r) {
    return mode == ChangeFeedMode.LATEST_VERSION ? r : r.get("current");
  }

  private String idOf(JsonNode r) {
    if (mode == ChangeFeedMode.LATEST_VERSION) {
      return r.path("id").asText();
    }
    JsonNode current = r.path("current");
    if (current.has("id")) {
      return current.get("id").asText();
    }
    if (r.path("previous").has("id")) {
      return r.path("previous").get("id").asText();
    }
    return r.path("metadata").path("id").asText();
  }

  private boolean isDelete(JsonNode r) {
    return mode != ChangeFeedMode.LATEST_VERSION
        && "delete".equalsIgnoreCase(r.path("metadata").path("operationType").asText());
  }

  /** The old copies a record must look for in the target before its writes, or null. */
  private record Locate(String id, JsonNode sourcePk, String keep) {}

  /**
   * Whether {@code r} lacks the previous image that would say where its old copy is: a delete
   * without one, or a replace (or any latest-version record) without one; then its old copies are
   * found by a query on the id ({@link #located}).
   */
  private Locate locating(JsonNode r) {
    JsonNode previous = mode == ChangeFeedMode.LATEST_VERSION ? null : r.get("previous");
    boolean hasPrevious = previous instanceof ObjectNode p && p.has("id");
    if (isDelete(r)) {
      return hasPrevious
          ? null
          : new Locate(
              idOf(r),
              keyArray(r.path("metadata").get("partitionKey"), sourceKey.sourcePaths()),
              null);
    }
    if (previous != null || !maybeReplace(r)) {
      return null;
    }
    ObjectNode current = (ObjectNode) current(r);
    ObjectNode t = key.transform(Canonical.userContent(current, null), writing);
    return new Locate(
        current.get("id").asText(), sourceKeyJson(current), t == null ? null : key.keyTextOf(t));
  }

  /**
   * Adds the writes of {@code r} that need no query: a delete of the old copy named by the previous
   * image (for a delete, or when the new key's value changed), then the upsert of the new version.
   */
  private void plan(JsonNode r, PageWrites out) {
    JsonNode previous = mode == ChangeFeedMode.LATEST_VERSION ? null : r.get("previous");
    ObjectNode oldTarget =
        previous instanceof ObjectNode p && p.has("id")
            ? key.transform(Canonical.userContent(p, null), writing)
            : null;
    if (isDelete(r)) {
      if (oldTarget != null) {
        out.delete(oldTarget.get("id").asText(), key.keyTextOf(oldTarget));
      }
      return;
    }
    ObjectNode current = (ObjectNode) current(r);
    ObjectNode t = key.transform(Canonical.userContent(current, null), writing);
    String newKey = t == null ? null : key.keyTextOf(t);
    if (oldTarget != null && !key.keyTextOf(oldTarget).equals(newKey)) {
      out.delete(oldTarget.get("id").asText(), key.keyTextOf(oldTarget)); // the key's value moved
    }
    if (t != null) {
      out.upsert(t);
    }
  }

  /** Whether a record without a previous image may have an older copy under another new key. */
  private boolean maybeReplace(JsonNode r) {
    return mode == ChangeFeedMode.LATEST_VERSION
        || "replace".equalsIgnoreCase(r.path("metadata").path("operationType").asText());
  }

  /** The source key of a document (source or target copy) as JSON, or null if it has none. */
  JsonNode sourceKeyJson(ObjectNode doc) {
    try {
      return JSON.readTree(sourceKey.keyTextOf(doc));
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * The deletes of the target copies of the source document {@code q.id} (among {@code copies}, the
   * target's documents with that id) whose source key is {@code q.sourcePk} (any, when null),
   * except the one under {@code q.keep}.
   */
  private List<TargetWrite> located(Locate q, List<ObjectNode> copies) {
    List<TargetWrite> out = new ArrayList<>();
    for (ObjectNode doc : copies) {
      String theirKey = key.keyTextOf(doc);
      if (theirKey.equals(q.keep())) {
        continue;
      }
      JsonNode theirs = sourceKeyJson(doc);
      if (q.sourcePk() == null || theirs == null || sameKey(theirs, q.sourcePk())) {
        out.add(new TargetWrite.Delete(q.id(), theirKey));
      }
    }
    return out;
  }

  /**
   * A delete's key from its feed metadata, as a JSON array in the order of {@code paths}: the
   * service writes an object from each path's property name ({@code
   * PartitionKeyDefinition.propertyNameOf}) to the value, every level of a hierarchical key; a
   * property it leaves out is undefined ({@code {}}). An array (the header form) is taken as it is,
   * anything else as a one-level key; null when there is none.
   */
  static JsonNode keyArray(JsonNode metadataKey, List<String> paths) {
    if (metadataKey == null || metadataKey.isMissingNode() || metadataKey.isArray()) {
      return metadataKey == null || metadataKey.isMissingNode() ? null : metadataKey;
    }
    ArrayNode out = JsonNodeFactory.instance.arrayNode();
    if (!metadataKey.isObject()) {
      return out.add(metadataKey);
    }
    for (String path : paths) {
      JsonNode v =
          metadataKey.get(
              io.cosmolab.engine.partitioning.PartitionKeyDefinition.propertyNameOf(path));
      out.add(v == null ? JsonNodeFactory.instance.objectNode() : v);
    }
    return out;
  }

  static boolean sameKey(JsonNode a, JsonNode b) {
    return Canonical.text(asArray(a)).equals(Canonical.text(asArray(b)));
  }

  private static JsonNode asArray(JsonNode k) {
    if (k.isArray()) {
      return k;
    }
    ArrayNode a = JsonNodeFactory.instance.arrayNode();
    a.add(k);
    return a;
  }
}
