package io.cosmolab.gateway;

/** The contract over Netty, the transport of {@code cosmolab serve}. */
class GatewayServerTest extends GatewayServerContract {
  @Override
  GatewayServer.Transport transport() {
    return GatewayServer.Transport.NETTY;
  }
}
