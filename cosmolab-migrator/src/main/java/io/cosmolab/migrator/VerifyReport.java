package io.cosmolab.migrator;

import java.util.List;

/**
 * Source and target compared per logical partition of the target: count and an order-independent
 * hash (the sum of each document's SHA-256 prefix) of user content, system properties and the
 * computed key property left out. The source side is what the migrator would write: documents
 * skipped by {@code --on-missing skip} are not expected, filled defaults are.
 *
 * @param partitions logical partitions compared (on either side)
 * @param differingPartitions those whose count or hash differ
 * @param sourceDocuments documents expected from the source
 * @param targetDocuments documents in the target
 * @param differences every difference, with the ids
 * @param partitionsRead logical partitions whose documents this comparison read (all of them for a
 *     full one; for an incremental one, those changed since they were last verified)
 * @param documentsRead documents it read, both sides
 * @param pending partitions changed too recently to verify yet (incremental, while tailing); 0 for
 *     a full comparison and at cutover
 */
public record VerifyReport(
    long partitions,
    long differingPartitions,
    long sourceDocuments,
    long targetDocuments,
    List<Difference> differences,
    long partitionsRead,
    long documentsRead,
    long pending) {

  public VerifyReport {
    differences = List.copyOf(differences);
  }

  /** Whether the target holds exactly the source's documents (with nothing left to verify). */
  public boolean equal() {
    return differences.isEmpty() && differingPartitions == 0 && pending == 0;
  }

  /** How a document differs. */
  public enum Kind {
    /** in the source, not in the target */
    MISSING,
    /** in the target, not in the source */
    EXTRA,
    /** in both, with other content */
    DIFFERENT
  }

  /** One document that differs, in its target logical partition. */
  public record Difference(Kind kind, String partitionKey, String id) {}
}
