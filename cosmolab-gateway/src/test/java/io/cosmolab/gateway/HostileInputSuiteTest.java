package io.cosmolab.gateway;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The hostile-input suite, briefly, over both transports, in the default run. */
class HostileInputSuiteTest {
  @ParameterizedTest
  @EnumSource(GatewayServer.Transport.class)
  void everyHostileRequestGetsA4xxOrLessAndTheServerStaysUp(GatewayServer.Transport transport)
      throws Exception {
    new HostileInputSuite(transport, 80).run();
  }
}
