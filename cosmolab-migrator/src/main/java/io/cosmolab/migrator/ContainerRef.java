package io.cosmolab.migrator;

/** A container by name: {@code DB/CONTAINER}. */
public record ContainerRef(String database, String container) {
  public ContainerRef {
    if (database == null || database.isBlank() || container == null || container.isBlank()) {
      throw new IllegalArgumentException("a container is DB/CONTAINER");
    }
  }

  /** {@code DB/CONTAINER}. */
  public static ContainerRef parse(String text) {
    String[] parts = text.strip().split("/", -1);
    if (parts.length != 2) {
      throw new IllegalArgumentException("a container is DB/CONTAINER, was '" + text + "'");
    }
    return new ContainerRef(parts[0], parts[1]);
  }

  @Override
  public String toString() {
    return database + "/" + container;
  }
}
