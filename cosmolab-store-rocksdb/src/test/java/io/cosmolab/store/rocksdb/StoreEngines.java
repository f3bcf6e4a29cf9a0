package io.cosmolab.store.rocksdb;

import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.store.DocumentStore;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.time.ManualClock;

/** Engines over a store, for the store's tests: a manual clock and no throttling. */
final class StoreEngines {
  private StoreEngines() {}

  static CosmosEngine on(DocumentStore store) {
    return CosmosEngine.builder()
        .clock(ManualClock.startingAtEpoch2026())
        .throttling(ThrottlingMode.OFF)
        .store(store)
        .build();
  }
}
