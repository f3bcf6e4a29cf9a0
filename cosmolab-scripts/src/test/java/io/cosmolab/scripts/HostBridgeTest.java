package io.cosmolab.scripts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** What crosses from a script to the engine: JSON text, refused in the user's terms when not. */
class HostBridgeTest {
  @Test
  void textThatIsNotJson_isRefusedQuotingItsStartOnly_howeverLargeTheScriptMadeIt() {
    String huge = "x".repeat(5_000_000); // a script's setBody of a large string gone wrong
    assertThatThrownBy(() -> HostBridge.parse(huge))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("the script API sent text that is not JSON: xxx")
        .hasMessageContaining("(5000000 characters in all)")
        .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(400));
  }

  @Test
  void shortTextThatIsNotJson_isQuotedWhole() {
    assertThatThrownBy(() -> HostBridge.parse("{nope"))
        .hasMessage("the script API sent text that is not JSON: {nope");
  }
}
