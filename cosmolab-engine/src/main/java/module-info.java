/**
 * The emulated Cosmos DB account: databases, containers, documents, EPK hashing and routing,
 * throughput budgets and 429s, the change feed, metrics, and the storage SPI.
 *
 * <p>{@code io.cosmolab.engine.internal} holds what only cosmolab's own modules use (the build's
 * forbidden-API suppression), exported to them alone; "module" warnings are suppressed because
 * those modules are compiled after this one.
 */
@SuppressWarnings("module")
module io.cosmolab.engine {
  requires transitive io.cosmolab.query;
  requires transitive com.fasterxml.jackson.databind;
  requires datasketches.java;
  requires static com.fasterxml.jackson.dataformat.yaml; // alert rules in YAML (optional)
  requires static transitive com.google.errorprone.annotations; // @FormatMethod in the API

  uses io.cosmolab.engine.script.ScriptRuntime; // cosmolab-scripts provides one

  exports io.cosmolab.engine;
  exports io.cosmolab.engine.alerts;
  exports io.cosmolab.engine.batch;
  exports io.cosmolab.engine.changefeed;
  exports io.cosmolab.engine.cost;
  exports io.cosmolab.engine.document;
  exports io.cosmolab.engine.error;
  exports io.cosmolab.engine.index;
  exports io.cosmolab.engine.limits;
  exports io.cosmolab.engine.metrics;
  exports io.cosmolab.engine.partitioning;
  exports io.cosmolab.engine.query;
  exports io.cosmolab.engine.resource;
  exports io.cosmolab.engine.routing;
  exports io.cosmolab.engine.script;
  exports io.cosmolab.engine.store;
  exports io.cosmolab.engine.throughput;
  exports io.cosmolab.engine.time;
  exports io.cosmolab.engine.internal to
      io.cosmolab.gateway,
      io.cosmolab.store.rocksdb,
      io.cosmolab.testkit;
}
