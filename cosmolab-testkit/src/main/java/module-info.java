/**
 * cosmolab in a JUnit 5 test: {@link io.cosmolab.testkit.CosmosLab} starts the emulator in-process
 * and hands out clients of the official Java SDK pointed at it.
 */
module io.cosmolab.testkit {
  requires transitive io.cosmolab.gateway;
  requires io.cosmolab.store.rocksdb;
  requires transitive com.azure.cosmos;
  requires transitive org.junit.jupiter.api;
  requires static com.google.errorprone.annotations;

  exports io.cosmolab.testkit;
}
