/**
 * The Netty pipeline: TLS, HTTP/1.1 codec, body aggregation with a JSON 413, and the handler that
 * turns requests into {@code wire} values and every failure into a response. The only package that
 * touches Netty's HTTP types.
 */
package io.cosmolab.gateway.http;
