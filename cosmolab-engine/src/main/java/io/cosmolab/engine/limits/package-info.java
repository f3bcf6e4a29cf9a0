/**
 * Every number the engine enforces, each with its source, and the scale model that shrinks the
 * partitioning limits so a laptop shows the behaviour of a terabyte container. Used by {@code
 * partitioning} (key sizes), {@code routing} (split thresholds) and {@code throughput}.
 */
package io.cosmolab.engine.limits;
