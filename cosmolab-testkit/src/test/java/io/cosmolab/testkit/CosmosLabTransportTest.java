package io.cosmolab.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosmolab.gateway.GatewayServer;
import org.junit.jupiter.api.Test;

/** Which transport a lab starts: the JDK's by default, Netty on request. */
class CosmosLabTransportTest {

  @Test
  void aLab_startsTheJdkTransportByDefault_andNettyWhenAsked() {
    String before = System.clearProperty("cosmolab.transport");
    try {
      try (CosmosLab lab = CosmosLab.builder().plainHttp().start()) {
        assertThat(lab.server().transport()).isEqualTo(GatewayServer.Transport.JDK);
      }
      try (CosmosLab lab =
          CosmosLab.builder().plainHttp().transport(GatewayServer.Transport.NETTY).start()) {
        assertThat(lab.server().transport()).isEqualTo(GatewayServer.Transport.NETTY);
      }
      System.setProperty("cosmolab.transport", "Netty");
      try (CosmosLab lab = CosmosLab.builder().plainHttp().start()) {
        assertThat(lab.server().transport()).isEqualTo(GatewayServer.Transport.NETTY);
      }
      System.setProperty("cosmolab.transport", "grpc");
      assertThatThrownBy(CosmosLab::builder)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("-Dcosmolab.transport must be jdk or netty, was 'grpc'");
    } finally {
      if (before == null) {
        System.clearProperty("cosmolab.transport");
      } else {
        System.setProperty("cosmolab.transport", before);
      }
    }
  }
}
