package io.cosmolab.engine.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.partitioning.PartitionKeyValue;

/**
 * One write in a container's change log, in LSN order. The log is the source of both change-feed
 * modes: latest version (creates and replaces, each document at its newest LSN) and all versions
 * and deletes.
 *
 * @param lsn the position of the write in the container's change log: a container-wide sequence
 *     that orders the log (change-feed continuations are positions)
 * @param timestampMillis when it was written (injected clock)
 * @param operation create, replace or delete
 * @param epk the document's EPK
 * @param id the document id
 * @param partitionKey the document's partition key value
 * @param current the new version (null for a delete)
 * @param previous the version it replaced or deleted (null for a create)
 * @param previousLsn the LSN of the previous version in its physical partition's numbering (0 for a
 *     create): the all-versions feed's {@code previousImageLSN}
 * @param sizeBytes the size of the version written, or of the deleted version
 * @param timeToLiveExpired true when a delete was made by time-to-live expiry
 * @param rangeLsn the LSN of the write in its physical partition's own numbering, which clients see
 *     ({@code _lsn}, {@code metadata.lsn}, session tokens)
 */
public record ChangeRecord(
    long lsn,
    long timestampMillis,
    Operation operation,
    String epk,
    String id,
    PartitionKeyValue partitionKey,
    ObjectNode current,
    ObjectNode previous,
    long previousLsn,
    int sizeBytes,
    boolean timeToLiveExpired,
    long rangeLsn) {

  /** The kind of write. */
  public enum Operation {
    CREATE("create"),
    REPLACE("replace"),
    DELETE("delete");

    private final String wireName;

    Operation(String wireName) {
      this.wireName = wireName;
    }

    /** The name the all-versions-and-deletes feed uses. */
    public String wireName() {
      return wireName;
    }
  }
}
