/**
 * Durable storage for the engine on RocksDB: {@link
 * io.cosmolab.store.rocksdb.RocksDbDocumentStore}.
 */
module io.cosmolab.store.rocksdb {
  requires transitive io.cosmolab.engine;
  requires rocksdbjni;
  requires static com.google.errorprone.annotations;

  exports io.cosmolab.store.rocksdb;
}
