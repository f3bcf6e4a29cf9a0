package io.cosmolab.advisor.workload;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;

/**
 * A join the application does between two containers: for a document here, it looks up the
 * documents of {@code container} whose field equals one of this document's. Cosmos DB has no
 * cross-container join, so each lookup is a query on the other container, single-partition only
 * when that container's key is the looked-up field.
 *
 * <pre>
 * joins:
 *   - container: customers
 *     match: /customerId = /id       # this container's field = the other container's field
 *     rate: 500                      # lookups per second at peak
 * </pre>
 */
// "match", not "on": YAML 1.1 reads a bare on as the boolean true
public record Join(
    @JsonProperty("container") String container,
    @JsonProperty("match") String match,
    @JsonProperty("rate") double rate) {

  public Join {
    if (container == null || container.isBlank()) {
      throw new IllegalArgumentException("a join needs container: the container it looks up");
    }
    if (match == null || match.split("=", -1).length != 2) {
      throw new IllegalArgumentException(
          "a join needs match: \"/thisField = /otherField\", was " + match);
    }
    side(match, 0);
    side(match, 1);
    if (!(rate > 0)) {
      throw new IllegalArgumentException("the rate of a join must be positive, was " + rate);
    }
  }

  /** This container's field. */
  public String from() {
    return side(match, 0);
  }

  /** The looked-up container's field. */
  public String to() {
    return side(match, 1);
  }

  private static String side(String match, int i) {
    String p = match.split("=", -1)[i].strip();
    PartitionKeyDefinition.segmentsOf(p); // names a malformed path
    return p;
  }
}
