package io.cosmolab.rehearsal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.workload.ContainerWorkload;
import io.cosmolab.advisor.workload.Operation;
import io.cosmolab.engine.throughput.Throughput;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What a rehearsal plays: one container's workload (the advisor's, whose rates are the base rates
 * of the phases), its candidate keys, the documents it starts with, and time: phases, events, the
 * timeline's step.
 *
 * @param name how reports call it
 * @param description one line on what it shows
 * @param workload the container's workload: operations and their base rates, throughput, the
 *     documents it holds now
 * @param candidates the keys to rehearse side by side, each its own container
 * @param sample documents that new ones are drawn from (a copy of one, with a new id, the clock
 *     fields set to the virtual time and the hot events' values)
 * @param start the virtual time at which the rehearsal starts
 * @param phases one after the other; the rehearsal lasts their sum
 * @param events what happens at given moments
 * @param clockFields document paths set from the virtual clock on every new document, each with its
 *     {@link java.time.format.DateTimeFormatter} pattern ({@code yyyy-MM-dd}, {@code yyyyMM}); the
 *     pattern {@code epoch} writes epoch seconds
 * @param step the width of one column of the timeline (whole seconds)
 * @param client the SDK's retry policy and the service latency
 * @param scale the scale model's factor: each simulated request and document stands for {@code
 *     scale} real ones, and the engine's limits and the throughput are divided by it (0: chosen
 *     from the peak rate, see {@link #effectiveScale()})
 * @param seed the seed of every random choice: the same seed gives the same report
 * @param burstCapacity whether the account has burst capacity on (off by default, as on the
 *     service): partitions below 3,000 RU/s bank idle RU for up to 300 s
 * @param indexingPolicy every candidate's container's indexing policy, in the service's JSON form;
 *     null for the service's default (every path). It decides which filters an index serves and
 *     which scan, and what a write pays for its index terms.
 * @param alertRules the engine's alert rules the rehearsal evaluates on its virtual clock; null for
 *     the defaults ({@link io.cosmolab.engine.alerts.AlertRules#defaults()})
 */
public record Scenario(
    String name,
    String description,
    ContainerWorkload workload,
    List<Candidate> candidates,
    List<ObjectNode> sample,
    Instant start,
    List<Phase> phases,
    List<Event> events,
    Map<String, String> clockFields,
    Duration step,
    ClientModel client,
    double scale,
    long seed,
    boolean burstCapacity,
    ObjectNode indexingPolicy,
    io.cosmolab.engine.alerts.AlertRules alertRules) {

  /** The parts of an indexing policy a rehearsal plays (the engine's query and write paths). */
  public static final List<String> INDEXING_POLICY_FIELDS =
      List.of("indexingMode", "automatic", "includedPaths", "excludedPaths", "compositeIndexes");

  /** Simulated requests per second at peak that the automatic scale aims at. */
  public static final double AUTO_SCALE_TARGET_PER_SECOND = 500;

  /** A scenario without burst capacity, as accounts are by default. */
  public Scenario(
      String name,
      String description,
      ContainerWorkload workload,
      List<Candidate> candidates,
      List<ObjectNode> sample,
      Instant start,
      List<Phase> phases,
      List<Event> events,
      Map<String, String> clockFields,
      Duration step,
      ClientModel client,
      double scale,
      long seed) {
    this(
        name,
        description,
        workload,
        candidates,
        sample,
        start,
        phases,
        events,
        clockFields,
        step,
        client,
        scale,
        seed,
        false,
        null,
        null);
  }

  public Scenario {
    description = description == null ? "" : description;
    candidates = List.copyOf(candidates);
    sample = List.copyOf(sample);
    phases = List.copyOf(phases);
    events = List.copyOf(events);
    clockFields = Map.copyOf(clockFields);
    client = client == null ? ClientModel.SDK_DEFAULT : client;
    alertRules = alertRules == null ? io.cosmolab.engine.alerts.AlertRules.defaults() : alertRules;
    if (indexingPolicy != null) {
      for (java.util.Iterator<String> f = indexingPolicy.fieldNames(); f.hasNext(); ) {
        String field = f.next();
        if (!INDEXING_POLICY_FIELDS.contains(field)) {
          throw new IllegalArgumentException(
              "indexingPolicy."
                  + field
                  + " is not rehearsed: give "
                  + String.join(", ", INDEXING_POLICY_FIELDS));
        }
      }
      try {
        io.cosmolab.engine.index.IndexingPolicy.fromJson(indexingPolicy);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("indexingPolicy: " + e.getMessage(), e);
      }
      indexingPolicy = indexingPolicy.deepCopy();
    }
    start = start == null ? Instant.parse("2026-11-27T00:00:00Z") : start;
    if (candidates.isEmpty()) {
      throw new IllegalArgumentException("scenario " + name + " has no candidate keys");
    }
    if (sample.isEmpty()) {
      throw new IllegalArgumentException(
          "scenario " + name + " has no sample documents to draw new documents from");
    }
    if (phases.isEmpty()) {
      throw new IllegalArgumentException("scenario " + name + " has no phases");
    }
    if (workload.operations().isEmpty()) {
      throw new IllegalArgumentException("scenario " + name + " has no operations");
    }
    if (workload.throughputOrNull() == null) {
      throw new IllegalArgumentException(
          "scenario "
              + name
              + " needs a throughput (manual RU/s or autoscale); \"minimum\" is the advisor's");
    }
    if (step == null || step.toMillis() < 1000 || step.toMillis() % 1000 != 0) {
      throw new IllegalArgumentException("the step is whole seconds, at least 1s, was " + step);
    }
    if (!(scale == 0 || scale >= 1) || Double.isInfinite(scale) || scale != Math.rint(scale)) {
      throw new IllegalArgumentException(
          "scale is a whole number, 1 or more (or 0: automatic), was " + scale);
    }
    for (Event e : events) {
      if (e.at().compareTo(duration(phases)) >= 0) {
        throw new IllegalArgumentException(
            "event '"
                + e.name()
                + "' at "
                + e.at()
                + " is after the end ("
                + duration(phases)
                + ")");
      }
    }
    for (Map.Entry<String, String> f : clockFields.entrySet()) {
      io.cosmolab.engine.partitioning.PartitionKeyDefinition.segmentsOf(f.getKey());
      if (!f.getValue().equals("epoch")) {
        try {
          var unused = java.time.format.DateTimeFormatter.ofPattern(f.getValue());
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(
              "clock field " + f.getKey() + ": '" + f.getValue() + "' is not a date pattern", e);
        }
      }
    }
  }

  private static Duration duration(List<Phase> phases) {
    Duration d = Duration.ZERO;
    for (Phase p : phases) {
      d = d.plus(p.duration());
    }
    return d;
  }

  /** How long the rehearsal lasts: the sum of its phases. */
  public Duration duration() {
    return duration(phases);
  }

  /** The provisioned throughput, at full scale. */
  public Throughput throughput() {
    return workload.throughputOrNull();
  }

  /** The documents the container holds at the start, at full scale. */
  public long documents() {
    return workload.documents() == null ? 0 : workload.documents();
  }

  /** The highest multiplier of any phase. */
  public double peakMultiplier() {
    double m = 0;
    for (Phase p : phases) {
      m = Math.max(m, Math.max(p.from(), p.to()));
    }
    return m;
  }

  /** Requests per second at the peak, at full scale. */
  public double peakRequestsPerSecond() {
    double base = 0;
    for (Operation o : workload.operations()) {
      base += o.rate();
    }
    return base * peakMultiplier();
  }

  /**
   * The scale factor the rehearsal uses: the stated one, or the smallest of 1, 2, 5, 10, 20, 50,
   * ... that brings the peak to at most {@link #AUTO_SCALE_TARGET_PER_SECOND} simulated requests
   * per second.
   */
  public double effectiveScale() {
    if (scale >= 1) {
      return scale;
    }
    return roundScale(peakRequestsPerSecond() / AUTO_SCALE_TARGET_PER_SECOND);
  }

  /** The smallest of 1, 2, 5, 10, 20, 50, ... that is at least {@code need}. */
  public static double roundScale(double need) {
    double f = 1;
    int i = 0;
    while (f < need) {
      int decade = i / 3;
      f = Math.pow(10, decade) * new double[] {2, 5, 10}[i % 3];
      i++;
    }
    return f;
  }

  /** This scenario with another seed. */
  public Scenario withSeed(long newSeed) {
    return new Scenario(
        name,
        description,
        workload,
        candidates,
        sample,
        start,
        phases,
        events,
        clockFields,
        step,
        client,
        scale,
        newSeed,
        burstCapacity,
        indexingPolicy,
        alertRules);
  }

  /** This scenario with another scale factor (0: automatic). */
  public Scenario withScale(double newScale) {
    return new Scenario(
        name,
        description,
        workload,
        candidates,
        sample,
        start,
        phases,
        events,
        clockFields,
        step,
        client,
        newScale,
        seed,
        burstCapacity,
        indexingPolicy,
        alertRules);
  }

  /** This scenario with other phases (to shorten it, say). */
  public Scenario withPhases(List<Phase> newPhases) {
    return new Scenario(
        name,
        description,
        workload,
        candidates,
        sample,
        start,
        newPhases,
        events,
        clockFields,
        step,
        client,
        scale,
        seed,
        burstCapacity,
        indexingPolicy,
        alertRules);
  }

  /** This scenario with every candidate's container under {@code policy} (null: the default). */
  public Scenario withIndexingPolicy(ObjectNode policy) {
    return new Scenario(
        name,
        description,
        workload,
        candidates,
        sample,
        start,
        phases,
        events,
        clockFields,
        step,
        client,
        scale,
        seed,
        burstCapacity,
        policy,
        alertRules);
  }

  /** This scenario with other alert rules (null: the defaults). */
  public Scenario withAlertRules(io.cosmolab.engine.alerts.AlertRules rules) {
    return new Scenario(
        name,
        description,
        workload,
        candidates,
        sample,
        start,
        phases,
        events,
        clockFields,
        step,
        client,
        scale,
        seed,
        burstCapacity,
        indexingPolicy,
        rules);
  }
}
