package io.cosmolab.gateway.resources;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The index metrics header in the second format: JSON percent-encoded as the SDKs decode it. */
class QueryMetricsHeaderTest {

  @Test
  void percentEncoding_isEncodeUriComponents_soASpaceIsNeverAPlus() {
    String json = "{\"IndexSpec\":\"/a b/?\",\"x\":\"1+1 é\"}";
    String encoded = QueryMetricsHeader.percentEncoded(json);
    assertThat(encoded)
        .isEqualTo("%7B%22IndexSpec%22%3A%22%2Fa%20b%2F%3F%22%2C%22x%22%3A%221%2B1%20%C3%A9%22%7D");
    // .NET's HttpUtility.UrlDecode reads + as a space, as URLDecoder does: there is none to misread
    assertThat(URLDecoder.decode(encoded, StandardCharsets.UTF_8)).isEqualTo(json);
  }

  @Test
  void unreservedCharacters_passAsTheyAre() {
    assertThat(QueryMetricsHeader.percentEncoded("AZaz09-_.!~*'()")).isEqualTo("AZaz09-_.!~*'()");
  }
}
