/**
 * Injected time: the engine reads a {@link java.time.InstantSource} everywhere (budgets, TTL,
 * {@code _ts}, metrics); {@link io.cosmolab.engine.time.ManualClock} moves only when told.
 */
package io.cosmolab.engine.time;
