/**
 * The Cosmos DB REST gateway over the engine: {@link io.cosmolab.gateway.GatewayServer}, its
 * authorization keys ({@code .auth}) and TLS certificate ({@code .tls}). Routing, the wire format
 * and the resource handlers are internal.
 */
module io.cosmolab.gateway {
  requires transitive io.cosmolab.engine;
  requires io.netty.buffer;
  requires io.netty.codec;
  requires io.netty.codec.http;
  requires io.netty.common;
  requires io.netty.handler;
  requires io.netty.transport;
  requires micrometer.core; // /metrics (package observe), loaded at the first scrape
  requires micrometer.registry.prometheus;
  requires io.prometheus.metrics.model;
  requires org.bouncycastle.pkix;
  requires org.bouncycastle.provider;
  requires org.bouncycastle.util;
  requires java.logging; // warmed up at start (LoggingWarmUp)
  requires jdk.httpserver; // the JDK transport (JdkHttpTransport)
  requires static com.google.errorprone.annotations;

  exports io.cosmolab.gateway;
  exports io.cosmolab.gateway.auth;
  exports io.cosmolab.gateway.tls;
}
