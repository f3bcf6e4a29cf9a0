package io.cosmolab.gateway.resources;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.testing.StallingStore;
import org.junit.jupiter.api.Test;

/** The rule for what runs on an event loop: document point reads that never wait, nothing else. */
class LoopPolicyTest {

  @Test
  void aDocumentPath_isExactlyDbsCollsDocsWithAnId() {
    assertThat(LoopPolicy.isDocumentPath("/dbs/db/colls/c/docs/a")).isTrue();
    assertThat(LoopPolicy.isDocumentPath("dbs/db/colls/c/docs/a/")).isTrue();
    assertThat(LoopPolicy.isDocumentPath("/DBS/db/Colls/c/DOCS/a%20b")).isTrue();
    assertThat(LoopPolicy.isDocumentPath("/dbs/db/colls/c/docs")).isFalse(); // the feed
    assertThat(LoopPolicy.isDocumentPath("/dbs/db/colls/c/docs/")).isFalse();
    assertThat(LoopPolicy.isDocumentPath("/dbs/db/colls/c/docs/a/attachments")).isFalse();
    assertThat(LoopPolicy.isDocumentPath("/dbs/db/colls/c/sprocs/a")).isFalse();
    assertThat(LoopPolicy.isDocumentPath("/dbs/db/colls/c/docsx/a")).isFalse();
    assertThat(LoopPolicy.isDocumentPath("/dbs/db/colls/c/docs/a?x=1")).isFalse();
    assertThat(LoopPolicy.isDocumentPath("/dbs//colls/c/docs/a")).isFalse();
    assertThat(LoopPolicy.isDocumentPath("/")).isFalse();
    assertThat(LoopPolicy.isDocumentPath("")).isFalse();
  }

  @Test
  void onlyAMasterSignedOrUnsignedPointRead_onAnEngineWhoseReadsNeverWait_runsOnTheLoop() {
    try (CosmosEngine memory = CosmosEngine.builder().build();
        CosmosEngine stalling = CosmosEngine.builder().store(new StallingStore()).build()) {
      LoopPolicy p = LoopPolicy.of(memory);
      assertThat(p.servesOnLoop(true, "type%3Dmaster%26ver%3D1.0%26sig%3Dx")).isTrue();
      assertThat(p.servesOnLoop(true, null)).isTrue(); // authentication off, or a 401 to come
      assertThat(p.servesOnLoop(false, "type%3Dmaster%26ver%3D1.0%26sig%3Dx")).isFalse();
      assertThat(p.servesOnLoop(true, "type=resource&ver=1.0&sig=x")).isFalse();
      assertThat(LoopPolicy.of(stalling).servesOnLoop(true, null)).isFalse();
      assertThat(LoopPolicy.NEVER.servesOnLoop(true, null)).isFalse();
    }
  }
}
