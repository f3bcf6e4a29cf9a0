package io.cosmolab.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Hostile requests over the Netty transport. */
class NettyHostileRequestsTest extends HostileRequestsContract {
  @Override
  GatewayServer.Transport transport() {
    return GatewayServer.Transport.NETTY;
  }

  /** A request's head: its lines, each ended by CRLF, then the empty line. */
  private static String head(String... lines) {
    return String.join("\r\n", lines) + "\r\n\r\n";
  }

  @Test
  void expect100Continue_forABodyTooLarge_is413AtOnce_withoutA100() throws Exception {
    String answer =
        raw(
            head(
                "POST /dbs HTTP/1.1",
                "Host: localhost",
                "Content-Type: application/json",
                "Content-Length: 50000000",
                "Expect: 100-continue"));
    assertThat(answer).startsWith("HTTP/1.1 413").doesNotContain("100 Continue");
    assertThat(answer)
        .contains("\"code\":\"RequestEntityTooLarge\"")
        .contains("Request size is too large");
  }

  @Test
  void expect100Continue_forABodyThatFits_gets100ThenTheAnswer() throws Exception {
    String answer =
        raw(
            head(
                    "GET / HTTP/1.1",
                    "Host: localhost",
                    "Content-Length: 2",
                    "Expect: 100-continue",
                    "Connection: close")
                + "{}");
    assertThat(answer).startsWith("HTTP/1.1 100 Continue");
    assertThat(answer.substring(answer.indexOf("\r\n\r\n") + 4)).startsWith("HTTP/1.1 ");
  }

  @Test
  void expect100Continue_withALengthThatIsNotANumber_getsTheCodecs400() throws Exception {
    String answer =
        raw(
            head(
                "POST /dbs HTTP/1.1",
                "Host: localhost",
                "Content-Length: abc",
                "Expect: 100-continue"));
    assertThat(answer).startsWith("HTTP/1.1 400").doesNotContain("100 Continue");
  }

  @Test
  void aTransferEncodingNotEndingInChunked_is400_andItsBodyIsNeverReadAsARequest()
      throws Exception {
    for (String coding : new String[] {"xchunked", "gzip", "chunked, gzip", "identity"}) {
      String smuggled = head("GET /dbs HTTP/1.1", "Host: localhost");
      String answer =
          raw(
              head(
                      "POST /dbs HTTP/1.1",
                      "Host: localhost",
                      "Content-Type: application/json",
                      "Transfer-Encoding: " + coding)
                  + smuggled);
      assertThat(answer).as(coding).startsWith("HTTP/1.1 400").contains("Transfer-Encoding");
      // one answer, and the connection closed: the body was not run as a second request
      assertThat(answer.split("HTTP/1.1 ", -1)).as(coding).hasSize(2);
      assertThat(answer.toLowerCase(java.util.Locale.ROOT)).contains("connection: close");
    }
  }

  @Test
  void anExpectationOtherThan100Continue_is417WithAJsonBody() throws Exception {
    String answer = raw(head("GET / HTTP/1.1", "Host: localhost", "Expect: bogus"));
    assertThat(answer).startsWith("HTTP/1.1 417");
    assertThat(answer)
        .contains("\"code\":\"ExpectationFailed\"")
        .contains("the Expect header 'bogus' is not supported");
  }
}
