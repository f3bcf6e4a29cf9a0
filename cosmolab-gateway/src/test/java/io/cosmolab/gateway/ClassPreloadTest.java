package io.cosmolab.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The preload list stays true to the dependencies: rewrite it with scripts/preload-classes. */
class ClassPreloadTest {

  @Test
  void everyListedClass_loads_soADependencyUpgradeCannotLeaveTheListStale() {
    assertThat(ClassPreload.names()).hasSizeGreaterThan(300).doesNotHaveDuplicates();
    assertThat(ClassPreload.loadAll())
        .as("classes named by %s that do not exist; run scripts/preload-classes", ClassPreload.LIST)
        .isEmpty();
  }

  @Test
  void theListCoversTheFirstConnectionsPath_notOnlyTheEventLoops() {
    assertThat(ClassPreload.names())
        .contains(
            "io.netty.handler.codec.http.HttpServerCodec",
            "io.netty.handler.codec.http.HttpObjectAggregator",
            "com.fasterxml.jackson.core.json.UTF8JsonGenerator");
  }
}
