package io.cosmolab.engine.store;

/**
 * The storage SPI: one {@link ContainerStore} per container, keyed by the container's RID. The
 * in-memory implementation is the default; a durable one (RocksDB) plugs in behind the same
 * interface.
 */
public interface DocumentStore extends AutoCloseable {

  /** The store of a container, created empty if it does not exist. */
  ContainerStore open(String containerRid);

  /**
   * The catalog last saved (databases, containers, their settings, throughput and partition layout,
   * as JSON text), or null when none was. A durable store returns what survived a restart, and the
   * engine rebuilds itself from it.
   */
  String loadCatalog();

  /**
   * Saves the catalog, replacing the previous one, and deletes the documents, change log and marks
   * of the containers it no longer lists, all in one atomic write: after a crash either the old
   * catalog and the containers' data survive, or the new catalog without them, never a container
   * without its documents. The engine calls this after every change of metadata (rare next to
   * document writes); a durable store has made it durable on return.
   *
   * @param dropped the RIDs of containers deleted since the last save (may be empty)
   */
  void saveCatalog(String catalogJson, java.util.Collection<String> dropped);

  /**
   * Whether {@link ContainerStore#get} answers from memory, without I/O and without waiting for a
   * lock: then the engine's point reads never wait, and a server may run them on a network event
   * loop ({@code CosmosEngine.pointReadsNeverWait}). False unless a store promises it.
   */
  default boolean getNeverWaits() {
    return false;
  }

  @Override
  default void close() {}
}
