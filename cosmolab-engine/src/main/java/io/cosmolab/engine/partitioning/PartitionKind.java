package io.cosmolab.engine.partitioning;

import io.cosmolab.engine.error.CosmosError;

/** How a container hashes its partition key. */
public enum PartitionKind {
  /** One path, hashed as a whole (versions 1 and 2). */
  HASH("Hash"),
  /** Hierarchical key of 2 or 3 paths; each level hashed on its own and concatenated (V2). */
  MULTI_HASH("MultiHash");

  private final String wireName;

  PartitionKind(String wireName) {
    this.wireName = wireName;
  }

  /** The name the REST API uses ({@code "Hash"}, {@code "MultiHash"}). */
  public String wireName() {
    return wireName;
  }

  /** Parses the REST name, case-insensitively. */
  public static PartitionKind fromWireName(String name) {
    for (PartitionKind kind : values()) {
      if (kind.wireName.equalsIgnoreCase(name)) {
        return kind;
      }
    }
    throw CosmosError.BAD_REQUEST.exception(
        "partition key kind '%s' is not supported; use \"Hash\" or \"MultiHash\"", name);
  }
}
