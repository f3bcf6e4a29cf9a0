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
 * Applies change-feed pages to the target. A page's records are grouped by id, each group in feed
 * order and the groups in parallel, so two versions of one document never race.
 *
 * <p>All-versions records carry {@code current}, {@code previous} (where the account gives it) and
 * {@code metadata}. A create or replace is an upsert of the transformed document, preceded by a
 * delete of the old copy when the new key's value changed; without a previous image (the service
 * gives none for replaces, and a delete's is optional) the old copies are found by a query on the
 * id, keeping the one under the current new key and only those whose source key matches. A
 * latest-version record is the document itself, with no previous image and no deletes: it is
 * treated as a replace without a previous image, and deletes are left to {@link Reconciler}.
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
    List<Runnable> work = new ArrayList<>();
    for (List<JsonNode> group : byId.values()) {
      for (JsonNode r : group) {
        applied++;
        if (isDelete(r)) {
          deleted++;
        } else if (writing.mode() == OnMissing.Mode.SKIP
            && current(r) instanceof ObjectNode c
            && !key.hasAllPaths(c)) {
          skipped++;
        }
      }
      work.add(() -> group.forEach(this::apply));
    }
    writes.runAll(work);
    return new Applied(applied, deleted, skipped);
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

  private void apply(JsonNode r) {
    JsonNode previous = mode == ChangeFeedMode.LATEST_VERSION ? null : r.get("previous");
    ObjectNode oldTarget =
        previous instanceof ObjectNode p && p.has("id")
            ? key.transform(Canonical.userContent(p, null), writing)
            : null;
    if (isDelete(r)) {
      if (oldTarget != null) {
        writes.delete(oldTarget.get("id").asText(), key.sdkKeyOf(oldTarget));
      } else if (!(previous instanceof ObjectNode p && p.has("id"))) {
        deleteLocated(idOf(r), r.path("metadata").get("partitionKey"), null);
      }
      return;
    }
    ObjectNode current = (ObjectNode) current(r);
    ObjectNode t = key.transform(Canonical.userContent(current, null), writing);
    String newKey = t == null ? null : key.keyTextOf(t);
    if (oldTarget != null) {
      if (!key.keyTextOf(oldTarget).equals(newKey)) { // the new key's value changed
        writes.delete(oldTarget.get("id").asText(), key.sdkKeyOf(oldTarget));
      }
    } else if (previous == null && maybeReplace(r)) {
      deleteLocated(current.get("id").asText(), sourceKeyJson(current), newKey);
    }
    if (t != null) {
      writes.upsert(t);
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
   * Deletes the target copies of the source document {@code id} whose source key is {@code
   * sourcePk} (any, when null), except the one under {@code keep}.
   */
  private void deleteLocated(String id, JsonNode sourcePk, String keep) {
    SqlQuerySpec q =
        new SqlQuerySpec("SELECT * FROM c WHERE c.id = @id", List.of(new SqlParameter("@id", id)));
    for (ObjectNode doc : reads.all(target, q)) {
      if (key.keyTextOf(doc).equals(keep)) {
        continue;
      }
      JsonNode theirs = sourceKeyJson(doc);
      if (sourcePk == null || theirs == null || sameKey(theirs, sourcePk)) {
        writes.delete(id, key.sdkKeyOf(doc));
      }
    }
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
