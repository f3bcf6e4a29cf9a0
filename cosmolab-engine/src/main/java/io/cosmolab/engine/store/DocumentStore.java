package io.cosmolab.engine.store;

/**
 * The storage SPI: one {@link ContainerStore} per container, keyed by the container's RID. The
 * in-memory implementation is the default; a durable one (RocksDB) plugs in behind the same
 * interface.
 */
public interface DocumentStore extends AutoCloseable {

  /** The store of a container, created empty if it does not exist. */
  ContainerStore open(String containerRid);

  /** Deletes a container's documents and change log. */
  void drop(String containerRid);

  /**
   * The catalog last saved (databases, containers, their settings, throughput and partition layout,
   * as JSON text), or null when none was. A durable store returns what survived a restart, and the
   * engine rebuilds itself from it.
   */
  String loadCatalog();

  /**
   * Saves the catalog, replacing the previous one. The engine calls this after every change of
   * metadata (rare next to document writes); a durable store has made it durable on return.
   */
  void saveCatalog(String catalogJson);

  @Override
  default void close() {}
}
