/**
 * The storage SPI: documents ordered by (container, EPK, id) and a change log ordered by position,
 * with atomic commits. {@link io.cosmolab.engine.store.InMemoryDocumentStore} is the default; a
 * durable store implements the same two interfaces. The last stop on a document's path.
 */
package io.cosmolab.engine.store;
