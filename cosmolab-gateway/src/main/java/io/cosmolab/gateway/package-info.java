/**
 * The gateway's public entry, {@link io.cosmolab.gateway.GatewayServer}: the Cosmos DB REST
 * protocol in front of an engine. Below it, in the order a request travels: {@code http} (Netty:
 * TLS, HTTP/1.1 framing, body limits), {@code wire} (the request and response as values, paths,
 * headers, error bodies), {@code auth} (the master-key signature), {@code resources} (one handler
 * per resource type, over the engine). {@code rntbd} is the same protocol in direct mode: RNTBD
 * frames over TLS, translated into {@code wire} requests for {@code resources}. {@code tls} keeps
 * the self-signed certificate.
 */
package io.cosmolab.gateway;
