/**
 * What the gateway exposes of the engine's observability, without a signature and on the server's
 * own port: Prometheus metrics at {@code /metrics} (Micrometer), {@code /health}, the explorer page
 * at {@code /_explorer/index.html} and its JSON API under {@code /_explorer/api/}. The numbers and
 * the alert rules are the engine's ({@code io.cosmolab.engine.metrics}, {@code
 * io.cosmolab.engine.alerts}); this package only reads them, and counts requests by operation and
 * status, which only the wire sees. {@link io.cosmolab.gateway.observe.ObservedProtocol} sits in
 * front of {@link io.cosmolab.gateway.resources.Protocol}.
 */
package io.cosmolab.gateway.observe;
