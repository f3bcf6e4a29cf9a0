package io.cosmolab.migrator.internal;

import io.cosmolab.migrator.VerifyReport;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the incremental verification knows ({@code verify.json}): for every logical partition of the
 * target verified so far, its counts on both sides when it was last read, whether they agreed, and
 * the differences then found, with ids.
 *
 * @param partitions by the partition's key (a JSON array's text, as {@code TargetKey.keyTextOf})
 */
public record VerifyLedger(Map<String, Entry> partitions) {
  public VerifyLedger {
    partitions = new TreeMap<>(partitions == null ? Map.of() : partitions);
  }

  /**
   * One partition as last read.
   *
   * @param sourceDocuments documents the source holds for it (as the migrator would write them)
   * @param targetDocuments documents the target holds in it
   * @param equal whether count and hash agreed
   * @param differences every differing document, by id
   * @param sourceValues the source values that make this key (for a query of the source), or null
   * @param verifiedAtMillis when it was read
   */
  public record Entry(
      long sourceDocuments,
      long targetDocuments,
      boolean equal,
      List<VerifyReport.Difference> differences,
      String sourceValues,
      long verifiedAtMillis) {
    public Entry {
      differences = differences == null ? List.of() : List.copyOf(differences);
    }
  }
}
