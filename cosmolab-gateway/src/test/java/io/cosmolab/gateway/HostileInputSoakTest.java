package io.cosmolab.gateway;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The hostile-input suite at length: {@code ./mvnw -P heavy verify -pl cosmolab-gateway -am
 * -Dtest=HostileInputSoakTest} (3,000 requests per class; {@code -Dcosmolab.hostile.tries=N}).
 */
@Tag("heavy")
class HostileInputSoakTest {
  @ParameterizedTest
  @EnumSource(GatewayServer.Transport.class)
  void thousandsOfHostileRequestsGetA4xxOrLessAndTheServerStaysUp(GatewayServer.Transport transport)
      throws Exception {
    new HostileInputSuite(transport, Integer.getInteger("cosmolab.hostile.tries", 3000)).run();
  }
}
