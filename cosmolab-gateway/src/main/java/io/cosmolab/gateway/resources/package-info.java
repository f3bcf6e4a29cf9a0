/**
 * One handler per resource of the Cosmos DB REST API — account, databases, containers, documents
 * (point operations, queries, change feed, batch), partition key ranges, offers, scripts — each a
 * thin adapter from {@code wire} values to the engine. {@link
 * io.cosmolab.gateway.resources.Protocol} authenticates and routes.
 */
package io.cosmolab.gateway.resources;
