package io.cosmolab.gateway;

/**
 * Stalled requests over Netty, with one event loop and one worker kept ready: both connections
 * share the loop, and the stalled request holds the only worker the pool started with.
 */
class NettyStalledRequestTest extends StalledRequestContract {
  @Override
  GatewayServer.Builder configure(GatewayServer.Builder builder) {
    return builder.transport(GatewayServer.Transport.NETTY).eventLoopThreads(1).workerThreads(1);
  }
}
