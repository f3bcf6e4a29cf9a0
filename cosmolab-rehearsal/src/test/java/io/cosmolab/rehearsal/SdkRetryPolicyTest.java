package io.cosmolab.rehearsal;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.rehearsal.internal.SdkRetryPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The client model follows the Java SDK's ResourceThrottleRetryPolicy with its defaults. */
class SdkRetryPolicyTest {
  private static final ClientModel SDK = ClientModel.SDK_DEFAULT;

  @Test
  void defaults_areNineRetriesAndThirtySeconds() {
    assertThat(SDK.maxRetries()).isEqualTo(9);
    assertThat(SDK.maxRetryWait()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void a429_isRetriedAfterTheRetryAfterItSent() {
    assertThat(SdkRetryPolicy.delayMillis(SDK, 0, 0, 350)).isEqualTo(350);
  }

  @Test
  void theTenthAttempt_isTheLast_afterNineRetries() {
    assertThat(SdkRetryPolicy.delayMillis(SDK, 8, 8 * 500, 500)).isEqualTo(500);
    assertThat(SdkRetryPolicy.delayMillis(SDK, 9, 9 * 500, 500)).isEqualTo(-1);
  }

  @Test
  void aRetryThatWouldTakeTheCumulativeWaitPastThirtySeconds_isNotTaken() {
    assertThat(SdkRetryPolicy.delayMillis(SDK, 3, 29_000, 1_000)).isEqualTo(1_000);
    assertThat(SdkRetryPolicy.delayMillis(SDK, 3, 29_001, 1_000)).isEqualTo(-1);
  }

  @Test
  void aRetryAfterOfThirtySecondsOrMore_failsAtOnce() {
    assertThat(SdkRetryPolicy.delayMillis(SDK, 0, 0, 30_000)).isEqualTo(-1);
    assertThat(SdkRetryPolicy.delayMillis(SDK, 0, 0, 29_999)).isEqualTo(29_999);
  }

  @Test
  void noRetries_meansTheFirst429Fails() {
    ClientModel none = new ClientModel(0, Duration.ofSeconds(30), 4, 10, 6, 15);
    assertThat(SdkRetryPolicy.delayMillis(none, 0, 0, 10)).isEqualTo(-1);
  }
}
