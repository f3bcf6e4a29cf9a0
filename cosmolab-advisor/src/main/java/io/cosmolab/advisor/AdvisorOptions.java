package io.cosmolab.advisor;

import io.cosmolab.advisor.workload.ContainerWorkload;
import io.cosmolab.advisor.workload.Operation;
import io.cosmolab.engine.throughput.Throughput;
import java.util.List;

/**
 * How to weigh the candidates.
 *
 * @param throughput the container's throughput: it fixes the initial physical partitions by the
 *     service's rule (6,000 RU/s per partition manual, 10,000 autoscale). With {@code findMinimum},
 *     only its kind counts.
 * @param findMinimum weigh each candidate at the least throughput that serves its peak
 * @param documents the documents the container holds now; the sample's weights are scaled up to it
 *     (0: the sample is all the data)
 * @param growthPerDay new documents per day
 * @param horizonDays how far ahead storage is projected
 * @param peak the operations at the busiest second (empty: storage only, no RU/s prediction)
 */
public record AdvisorOptions(
    Throughput throughput,
    boolean findMinimum,
    long documents,
    double growthPerDay,
    double horizonDays,
    List<Operation> peak) {

  /** Storage only: {@code documents} now, no growth. */
  public AdvisorOptions(Throughput throughput, long documents) {
    this(throughput, false, documents, 0, 0, List.of());
  }

  /** {@code documents} now, no growth, the {@code peak} operations. */
  public AdvisorOptions(Throughput throughput, long documents, List<Operation> peak) {
    this(throughput, false, documents, 0, 0, peak);
  }

  public AdvisorOptions {
    if (throughput == null) {
      throw new IllegalArgumentException("the advisor needs the container's throughput");
    }
    peak = peak == null ? List.of() : List.copyOf(peak);
    if (documents < 0 || growthPerDay < 0 || horizonDays < 0) {
      throw new IllegalArgumentException(
          "documents, growth and horizon must be 0 or more, were "
              + documents
              + ", "
              + growthPerDay
              + ", "
              + horizonDays);
    }
    if (findMinimum && peak.isEmpty()) {
      throw new IllegalArgumentException(
          "finding the minimum throughput needs the operations at peak");
    }
  }

  public static AdvisorOptions of(Throughput throughput) {
    return new AdvisorOptions(throughput, 0);
  }

  /**
   * A container's options from its workload; {@code fallback} is the throughput when the workload
   * states none.
   */
  public static AdvisorOptions of(
      ContainerWorkload w, List<ContainerWorkload> all, Throughput fallback) {
    Throughput t = w.throughputOrNull();
    return new AdvisorOptions(
        t == null ? fallback : t,
        w.findMinimum(),
        w.documents() == null ? 0 : w.documents(),
        w.growthPerDay() == null ? 0 : w.growthPerDay(),
        w.horizonDays(),
        w.operationsWith(all));
  }

  /** The documents at the horizon, or 0 when the sample is all the data and nothing grows. */
  public double documentsAtHorizon(long sampled) {
    double now = documents > 0 ? documents : sampled;
    return now + growthPerDay * horizonDays;
  }
}
