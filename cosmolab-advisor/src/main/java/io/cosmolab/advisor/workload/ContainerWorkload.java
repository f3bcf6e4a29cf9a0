package io.cosmolab.advisor.workload;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.throughput.Throughput;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One container's data and workload at peak.
 *
 * <pre>
 * name: orders
 * sample: [orders.jsonl.gz]   # sample documents, relative to the workload file
 * candidates: [/userId, /tenantId>/userId]   # optional: discovered from the sample otherwise
 * throughput: 30000           # manual RU/s, or "minimum" to find each key's least; or
 * autoscale: 40000            # an autoscale maximum
 * documents: 5000000          # documents now (the sample's weights are scaled up to it)
 * growthPerDay: 20000         # new documents per day
 * horizonMonths: 12           # how far ahead to project storage
 * operations: [...]           # see {@link Operation}
 * joins: [...]                # see {@link Join}
 * </pre>
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ContainerWorkload(
    @JsonProperty("name") String name,
    @JsonProperty("sample") List<String> sample,
    @JsonProperty("candidates") List<String> candidates,
    @JsonProperty("throughput") JsonNode throughput,
    @JsonProperty("autoscale") Double autoscale,
    @JsonProperty("documents") Long documents,
    @JsonProperty("growthPerDay") Double growthPerDay,
    @JsonProperty("horizonMonths") Double horizonMonths,
    @JsonProperty("operations") List<Operation> operations,
    @JsonProperty("joins") List<Join> joins) {

  /** How the lookups a join sends here are named: {@code join from orders on /customerId = /id}. */
  public static final String JOIN_LABEL = "join from ";

  /** Days in a month, for the horizon: 365.25 / 12. */
  public static final double DAYS_PER_MONTH = 365.25 / 12;

  public ContainerWorkload {
    name = name == null ? "container" : name;
    sample = sample == null ? List.of() : List.copyOf(sample);
    candidates = candidates == null ? null : List.copyOf(candidates);
    if (candidates != null) {
      for (String c : candidates) {
        io.cosmolab.advisor.candidate.Candidate.parse(c); // names what is wrong with it
      }
    }
    operations = operations == null ? List.of() : List.copyOf(operations);
    joins = joins == null ? List.of() : List.copyOf(joins);
    if (throughput != null && throughput.isNull()) {
      throughput = null;
    }
    if (throughput != null && autoscale != null) {
      throw new IllegalArgumentException("give either throughput or autoscale, not both");
    }
    if (throughput != null
        && !(throughput.isNumber() && throughput.doubleValue() > 0)
        && !(throughput.isTextual() && throughput.textValue().strip().equals("minimum"))) {
      throw new IllegalArgumentException(
          "throughput must be a positive number of RU/s or \"minimum\", was " + throughput);
    }
    if (autoscale != null && !(autoscale > 0)) {
      throw new IllegalArgumentException("autoscale must be a positive number of RU/s");
    }
    if (documents != null && documents < 0) {
      throw new IllegalArgumentException("documents must be 0 or more, was " + documents);
    }
    if (growthPerDay != null && growthPerDay < 0) {
      throw new IllegalArgumentException("growthPerDay must be 0 or more, was " + growthPerDay);
    }
    if (horizonMonths != null && horizonMonths < 0) {
      throw new IllegalArgumentException("horizonMonths must be 0 or more, was " + horizonMonths);
    }
  }

  /** Whether the workload asks for each key's minimum throughput instead of stating one. */
  public boolean findMinimum() {
    return throughput != null && throughput.isTextual();
  }

  /** The throughput it states, or null (none stated, or "minimum"). */
  public Throughput throughputOrNull() {
    if (throughput != null && throughput.isNumber()) {
      return Throughput.manual(throughput.doubleValue());
    }
    return autoscale != null ? Throughput.autoscale(autoscale) : null;
  }

  /** The days until the horizon. */
  public double horizonDays() {
    return horizonMonths == null ? 0 : horizonMonths * DAYS_PER_MONTH;
  }

  /**
   * The operations at peak, with the lookups that other containers' joins send here: each is a
   * query on this container's joined field, its values spread like the documents.
   */
  public List<Operation> operationsWith(List<ContainerWorkload> all) {
    List<Operation> out = new ArrayList<>(operations);
    for (ContainerWorkload other : all) {
      for (Join j : other.joins()) {
        if (j.container().equals(name)) {
          StringBuilder field = new StringBuilder("c");
          for (String segment : PartitionKeyDefinition.segmentsOf(j.to())) {
            field.append("[\"").append(segment.replace("\"", "\\\"")).append("\"]");
          }
          out.add(
              Operation.query(
                  JOIN_LABEL + other.name() + " on " + j.match(),
                  "SELECT * FROM c WHERE " + field + " = @v",
                  j.rate(),
                  Map.of("@v", Access.DATA.withBy(j.to()))));
        }
      }
    }
    return out;
  }
}
