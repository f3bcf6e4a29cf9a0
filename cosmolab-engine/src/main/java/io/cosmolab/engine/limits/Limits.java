package io.cosmolab.engine.limits;

/**
 * Every service limit the engine enforces, in one place, each with its source, and the scale model
 * that shrinks the partitioning limits.
 *
 * <h2>The scale model</h2>
 *
 * A scale factor {@code f >= 1} divides the limits that decide partition layout: the storage of a
 * physical partition (50 GB), of a logical partition (20 GB), the RU/s ceiling of a physical
 * partition (10,000) and the RU/s per partition used to size new containers (6,000 manual, 10,000
 * autoscale), and the minimum throughputs. Throughput is then provisioned in scaled units: with
 * {@code f = 1000}, a container of 30 RU/s behaves like one of 30,000 RU/s (3 physical partitions
 * of 10 RU/s each), and a 50 MB partition splits like a 50 GB one. Limits on a single request
 * (document size, id length, batch size) are not scaled: documents stay real documents.
 *
 * <p>Sources: {@code partitioning-model.md} §1.2 (LIMITS), §1.3 and §1.4 (SCALE), §1.7 (BURST).
 */
public record Limits(double scaleFactor) {

  private static final long GIB = 1L << 30;

  /** 50 GB per physical partition. [D] SCALE, PART; 52428800 KB seen in the quota header. */
  public static final long PHYSICAL_PARTITION_BYTES = 50 * GIB;

  /** 20 GB per logical partition (10 GB before May 2020). [D] LIMITS */
  public static final long LOGICAL_PARTITION_BYTES = 20 * GIB;

  /** 10,000 RU/s per physical partition. [D] LIMITS, PART */
  public static final double PHYSICAL_PARTITION_RU = 10_000;

  /** New manual containers get about one partition per 6,000 RU/s. [D] SCALE */
  public static final double CREATION_RU_PER_PARTITION_MANUAL = 6_000;

  /** New autoscale (and shared-database) containers get one partition per 10,000 RU/s. [D] SCALE */
  public static final double CREATION_RU_PER_PARTITION_AUTOSCALE = 10_000;

  /** Minimum manual throughput of a container or database: 400 RU/s. [D] LIMITS */
  public static final double MIN_MANUAL_RU = 400;

  /** Minimum autoscale maximum throughput: 1,000 RU/s. [D] LIMITS */
  public static final double MIN_AUTOSCALE_MAX_RU = 1_000;

  /** Maximum throughput of a container or database without a support ticket. [D] LIMITS */
  public static final double MAX_RU = 1_000_000;

  /** Autoscale runs between 10 % of its maximum and the maximum. [D] LIMITS */
  public static final double AUTOSCALE_FLOOR_FRACTION = 0.1;

  /** Item size: 2 MB of UTF-8 JSON. [D] LIMITS */
  public static final int MAX_ITEM_BYTES = 2 * 1024 * 1024;

  /**
   * Response size: 4 MB ([D] concepts-limits, "maximum response size (for example, paginated
   * query)"). A query page ends near it whatever the item count asked for; a stored procedure's
   * response body may not exceed it ([A]: the service's script API names the limit, {@code
   * getMaxResponseBodySize}, without a figure; this is the documented response limit).
   */
  public static final int MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

  /** Id length: 1,023 bytes, any Unicode but '/' and '\'. [D] LIMITS */
  public static final int MAX_ID_BYTES = 1023;

  /**
   * Partition key value length: 2,048 bytes [D] LIMITS, for hash V1 too, which reads only the first
   * 100 characters of a longer value (PartitionKeyDefinition#maxKeyBytes).
   */
  public static final int MAX_PARTITION_KEY_BYTES = 2048;

  /** JSON nesting depth. [D] LIMITS */
  public static final int MAX_NESTING_DEPTH = 128;

  /** Operations in one transactional batch. [D] LIMITS */
  public static final int MAX_BATCH_OPERATIONS = 100;

  /** The body of one transactional batch: 2 MB. [D] LIMITS ("maximum request size") */
  public static final int MAX_BATCH_REQUEST_BYTES = 2 * 1024 * 1024;

  /** Operations in one patch request. [D] "Partial document update" FAQ: at most 10. */
  public static final int MAX_PATCH_OPERATIONS = 10;

  /** Levels of a hierarchical partition key. [D] HPK */
  public static final int MAX_HIERARCHY_LEVELS = 3;

  /** Burst: a partition banks up to 300 s of idle RU/s. [D] BURST */
  public static final double BURST_BANK_SECONDS = 300;

  /** Burst: banked RU are spent at up to 3,000 RU/s, only by partitions below that. [D] BURST */
  public static final double BURST_MAX_RU_PER_SECOND = 3_000;

  /** The unscaled service limits. */
  public static final Limits SERVICE = new Limits(1);

  public Limits {
    if (!(scaleFactor >= 1) || Double.isInfinite(scaleFactor)) {
      throw new IllegalArgumentException(
          "scale factor must be a finite number >= 1 (1 = the service's limits), was "
              + scaleFactor);
    }
  }

  /** The scale model with factor {@code f}. */
  public static Limits scaledBy(double f) {
    return new Limits(f);
  }

  public long physicalPartitionBytes() {
    return Math.max(1, (long) (PHYSICAL_PARTITION_BYTES / scaleFactor));
  }

  public long logicalPartitionBytes() {
    return Math.max(1, (long) (LOGICAL_PARTITION_BYTES / scaleFactor));
  }

  public double physicalPartitionRu() {
    return PHYSICAL_PARTITION_RU / scaleFactor;
  }

  public double creationRuPerPartitionManual() {
    return CREATION_RU_PER_PARTITION_MANUAL / scaleFactor;
  }

  public double creationRuPerPartitionAutoscale() {
    return CREATION_RU_PER_PARTITION_AUTOSCALE / scaleFactor;
  }

  public double minManualRu() {
    return MIN_MANUAL_RU / scaleFactor;
  }

  public double minAutoscaleMaxRu() {
    return MIN_AUTOSCALE_MAX_RU / scaleFactor;
  }

  public double maxRu() {
    return MAX_RU / scaleFactor;
  }

  public double burstMaxRuPerSecond() {
    return BURST_MAX_RU_PER_SECOND / scaleFactor;
  }

  /** Stored bytes as the service would count them at full scale (for throughput minimums). */
  public double unscaledGigabytes(long storedBytes) {
    return storedBytes * scaleFactor / GIB;
  }
}
