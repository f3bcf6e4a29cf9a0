package io.cosmolab.gateway;

/** Hostile requests over the Netty transport. */
class NettyHostileRequestsTest extends HostileRequestsContract {
  @Override
  GatewayServer.Transport transport() {
    return GatewayServer.Transport.NETTY;
  }
}
