package io.cosmolab.engine.script;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.resource.ResourceIds;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One container's scripts, by kind and id. A script is a JSON resource: {@code id}, {@code body}
 * (the JavaScript text, kept as given), for triggers {@code triggerType} and {@code
 * triggerOperation}, plus the system properties every resource has.
 *
 * <p>Thread-safe: each kind is a concurrent map, and each write replaces a whole resource.
 */
public final class Scripts {
  private final byte[] containerRid;
  private final String containerSelf;
  private final InstantSource clock;
  private final AtomicLong sequence = new AtomicLong();
  private final Runnable onChange;
  private final Map<ScriptKind, ConcurrentSkipListMap<String, ObjectNode>> byKind =
      new EnumMap<>(ScriptKind.class);

  /**
   * @param onChange called after every create, replace and delete (the engine saves its catalog)
   */
  public Scripts(
      byte[] containerRid, String containerSelf, InstantSource clock, Runnable onChange) {
    this.containerRid = containerRid.clone();
    this.containerSelf = containerSelf;
    this.clock = clock;
    this.onChange = onChange;
    for (ScriptKind k : ScriptKind.values()) {
      byKind.put(k, new ConcurrentSkipListMap<>());
    }
  }

  /**
   * Creates a script.
   *
   * @throws io.cosmolab.engine.error.CosmosException 400 for a missing id or body, 409 if the id
   *     exists
   */
  public ObjectNode create(ScriptKind kind, ObjectNode resource) {
    String id = check(kind, resource);
    ObjectNode stored = withSystemProperties(kind, resource, null);
    if (byKind.get(kind).putIfAbsent(id, stored) != null) {
      throw CosmosError.CONFLICT.exception(
          "Resource with specified id or name already exists: %s '%s'", kind.segment(), id);
    }
    onChange.run();
    return stored.deepCopy();
  }

  /** Replaces a script, keeping its RID. */
  public ObjectNode replace(ScriptKind kind, String id, ObjectNode resource) {
    String newId = check(kind, resource);
    if (!newId.equals(id)) {
      throw CosmosError.BAD_REQUEST.exception(
          "the body's id '%s' differs from the addressed %s '%s'", newId, kind.segment(), id);
    }
    ObjectNode[] result = new ObjectNode[1];
    byKind
        .get(kind)
        .compute(
            id,
            (k, old) -> {
              if (old == null) {
                throw notFound(kind, id);
              }
              result[0] = withSystemProperties(kind, resource, old.get("_rid").textValue());
              return result[0];
            });
    onChange.run();
    return result[0].deepCopy();
  }

  public ObjectNode read(ScriptKind kind, String id) {
    ObjectNode r = byKind.get(kind).get(id);
    if (r == null) {
      throw notFound(kind, id);
    }
    return r.deepCopy();
  }

  public void delete(ScriptKind kind, String id) {
    if (byKind.get(kind).remove(id) == null) {
      throw notFound(kind, id);
    }
    onChange.run();
  }

  /** Puts back a script the catalog recorded, as it was (RID, etag and time included). */
  public void restore(ScriptKind kind, ObjectNode stored) {
    byKind.get(kind).put(stored.get("id").textValue(), stored.deepCopy());
    byte[] rid = ResourceIds.decode(stored.path("_rid").asText());
    if (rid != null && rid.length == 16) {
      sequence.accumulateAndGet(ResourceIds.documentPart(rid) >>> 8, Math::max);
    }
  }

  /** Every script of a kind, in id order. */
  public List<ObjectNode> list(ScriptKind kind) {
    List<ObjectNode> out = new ArrayList<>();
    for (ObjectNode r : byKind.get(kind).values()) {
      out.add(r.deepCopy());
    }
    return out;
  }

  private static String check(ScriptKind kind, ObjectNode resource) {
    JsonNode id = resource.get("id");
    if (id == null || !id.isTextual() || id.textValue().isBlank()) {
      throw CosmosError.BAD_REQUEST.exception("a %s resource needs a string 'id'", kind.segment());
    }
    JsonNode body = resource.get("body");
    if (body == null || !body.isTextual()) {
      throw CosmosError.BAD_REQUEST.exception(
          "%s '%s' needs a string 'body' holding its JavaScript", kind.segment(), id.textValue());
    }
    if (kind == ScriptKind.TRIGGER
        && (!resource.path("triggerType").isTextual()
            || !resource.path("triggerOperation").isTextual())) {
      throw CosmosError.BAD_REQUEST.exception(
          "trigger '%s' needs 'triggerType' (Pre or Post) and 'triggerOperation' (All, Create,"
              + " Replace, Delete or Update)",
          id.textValue());
    }
    return id.textValue();
  }

  private ObjectNode withSystemProperties(ScriptKind kind, ObjectNode resource, String rid) {
    ObjectNode out = resource.deepCopy();
    String r = rid != null ? rid : ResourceIds.encode(ridFor(kind));
    out.put("_rid", r);
    out.put("_self", containerSelf + kind.segment() + "/" + r + "/");
    out.put("_etag", "\"" + UUID.randomUUID() + "\"");
    out.put("_ts", clock.millis() / 1000);
    return out;
  }

  private byte[] ridFor(ScriptKind kind) {
    return ResourceIds.script(containerRid, sequence.incrementAndGet(), kind.ridType());
  }

  private static io.cosmolab.engine.error.CosmosException notFound(ScriptKind kind, String id) {
    return CosmosError.NOT_FOUND.exception(
        "Entity with the specified id does not exist in the system: %s '%s'", kind.segment(), id);
  }
}
