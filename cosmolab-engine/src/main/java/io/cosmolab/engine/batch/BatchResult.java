package io.cosmolab.engine.batch;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The outcome of a transactional batch, as the service reports it: 200 when every operation
 * succeeded; otherwise 207 (Multi-Status) with the failing operation's own status and 424 (Failed
 * Dependency) for every other one, and nothing written.
 *
 * @param status 200 or 207
 * @param operations one result per operation, in order
 * @param requestCharge the RU charged for the whole batch
 * @param lsn the LSN of its physical partition after the batch, in the partition's own numbering
 *     (unchanged if it failed)
 */
public record BatchResult(
    int status, List<OperationResult> operations, double requestCharge, long lsn) {
  public BatchResult {
    operations = List.copyOf(operations);
  }

  public boolean isSuccess() {
    return status == 200;
  }

  /**
   * One operation's result.
   *
   * @param status its HTTP status (201, 200, 204, 304; or the failure's; or 424)
   * @param subStatus the sub-status, 0 if none
   * @param requestCharge its RU
   * @param etag the resulting etag, if any
   * @param document the resulting document (reads, writes), if any
   * @param message for a failure, what was wrong
   */
  public record OperationResult(
      int status,
      int subStatus,
      double requestCharge,
      String etag,
      ObjectNode document,
      String message) {}
}
