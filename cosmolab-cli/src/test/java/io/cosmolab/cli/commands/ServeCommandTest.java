package io.cosmolab.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.CosmosEngine;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** What {@code serve}'s options make of the engine. */
class ServeCommandTest {
  private static CosmosEngine engineOf(String... args) {
    ServeCommand serve = new ServeCommand();
    new CommandLine(serve).parseArgs(args);
    return serve.engineSettings().build();
  }

  @Test
  void queryPageTimeAndScriptTimeout_reachTheEngine_withTheServicesDefaults() {
    CosmosEngine defaults = engineOf();
    assertThat(defaults.queryPageTime()).isEqualTo(Duration.ofSeconds(5));
    assertThat(defaults.scriptLimits().timeout()).isEqualTo(Duration.ofSeconds(5));

    CosmosEngine set = engineOf("--query-page-time", "1", "--script-timeout", "250");
    assertThat(set.queryPageTime()).isEqualTo(Duration.ofMillis(1));
    assertThat(set.scriptLimits().timeout()).isEqualTo(Duration.ofMillis(250));
  }

  @Test
  void previousImagesInTheChangeFeed_areOff_asOnTheService_untilAsked() {
    assertThat(engineOf().changeFeedPreviousImages()).isFalse();
    assertThat(engineOf("--change-feed-previous-images").changeFeedPreviousImages()).isTrue();
  }
}
