/**
 * The gateway's load driver and start-up measurements ({@link
 * io.cosmolab.benchmarks.gateway.GatewayBench}): raw HTTP with precomputed signatures, the Java
 * SDK, start to first request, idle memory. Run with {@code scripts/bench-gateway}.
 */
package io.cosmolab.benchmarks.gateway;
