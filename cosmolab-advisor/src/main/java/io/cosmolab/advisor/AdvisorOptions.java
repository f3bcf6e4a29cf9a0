package io.cosmolab.advisor;

import io.cosmolab.engine.throughput.Throughput;

/**
 * How to weigh the candidates.
 *
 * @param throughput the container's throughput: it fixes the initial physical partitions by the
 *     service's rule (6,000 RU/s per partition manual, 10,000 autoscale)
 * @param projectedDocuments the documents the container will hold (at the horizon); the sample's
 *     weights are scaled up to it. 0: the sample is all the data.
 * @param peak the operations at the busiest second (empty: storage only, no RU/s prediction)
 */
public record AdvisorOptions(
    Throughput throughput,
    long projectedDocuments,
    java.util.List<io.cosmolab.advisor.workload.Workload.Operation> peak) {

  public AdvisorOptions(Throughput throughput, long projectedDocuments) {
    this(throughput, projectedDocuments, java.util.List.of());
  }

  public AdvisorOptions {
    if (throughput == null) {
      throw new IllegalArgumentException("the advisor needs the container's throughput");
    }
    peak = peak == null ? java.util.List.of() : java.util.List.copyOf(peak);
    if (projectedDocuments < 0) {
      throw new IllegalArgumentException(
          "projected documents must be 0 or more, was " + projectedDocuments);
    }
  }

  public static AdvisorOptions of(Throughput throughput) {
    return new AdvisorOptions(throughput, 0);
  }
}
