package io.cosmolab.engine.cost;

/**
 * The request-unit charge of every operation, from the published cost model ({@code
 * partitioning-model.md} §2). All constants live here, each with its source; the defaults are
 * {@link #PUBLISHED}.
 *
 * <p>Point reads and the base of writes interpolate the official per-size table linearly (the table
 * is strongly non-linear at 1 MB, so no formula fits it). Below 1 KB the 1 KB charge applies.
 *
 * <p>Assumption [H]: the table's write column is taken as {@code base(size)} of the RUC formula
 * {@code create = base + 0.2 × indexed terms}. The RUC worked example uses a round base of 5.0 RU
 * at 1 KB where the table says 4.95, so our create of 1 KB with 10 terms is 6.95 RU against the
 * example's 7.0 (within 1 %).
 *
 * @param perIndexedTerm RU per indexed term written or removed (RUC: 0.2)
 * @param perPatchOperation RU added per patch operation (RUC: 0.4)
 * @param queryPerPartition RU a query pays per physical partition it targets (PART: 2–3; 2.5)
 * @param queryPerDocumentLoadedPerKb RU per KB of documents a query loads (TQP: ≈10 RU per MB)
 * @param strongReadMultiplier strong and bounded-staleness reads cost this many times more (2)
 * @param feedMinimum the charge of a change-feed page that returns nothing [H]
 */
public record CostModel(
    double perIndexedTerm,
    double perPatchOperation,
    double queryPerPartition,
    double queryPerDocumentLoadedPerKb,
    double strongReadMultiplier,
    double feedMinimum) {

  /**
   * The published model: RUC (2026) for the tables and the write formula, PART for the
   * per-partition query overhead, TQP for scans, OPTRW for strong reads.
   */
  public static final CostModel PUBLISHED = new CostModel(0.2, 0.4, 2.5, 10.0 / 1024, 2.0, 1.0);

  /** Document sizes of the official table, in KB. [D] RUC 2026 */
  private static final double[] SIZES_KB = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048};

  /** Point-read RU at each size (session/eventual). [D] RUC 2026 */
  private static final double[] READ_RU = {
    1.00, 1.04, 1.14, 1.33, 1.67, 2.19, 4.76, 9.95, 20.28, 40.95, 145.90, 291.80
  };

  /** Write RU at each size. [D] RUC 2026 */
  private static final double[] WRITE_RU = {
    4.95, 6.29, 6.67, 7.04, 9.52, 11.23, 22.67, 48.19, 98.29, 184.57, 625.00, 1250.00
  };

  /** A point read of a document of {@code bytes}. */
  public double pointRead(int bytes, boolean strong) {
    return round(interpolate(READ_RU, bytes) * (strong ? strongReadMultiplier : 1));
  }

  /** A create (or an upsert that creates). */
  public double create(int bytes, int indexedTerms) {
    return round(writeBase(bytes) + perIndexedTerm * indexedTerms);
  }

  /**
   * A replace (or an upsert that replaces): the old version removed and the new one written, plus
   * the terms that changed, once for removing and once for adding them.
   */
  public double replace(int bytes, int changedTerms) {
    return round(2 * writeBase(bytes) + 2 * perIndexedTerm * changedTerms);
  }

  /** A patch: a replace plus a charge per operation (patch is not cheaper; RUC FAQ). */
  public double patch(int bytes, int changedTerms, int operations) {
    return round(replace(bytes, changedTerms) + perPatchOperation * operations);
  }

  /** A delete. */
  public double delete(int bytes, int indexedTerms) {
    return round(writeBase(bytes) + perIndexedTerm * indexedTerms);
  }

  /**
   * A change-feed page: about a point read per document returned (RUC 2026: "5 × 1 KB docs ≈ 5
   * point reads"), and {@link #feedMinimum} for an empty page.
   */
  public double feed(double readsOfReturned) {
    return round(Math.max(feedMinimum, readsOfReturned));
  }

  /**
   * A query's charge: a base per targeted physical partition, the documents it loads (by size), and
   * a read for each document it returns.
   */
  public double query(int partitionsTargeted, long bytesLoaded, double readsOfReturned) {
    return round(
        queryPerPartition * partitionsTargeted
            + queryPerDocumentLoadedPerKb * (bytesLoaded / 1024.0)
            + readsOfReturned);
  }

  /**
   * [A] RU per millisecond a stored procedure or trigger runs, added to its operations' charges.
   * The service charges script time but publishes no rate; 1 RU per 10 ms keeps a script that only
   * computes visible in the budget without dwarfing its writes.
   */
  public static final double SCRIPT_RU_PER_MILLISECOND = 0.1;

  /**
   * [A] RU per call of a user-defined function in a query (the service charges them, unpublished).
   */
  public static final double UDF_CALL_RU = 0.05;

  /** What a script's running time adds to its charge. */
  public double scriptTime(long nanos) {
    return round(SCRIPT_RU_PER_MILLISECOND * nanos / 1_000_000.0);
  }

  /** What {@code calls} calls of user-defined functions add to a query's charge. */
  public double udfCalls(long calls) {
    return round(UDF_CALL_RU * calls);
  }

  /** The write base of a document of {@code bytes} (the table's write column). */
  public double writeBase(int bytes) {
    return interpolate(WRITE_RU, bytes);
  }

  private static double interpolate(double[] table, int bytes) {
    double kb = bytes / 1024.0;
    if (kb <= SIZES_KB[0]) {
      return table[0];
    }
    for (int i = 1; i < SIZES_KB.length; i++) {
      if (kb <= SIZES_KB[i]) {
        double t = (kb - SIZES_KB[i - 1]) / (SIZES_KB[i] - SIZES_KB[i - 1]);
        return table[i - 1] + t * (table[i] - table[i - 1]);
      }
    }
    int last = SIZES_KB.length - 1;
    return table[last] * kb / SIZES_KB[last];
  }

  /** Charges are reported with two decimals, as the service's header does. */
  private static double round(double ru) {
    return Math.round(ru * 100) / 100.0;
  }
}
