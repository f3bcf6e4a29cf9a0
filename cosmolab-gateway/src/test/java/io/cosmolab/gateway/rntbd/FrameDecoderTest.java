package io.cosmolab.gateway.rntbd;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The frame decoder in memory: whole frames, split frames, and what is not a frame. */
class FrameDecoderTest {

  private static EmbeddedChannel channel() {
    return new EmbeddedChannel(new FrameDecoder(1024));
  }

  private static Object feed(EmbeddedChannel ch, byte[] bytes) {
    ch.writeInbound(Unpooled.wrappedBuffer(bytes));
    return ch.readInbound();
  }

  @Test
  void contextThenRequest_decodeWithTokensPayloadAndActivityId() {
    EmbeddedChannel ch = channel();
    Object context = feed(ch, Frames.context());
    assertThat(context).isInstanceOf(Inbound.ContextRequest.class);
    assertThat(((Inbound.ContextRequest) context).activityId())
        .isEqualTo(UUID.fromString("01020304-0506-0708-090a-0b0c0d0e0f10"));
    Map<Integer, Frames.T> t = new LinkedHashMap<>();
    t.put(Tokens.Request.PAYLOAD_PRESENT, new Frames.T(TokenType.BYTE, (byte) 1));
    t.put(Tokens.Request.DATABASE_NAME, new Frames.T(TokenType.STRING, "db"));
    t.put(Tokens.Request.PAGE_SIZE, new Frames.T(TokenType.ULONG, 0xFFFFFFFFL));
    byte[] body = "{\"id\":\"a\"}".getBytes(StandardCharsets.UTF_8);
    Object request =
        feed(ch, Frames.frame(Tokens.ResourceType.DOCUMENT, Tokens.Operation.CREATE, t, body));
    assertThat(request).isInstanceOf(Inbound.Request.class);
    Inbound.Request r = (Inbound.Request) request;
    assertThat(r.operationType()).isEqualTo(Tokens.Operation.CREATE);
    assertThat(r.string(Tokens.Request.DATABASE_NAME)).isEqualTo("db");
    assertThat(r.number(Tokens.Request.PAGE_SIZE)).isEqualTo(0xFFFFFFFFL);
    assertThat(r.payload()).isEqualTo(body);
  }

  @Test
  void aFrameArrivingByteByByte_decodesOnceWhole() {
    EmbeddedChannel ch = channel();
    byte[] both = Frames.concat(Frames.context(), Frames.readDatabase("x", 3));
    for (byte b : both) {
      ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
    }
    Object first = ch.readInbound();
    assertThat(first).isInstanceOf(Inbound.ContextRequest.class);
    Inbound.Request r = ch.readInbound();
    assertThat(r.number(Tokens.Request.TRANSPORT_REQUEST_ID)).isEqualTo(3L);
    Object none = ch.readInbound();
    assertThat(none).isNull();
  }

  @Test
  void aHugeLength_isMalformed_withoutWaitingForTheBytes() {
    byte[] huge = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0x7F, 0, 0, 0, 0};
    assertThat(feed(channel(), huge)).isInstanceOf(Inbound.Malformed.class);
  }

  @Test
  void aLengthShorterThanTheFrameHeader_isMalformed() {
    assertThat(feed(channel(), new byte[] {4, 0, 0, 0})).isInstanceOf(Inbound.Malformed.class);
  }

  @Test
  void aRequestBeforeTheContext_isMalformed() {
    assertThat(feed(channel(), Frames.readDatabase("x", 1)))
        .isInstanceOfSatisfying(
            Inbound.Malformed.class, m -> assertThat(m.reason()).contains("context request"));
  }

  @Test
  void aTruncatedToken_isMalformed() {
    byte[] frame = Frames.readDatabase("database", 1);
    // cut the last token's value short, and say so in the length
    byte[] cut = Arrays.copyOf(frame, frame.length - 2);
    cut[0] = (byte) cut.length;
    EmbeddedChannel ch = channel();
    feed(ch, Frames.context());
    assertThat(feed(ch, cut)).isInstanceOf(Inbound.Malformed.class);
  }

  @Test
  void aStringTokenLongerThanItsFrame_isMalformed() {
    Map<Integer, Frames.T> t = new LinkedHashMap<>();
    t.put(Tokens.Request.PAYLOAD_PRESENT, new Frames.T(TokenType.BYTE, (byte) 0));
    t.put(Tokens.Request.DATABASE_NAME, new Frames.T(TokenType.STRING, "abc"));
    byte[] frame = Frames.frame(1, 3, t, null);
    frame[frame.length - 5] = (byte) 0xFF; // the string's length, low byte: 255 + ...
    EmbeddedChannel ch = channel();
    feed(ch, Frames.context());
    assertThat(feed(ch, frame)).isInstanceOf(Inbound.Malformed.class);
  }

  @Test
  void anUnknownTokenType_isMalformed() {
    byte[] frame = Frames.readDatabase("x", 1);
    frame[24 + 2] = 0x33; // the first token's type
    EmbeddedChannel ch = channel();
    feed(ch, Frames.context());
    assertThat(feed(ch, frame))
        .isInstanceOfSatisfying(
            Inbound.Malformed.class, m -> assertThat(m.reason()).contains("unknown type"));
  }

  @Test
  void aPayloadOverTheLimit_isMalformed() {
    Map<Integer, Frames.T> t = new LinkedHashMap<>();
    t.put(Tokens.Request.PAYLOAD_PRESENT, new Frames.T(TokenType.BYTE, (byte) 1));
    byte[] frame = Frames.frame(3, 1, t, new byte[2048]);
    EmbeddedChannel ch = channel();
    feed(ch, Frames.context());
    assertThat(feed(ch, frame))
        .isInstanceOfSatisfying(
            Inbound.Malformed.class, m -> assertThat(m.reason()).contains("over the limit"));
  }

  @Test
  void afterAMalformedFrame_nothingMoreIsDecoded() {
    EmbeddedChannel ch = channel();
    feed(ch, new byte[] {4, 0, 0, 0});
    assertThat(feed(ch, Frames.context())).isNull();
  }
}
