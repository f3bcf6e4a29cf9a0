/**
 * Direct mode: the RNTBD protocol the Java SDK speaks to a partition's replicas by default, over
 * TLS, in the order a frame travels: {@link io.cosmolab.gateway.rntbd.FrameDecoder} (bytes to
 * {@link io.cosmolab.gateway.rntbd.Inbound} values, malformed frames as values too), {@link
 * io.cosmolab.gateway.rntbd.RequestTranslator} (a request frame to the {@code wire} request the
 * gateway's {@code resources} already answer), {@link io.cosmolab.gateway.rntbd.ResponseTranslator}
 * (a {@code wire} response to response tokens) and {@link io.cosmolab.gateway.rntbd.FrameEncoder}.
 * {@link io.cosmolab.gateway.rntbd.DirectChannelHandler} runs one connection; {@link
 * io.cosmolab.gateway.rntbd.DirectListener} binds the port. The token table is {@link
 * io.cosmolab.gateway.rntbd.Tokens}.
 *
 * <p>Related packages: {@code http} (the same requests over HTTP/1.1), {@code resources} (answers
 * both, and serves {@code /addresses}, which names this listener's replicas).
 */
package io.cosmolab.gateway.rntbd;
