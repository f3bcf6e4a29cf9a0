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

  @Override
  default void close() {}
}
