package io.cosmolab.engine.throughput;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.limits.Limits;

/** Provisioned throughput of a container or a shared-throughput database. */
public sealed interface Throughput {

  /** The RU/s that the physical partitions share at most (manual RU/s, or autoscale maximum). */
  double maxRuPerSecond();

  /** RU/s per physical partition used to size a new container ({@code partitioning-model} §1.3). */
  double creationRuPerPartition(Limits limits);

  /** The smallest value the service accepts, given the limits and the data stored. */
  double minimum(Limits limits, long storedBytes, double maxEverProvisioned);

  /** A copy with a new value of the same kind. */
  Throughput withValue(double ru);

  /**
   * The throughput of the other kind that a migration switches to (the service's migration request,
   * {@code x-ms-cosmos-migrate-offer-to-autopilot} or {@code …-to-manual-throughput}; a plain
   * replace cannot change the kind). [A] The service's docs say only that the system chooses the
   * starting value "based on your current manual provisioned throughput settings and storage": to
   * autoscale, a maximum of the manual RU/s rounded up to the autoscale step (at least the
   * autoscale minimum for the data and history; CromwellOnAzure#135 reports max(4,000, manual) when
   * 4,000 was the least maximum); to manual, the autoscale maximum (at least the manual minimum).
   */
  Throughput migrated(Limits limits, long storedBytes, double maxEverProvisioned);

  /** The REST form's name for the kind: "manual" or "autoscale". */
  String kind();

  /** RU/s as messages write them: a whole number without a fraction, else two decimals. */
  static String format(double ruPerSecond) {
    return ruPerSecond == Math.rint(ruPerSecond)
        ? Long.toString((long) ruPerSecond)
        : String.format(java.util.Locale.ROOT, "%.2f", ruPerSecond);
  }

  /** Fixed RU/s. */
  record Manual(double ruPerSecond) implements Throughput {
    public Manual {
      positive(ruPerSecond);
    }

    @Override
    public double maxRuPerSecond() {
      return ruPerSecond;
    }

    @Override
    public double creationRuPerPartition(Limits limits) {
      return limits.creationRuPerPartitionManual();
    }

    /** {@code max(400, GB × 1, maxEver / 100)} [D] LIMITS, scaled. */
    @Override
    public double minimum(Limits limits, long storedBytes, double maxEverProvisioned) {
      return Math.max(
          limits.minManualRu(),
          Math.max(
              limits.unscaledGigabytes(storedBytes) / limits.scaleFactor(),
              maxEverProvisioned / 100));
    }

    @Override
    public Throughput withValue(double ru) {
      return new Manual(ru);
    }

    @Override
    public Throughput migrated(Limits limits, long storedBytes, double maxEverProvisioned) {
      double step = 1000 / limits.scaleFactor(); // autoscale maxima come in steps of 1,000
      Autoscale any = new Autoscale(step);
      double least = any.minimum(limits, storedBytes, maxEverProvisioned);
      return new Autoscale(roundUp(Math.max(ruPerSecond, least), step));
    }

    @Override
    public String kind() {
      return "manual";
    }
  }

  /**
   * Autoscale between 10 % of a maximum and the maximum; partitions are budgeted at the maximum.
   */
  record Autoscale(double maxRu) implements Throughput {
    public Autoscale {
      positive(maxRu);
    }

    @Override
    public double maxRuPerSecond() {
      return maxRu;
    }

    /** The lowest RU/s autoscale bills and scales down to. [D] LIMITS */
    public double floor() {
      return maxRu * Limits.AUTOSCALE_FLOOR_FRACTION;
    }

    @Override
    public double creationRuPerPartition(Limits limits) {
      return limits.creationRuPerPartitionAutoscale();
    }

    /** {@code max(1000, GB × 10, maxEver / 10)} [D] LIMITS, scaled. */
    @Override
    public double minimum(Limits limits, long storedBytes, double maxEverProvisioned) {
      return Math.max(
          limits.minAutoscaleMaxRu(),
          Math.max(
              10 * limits.unscaledGigabytes(storedBytes) / limits.scaleFactor(),
              maxEverProvisioned / 10));
    }

    @Override
    public Throughput withValue(double ru) {
      return new Autoscale(ru);
    }

    @Override
    public Throughput migrated(Limits limits, long storedBytes, double maxEverProvisioned) {
      double step = 100 / limits.scaleFactor(); // manual RU/s come in steps of 100
      Manual any = new Manual(step);
      double least = any.minimum(limits, storedBytes, maxEverProvisioned);
      return new Manual(roundUp(Math.max(maxRu, least), step));
    }

    @Override
    public String kind() {
      return "autoscale";
    }
  }

  /**
   * Refuses a migration to the kind {@code current} is already (autoscale when {@code
   * toAutoscale}): a 400 naming {@code owner}.
   */
  static void checkMigration(Throughput current, boolean toAutoscale, String owner) {
    if ((current instanceof Autoscale) == toAutoscale) {
      throw CosmosError.BAD_REQUEST.exception(
          "the throughput of %s is %s already: a migration switches only from %s",
          owner, current.kind(), toAutoscale ? "manual" : "autoscale");
    }
  }

  /** {@code ru} rounded up to a whole number of {@code step}s (a tolerance for scaled steps). */
  private static double roundUp(double ru, double step) {
    double steps = ru / step;
    return Math.ceil(steps - 1e-9) * step;
  }

  static Throughput manual(double ruPerSecond) {
    return new Manual(ruPerSecond);
  }

  static Throughput autoscale(double maxRu) {
    return new Autoscale(maxRu);
  }

  private static void positive(double ru) {
    if (!(ru > 0) || Double.isInfinite(ru)) {
      throw CosmosError.BAD_REQUEST.exception("throughput must be a positive RU/s, was %s", ru);
    }
  }
}
