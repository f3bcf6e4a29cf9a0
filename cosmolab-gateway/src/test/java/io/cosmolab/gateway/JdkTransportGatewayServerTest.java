package io.cosmolab.gateway;

/** The contract over the JDK's HTTP server, the light transport for embedding. */
class JdkTransportGatewayServerTest extends GatewayServerContract {
  @Override
  GatewayServer.Transport transport() {
    return GatewayServer.Transport.JDK;
  }

  @Override
  boolean framingErrorsHaveJsonBodies() {
    return false;
  }
}
