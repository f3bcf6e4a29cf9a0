package io.cosmolab.gateway;

/** Hostile requests over the Jdk transport. */
class JdkHostileRequestsTest extends HostileRequestsContract {
  @Override
  GatewayServer.Transport transport() {
    return GatewayServer.Transport.JDK;
  }
}
