/**
 * The transports: the Netty pipeline (TLS, HTTP/1.1 codec, body aggregation with a JSON 413) and
 * the JDK's HTTP server, and what both do with an exchange ({@link
 * io.cosmolab.gateway.http.Exchanges}): turn requests into {@code wire} values and every failure
 * into a response. Netty's event loops only read, decode, encode and write; requests run on each
 * connection's {@link io.cosmolab.gateway.http.ConnectionLane} over the shared {@link
 * io.cosmolab.gateway.http.WorkerPool}. The only package that touches Netty's HTTP types.
 */
package io.cosmolab.gateway.http;
