package io.cosmolab.advisor;

import java.util.List;

/**
 * The advisor's whole answer, as {@code cosmolab advise --json} prints it: the schema {@value
 * #SCHEMA}, documented field by field in {@code docs/advisor.md}. Fields are only ever added within
 * a schema version; a removal or a change of meaning makes a new version.
 *
 * @param schema {@value #SCHEMA}
 * @param containers one entry per container, in the workload's order
 */
public record Report(String schema, List<ContainerAdvice> containers) {
  public static final String SCHEMA = "cosmolab.advise/v1";

  public Report(List<ContainerAdvice> containers) {
    this(SCHEMA, List.copyOf(containers));
  }

  /**
   * One container's ranking.
   *
   * @param name the container's name in the workload ("container" when there is one)
   * @param sampledDocuments documents read
   * @param sampledBytes their bytes, as the service sizes documents
   * @param throughput the stated throughput, e.g. {@code manual 30000}, or {@code minimum}
   * @param operations the operations at peak, including lookups from other containers' joins
   * @param candidates best first
   */
  public record ContainerAdvice(
      String name,
      long sampledDocuments,
      long sampledBytes,
      String throughput,
      List<String> operations,
      List<Advice> candidates) {}
}
