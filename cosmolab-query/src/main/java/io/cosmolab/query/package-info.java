/**
 * The Cosmos DB NoSQL query language over JSON documents: {@link io.cosmolab.query.CompiledQuery}
 * is the entry, {@link io.cosmolab.query.QueryException} the error. The packages follow a query's
 * path: {@code parse} → {@code ast} → {@code exec} (with {@code functions}). Knows nothing of
 * partitions or HTTP; the engine runs it per partition.
 */
package io.cosmolab.query;
