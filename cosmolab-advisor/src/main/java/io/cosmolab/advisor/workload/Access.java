package io.cosmolab.advisor.workload;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import java.util.List;
import java.util.Locale;

/**
 * Which documents an operation addresses: the values of one field ({@code by}) drawn from a
 * distribution. In YAML:
 *
 * <pre>
 * access: { by: /userId, distribution: zipf, s: 1.1 }
 * access: { by: /tenantId, distribution: hot, share: 0.5, values: ["acme"] }
 * access: { by: /tenantId, distribution: hot, share: 0.8, top: 0.01 }
 * access: { by: /type, distribution: fixed, value: "config" }
 * </pre>
 *
 * @param by the field whose values choose the documents (for a query parameter: the field it is
 *     compared with, found from the SQL when not given)
 * @param distribution how requests spread over the field's values
 * @param s the Zipf exponent (1 when not given)
 * @param share for {@code hot}: the share of requests that go to the hot values
 * @param top for {@code hot}: the hot values as a fraction of all values, the most common first
 * @param values for {@code hot}: the hot values, named
 * @param value for {@code fixed}: the one value every request addresses
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Access(
    @JsonProperty("by") String by,
    @JsonProperty("distribution") Distribution distribution,
    @JsonProperty("s") Double s,
    @JsonProperty("share") Double share,
    @JsonProperty("top") Double top,
    @JsonProperty("values") List<JsonNode> values,
    @JsonProperty("value") JsonNode value) {

  /** Requests spread like the documents: the default. */
  public static final Access DATA =
      new Access(null, Distribution.DATA, null, null, null, null, null);

  /** How requests spread over a field's values. */
  public enum Distribution {
    /** Like the stored documents: a value with 10 % of the documents gets 10 % of the requests. */
    DATA,
    /** Every distinct value alike. */
    UNIFORM,
    /** The value of rank r (most documents first) gets a share ∝ 1 / r^s. */
    ZIPF,
    /** A share of requests to a hot set, the rest like the documents. */
    HOT,
    /** Every request to one value. */
    FIXED;

    @JsonCreator
    public static Distribution parse(String text) {
      return EnumText.parse(Distribution.class, text, "distribution");
    }
  }

  public Access {
    distribution = distribution == null ? Distribution.DATA : distribution;
    values = values == null ? null : List.copyOf(values);
    if (by != null) {
      PartitionKeyDefinition.segmentsOf(by); // names a malformed path
    }
    String name = distribution.name().toLowerCase(Locale.ROOT);
    if (s != null && (distribution != Distribution.ZIPF || !(s > 0))) {
      throw new IllegalArgumentException("s is the exponent of a zipf distribution, above 0");
    }
    if (distribution == Distribution.HOT) {
      if (share == null || !(share > 0 && share <= 1)) {
        throw new IllegalArgumentException(
            "a hot distribution needs share: the share of requests to the hot set, in (0, 1]");
      }
      if ((top == null) == (values == null || values.isEmpty())) {
        throw new IllegalArgumentException(
            "a hot distribution needs either top (a fraction of the values, e.g. 0.01) or"
                + " values (the hot values)");
      }
      if (top != null && !(top > 0 && top < 1)) {
        throw new IllegalArgumentException("top is a fraction of the values, in (0, 1)");
      }
    } else if (share != null || top != null || values != null) {
      throw new IllegalArgumentException(
          "share, top and values belong to a hot distribution, not " + name);
    }
    if ((distribution == Distribution.FIXED) != (value != null)) {
      throw new IllegalArgumentException(
          distribution == Distribution.FIXED
              ? "a fixed distribution needs value: the one value every request addresses"
              : "value belongs to a fixed distribution, not " + name);
    }
  }

  /** The Zipf exponent. */
  public double exponent() {
    return s == null ? 1.0 : s;
  }

  /** This access with its field set, when it has none. */
  public Access withBy(String field) {
    return by != null ? this : new Access(field, distribution, s, share, top, values, value);
  }
}
