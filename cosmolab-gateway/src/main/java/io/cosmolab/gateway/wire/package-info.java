/**
 * Requests and responses as plain values, independent of Netty: the resource path model, the
 * protocol's header names, and the one mapping from the error family to error responses. Used by
 * {@code http} (which decodes into it) and {@code resources} (which answers with it).
 */
package io.cosmolab.gateway.wire;
