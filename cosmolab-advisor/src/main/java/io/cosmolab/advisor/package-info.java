/**
 * The partition-key advisor's entry, {@link io.cosmolab.advisor.Advisor}: sample documents in,
 * candidate keys ranked with the numbers that decide them. Below it, in the order documents travel:
 * {@code input} (JSON Lines or arrays, gzip or not), {@code candidate} (which keys to weigh, found
 * or named), {@code stats} (bounded streaming statistics per candidate, placed by the engine's own
 * EPK hashing and partition layout rules).
 */
package io.cosmolab.advisor;
