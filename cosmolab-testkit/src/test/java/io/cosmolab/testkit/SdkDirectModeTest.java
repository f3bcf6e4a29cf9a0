package io.cosmolab.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The SDK option that keeps direct-mode requests from waiting for the SDK's 100 ms idle timer (see
 * {@link SdkDirectMode}): what the lab writes into the SDK's property. That the SDK reads it so is
 * {@code DirectModeCompatTest} in cosmolab-compat-tests, where the SDK's internals are visible.
 */
class SdkDirectModeTest {

  @Test
  void withResolution_noOptions_setsTheIdleTimerTo1ms() {
    assertThat(SdkDirectMode.withResolution(null))
        .isEqualTo("{\"idleChannelTimerResolution\":\"PT0.001S\"}");
    assertThat(SdkDirectMode.withResolution(" "))
        .isEqualTo("{\"idleChannelTimerResolution\":\"PT0.001S\"}");
  }

  @Test
  void withResolution_keepsTheOtherOptionsAUserSet() {
    assertThat(SdkDirectMode.withResolution("{\"maxRequestsPerChannel\":10}"))
        .isEqualTo("{\"maxRequestsPerChannel\":10,\"idleChannelTimerResolution\":\"PT0.001S\"}");
  }

  @Test
  void withResolution_leavesAUsersOwnResolution_andValuesThatAreNotAJsonObject_alone() {
    assertThat(SdkDirectMode.withResolution("{\"idleChannelTimerResolution\":\"PT0.1S\"}"))
        .isNull();
    assertThat(SdkDirectMode.withResolution("not json")).isNull();
    assertThat(SdkDirectMode.withResolution("[1]")).isNull();
  }

  @Test
  void prepare_leavesThePropertyUnset_whenTheUserPointsTheSdkAtAnOptionsFile() {
    String before = System.clearProperty(SdkDirectMode.PROPERTY);
    System.setProperty(SdkDirectMode.FILE_PROPERTY, "/etc/cosmos-options.json");
    try {
      SdkDirectMode.prepare();
      assertThat(System.getProperty(SdkDirectMode.PROPERTY)).isNull();
      System.clearProperty(SdkDirectMode.FILE_PROPERTY);
      SdkDirectMode.prepare();
      assertThat(System.getProperty(SdkDirectMode.PROPERTY))
          .isEqualTo("{\"idleChannelTimerResolution\":\"PT0.001S\"}");
    } finally {
      System.clearProperty(SdkDirectMode.FILE_PROPERTY);
      if (before == null) {
        System.clearProperty(SdkDirectMode.PROPERTY);
      } else {
        System.setProperty(SdkDirectMode.PROPERTY, before);
      }
    }
  }
}
