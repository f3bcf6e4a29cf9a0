package io.cosmolab.gateway.rntbd;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.LinkedHashMap;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;

/**
 * Fuzzes the frame decoder in memory: valid frames with random bytes replaced or cut, and random
 * garbage, after a valid context request. Whatever arrives, the decoder yields values (requests or
 * one {@link Inbound.Malformed}), never throws, and never allocates past its limits. Tagged heavy:
 * {@code ./mvnw -P heavy verify -pl cosmolab-gateway}. jqwik prints the seed of a failing try.
 */
@Tag("heavy")
class FrameDecoderFuzzTest {

  private static byte[] seed() {
    Map<Integer, Frames.T> t = new LinkedHashMap<>();
    t.put(Tokens.Request.PAYLOAD_PRESENT, new Frames.T(TokenType.BYTE, (byte) 1));
    t.put(Tokens.Request.DATABASE_NAME, new Frames.T(TokenType.STRING, "db"));
    t.put(Tokens.Request.COLLECTION_NAME, new Frames.T(TokenType.STRING, "c"));
    t.put(Tokens.Request.PARTITION_KEY, new Frames.T(TokenType.STRING, "[\"a\"]"));
    t.put(Tokens.Request.TRANSPORT_REQUEST_ID, new Frames.T(TokenType.ULONG, 9L));
    t.put(Tokens.Request.START_EPK, new Frames.T(TokenType.BYTES, new byte[] {'0', '5'}));
    t.put(0x004B, new Frames.T(TokenType.LONGLONG, 12L)); // TargetLsn, a token cosmolab skips
    return Frames.frame(
        3, 1, t, "{\"id\":\"1\",\"pk\":\"a\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  @Provide
  Arbitrary<byte[]> mutated() {
    byte[] seed = seed();
    return Arbitraries.integers()
        .between(0, seed.length - 1)
        .list()
        .ofMinSize(1)
        .ofMaxSize(8)
        .flatMap(
            positions ->
                Arbitraries.bytes()
                    .list()
                    .ofSize(positions.size())
                    .map(
                        values -> {
                          byte[] b = seed.clone();
                          for (int i = 0; i < positions.size(); i++) {
                            b[positions.get(i)] = values.get(i);
                          }
                          return b;
                        }));
  }

  @Provide
  Arbitrary<byte[]> garbage() {
    return Arbitraries.bytes().array(byte[].class).ofMaxSize(4096);
  }

  @Property(tries = 2000)
  void aMutatedFrame_decodesOrIsMalformed(@ForAll("mutated") byte[] frame) {
    check(frame);
  }

  @Property(tries = 1000)
  void garbage_decodesOrIsMalformed(@ForAll("garbage") byte[] bytes) {
    check(bytes);
  }

  @Property(tries = 500)
  void aCutFrame_waitsOrIsMalformed(@ForAll("mutated") byte[] frame) {
    check(java.util.Arrays.copyOf(frame, frame.length / 2));
  }

  private static void check(byte[] bytes) {
    EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(64 * 1024));
    ch.writeInbound(Unpooled.wrappedBuffer(Frames.context()));
    Object context = ch.readInbound();
    assertThat(context).isInstanceOf(Inbound.ContextRequest.class);
    ch.writeInbound(Unpooled.wrappedBuffer(bytes));
    int malformed = 0;
    for (Object o; (o = ch.readInbound()) != null; ) {
      assertThat(o).isInstanceOf(Inbound.class);
      if (o instanceof Inbound.Malformed) {
        malformed++;
      }
    }
    assertThat(malformed).isLessThanOrEqualTo(1);
    ch.finishAndReleaseAll();
  }
}
