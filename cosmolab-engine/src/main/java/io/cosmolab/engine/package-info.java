/**
 * The public entry of the engine: {@link io.cosmolab.engine.CosmosEngine} (an account), {@link
 * io.cosmolab.engine.Database} and {@link io.cosmolab.engine.Container}, where a document's path
 * begins. Below it, in the order a document travels: {@code partitioning} (its key and EPK), {@code
 * routing} (its physical partition), {@code document} (its shape and patches), {@code cost} and
 * {@code throughput} (its charge and budget), {@code store} (where it lands) and {@code changefeed}
 * (where it is read back). {@code metrics} observes all of it; {@code error} is the one error
 * family; {@code limits} holds every number.
 */
package io.cosmolab.engine;
