/**
 * Durable storage for the engine: {@link io.cosmolab.store.rocksdb.RocksDbDocumentStore} implements
 * the engine's storage SPI ({@code io.cosmolab.engine.store}) on RocksDB. Documents are keyed by
 * container, EPK and id, so a physical partition is a key range and a split moves no data; the
 * change log is keyed by container and LSN; the engine's catalog sits beside them.
 */
package io.cosmolab.store.rocksdb;
