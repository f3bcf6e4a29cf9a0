package io.cosmolab.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cosmolab.gateway.auth.MasterKeyAuthenticator;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;

/** A minimal REST client that signs requests like the SDKs, for the gateway's own tests. */
final class SignedClient {
  static final ObjectMapper JSON = new ObjectMapper();
  private final URI endpoint;
  private final MasterKeyAuthenticator signer =
      new MasterKeyAuthenticator(
          MasterKeyAuthenticator.EMULATOR_KEY, Clock.systemUTC(), Duration.ofMinutes(15));
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  SignedClient(URI endpoint) {
    this.endpoint = endpoint;
  }

  /** The response: status, headers (lower case, first value) and body as JSON (or null). */
  record Response(int status, Map<String, String> headers, JsonNode body) {}

  Response send(
      String method,
      String path,
      String type,
      String link,
      String body,
      Map<String, String> headers) {
    return send(method, path, type, link, body, headers, ZonedDateTime.now(ZoneOffset.UTC));
  }

  Response send(
      String method,
      String path,
      String type,
      String link,
      String body,
      Map<String, String> headers,
      ZonedDateTime at) {
    return send(
        method,
        path,
        type,
        link,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body),
        headers,
        at);
  }

  /** A signed request whose body is these bytes, as sent (not necessarily valid UTF-8). */
  Response sendBytes(
      String method, String path, String type, String link, byte[] body, Map<String, String> h) {
    return send(
        method,
        path,
        type,
        link,
        HttpRequest.BodyPublishers.ofByteArray(body),
        h,
        ZonedDateTime.now(java.time.ZoneOffset.UTC));
  }

  private Response send(
      String method,
      String path,
      String type,
      String link,
      HttpRequest.BodyPublisher body,
      Map<String, String> headers,
      ZonedDateTime at) {
    String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(at);
    HttpRequest.Builder b =
        HttpRequest.newBuilder(endpoint.resolve(path))
            .header("x-ms-date", date)
            .header("x-ms-version", "2020-07-15")
            .header("authorization", signer.sign(method, type, link, date))
            .method(method, body);
    headers.forEach(b::setHeader); // a header given replaces a default (x-ms-version)
    return send(b.build());
  }

  Response send(HttpRequest request) {
    try {
      HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
      Map<String, String> h = new java.util.HashMap<>();
      r.headers().map().forEach((k, v) -> h.put(k.toLowerCase(java.util.Locale.ROOT), v.get(0)));
      JsonNode body = r.body().isEmpty() ? null : JSON.readTree(r.body());
      return new Response(r.statusCode(), h, body);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
