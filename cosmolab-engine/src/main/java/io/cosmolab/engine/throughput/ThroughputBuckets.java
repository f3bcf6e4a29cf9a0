package io.cosmolab.engine.throughput;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.error.CosmosError;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * A container's throughput buckets: up to five, ids 1–5, each capping the share of the RU/s that
 * the requests sent to it may use; one may be the default that requests naming no bucket run in.
 * [D] throughput buckets: throughput is not reserved for a bucket, only capped; a request naming a
 * bucket that is not configured (or no longer is) runs uncapped; ids outside 1–5 are refused.
 *
 * <p>Its JSON form is the Resource Manager's {@code throughputBuckets} array, which cosmolab reads
 * and echoes in an offer's {@code content}: {@code [{"id": 1, "maxThroughputPercentage": 50,
 * "isDefaultBucket": false}, …]}. [A] The service configures buckets through Resource Manager and
 * the portal, not through the data plane's offers; cosmolab, which has no Resource Manager, takes
 * them in the offer, where the SDKs' own throughput calls already read and write.
 *
 * @param buckets in id order, ids distinct
 */
public record ThroughputBuckets(List<Bucket> buckets) {
  /** No buckets: every request runs uncapped. */
  public static final ThroughputBuckets NONE = new ThroughputBuckets(List.of());

  /**
   * One bucket.
   *
   * @param id 1–5
   * @param maxThroughputPercentage 1–100: the share of each physical partition's RU/s it may use
   * @param isDefault whether requests that name no bucket run in it
   */
  public record Bucket(int id, int maxThroughputPercentage, boolean isDefault) {
    public Bucket {
      if (id < 1 || id > RequestClass.MAX_BUCKET) {
        throw CosmosError.BAD_REQUEST.exception(
            "a throughput bucket's id must be from 1 to %d, was %d", RequestClass.MAX_BUCKET, id);
      }
      if (maxThroughputPercentage < 1 || maxThroughputPercentage > 100) {
        throw CosmosError.BAD_REQUEST.exception(
            "throughput bucket %d: maxThroughputPercentage must be from 1 to 100, was %d",
            id, maxThroughputPercentage);
      }
    }

    /** The share of the RU/s this bucket may use, 0–1. */
    public double share() {
      return maxThroughputPercentage / 100.0;
    }
  }

  public ThroughputBuckets {
    List<Bucket> sorted = new ArrayList<>(buckets);
    sorted.sort(Comparator.comparingInt(Bucket::id));
    for (int i = 1; i < sorted.size(); i++) {
      if (sorted.get(i).id() == sorted.get(i - 1).id()) {
        throw CosmosError.BAD_REQUEST.exception(
            "throughput bucket %d is configured twice", sorted.get(i).id());
      }
    }
    if (sorted.stream().filter(Bucket::isDefault).count() > 1) {
      throw CosmosError.BAD_REQUEST.exception(
          "at most one throughput bucket can be the default, found %s",
          sorted.stream().filter(Bucket::isDefault).map(Bucket::id).toList());
    }
    buckets = List.copyOf(sorted);
  }

  /**
   * The bucket a request runs in: the one it names, when configured; the default one when it names
   * none; otherwise none, and the request is capped only by the partition's budget.
   *
   * @param requested the request's bucket id, 0 for none
   */
  public Optional<Bucket> forRequest(int requested) {
    for (Bucket b : buckets) {
      if (requested == 0 ? b.isDefault() : b.id() == requested) {
        return Optional.of(b);
      }
    }
    return Optional.empty();
  }

  /** Whether there are none. */
  public boolean isEmpty() {
    return buckets.isEmpty();
  }

  /** The JSON array form. */
  public ArrayNode toJson() {
    ArrayNode a = JsonNodeFactory.instance.arrayNode();
    for (Bucket b : buckets) {
      ObjectNode o = a.addObject();
      o.put("id", b.id());
      o.put("maxThroughputPercentage", b.maxThroughputPercentage());
      o.put("isDefaultBucket", b.isDefault());
    }
    return a;
  }

  /**
   * Reads the JSON array form.
   *
   * @throws io.cosmolab.engine.error.CosmosException 400 naming what is wrong: not an array, more
   *     than five, an entry that is not an object, an id or a percentage that is missing, not a
   *     whole number or out of range, a repeated id, two defaults, or an unknown property
   */
  public static ThroughputBuckets fromJson(JsonNode n) {
    if (n == null || n.isNull()) {
      return NONE;
    }
    if (!n.isArray()) {
      throw CosmosError.BAD_REQUEST.exception(
          "throughputBuckets must be an array of {id, maxThroughputPercentage}, was %s",
          n.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
    }
    if (n.size() > RequestClass.MAX_BUCKET) {
      throw CosmosError.BAD_REQUEST.exception(
          "a container has at most %d throughput buckets, %d were given",
          RequestClass.MAX_BUCKET, n.size());
    }
    List<Bucket> out = new ArrayList<>();
    for (JsonNode e : n) {
      if (!e.isObject()) {
        throw CosmosError.BAD_REQUEST.exception(
            "each throughput bucket must be an object {id, maxThroughputPercentage}, was %s", e);
      }
      e.fieldNames()
          .forEachRemaining(
              f -> {
                if (!f.equals("id")
                    && !f.equals("maxThroughputPercentage")
                    && !f.equals("isDefaultBucket")) {
                  throw CosmosError.BAD_REQUEST.exception(
                      "throughput bucket property '%s' is not one of id, maxThroughputPercentage,"
                          + " isDefaultBucket",
                      f);
                }
              });
      JsonNode isDefault = e.path("isDefaultBucket");
      if (!isDefault.isMissingNode() && !isDefault.isNull() && !isDefault.isBoolean()) {
        throw CosmosError.BAD_REQUEST.exception(
            "throughput bucket isDefaultBucket must be true or false, was %s", isDefault);
      }
      out.add(
          new Bucket(
              whole(e, "id"), whole(e, "maxThroughputPercentage"), isDefault.asBoolean(false)));
    }
    return new ThroughputBuckets(out);
  }

  private static int whole(JsonNode bucket, String field) {
    JsonNode v = bucket.get(field);
    if (v == null || !v.isIntegralNumber() || !v.canConvertToInt()) {
      throw CosmosError.BAD_REQUEST.exception(
          "a throughput bucket needs %s as a whole number, was %s in %s",
          field, v == null ? "missing" : v.toString(), bucket);
    }
    return v.intValue();
  }
}
