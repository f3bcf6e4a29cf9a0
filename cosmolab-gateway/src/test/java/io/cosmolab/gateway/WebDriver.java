package io.cosmolab.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;

/**
 * Headless Chromium driven through Debian's chromedriver over the W3C WebDriver protocol (plain
 * JSON over HTTP on loopback), so the browser test needs no client library. {@link #close()} ends
 * the session and the chromedriver process this started.
 */
final class WebDriver implements AutoCloseable {
  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ELEMENT = "element-6066-11e4-a52e-4f735466cecf";

  private final Process driver;
  private final URI base;
  private final HttpClient http = HttpClient.newHttpClient();
  private final String session;
  private final Path profile;

  WebDriver(int width, int height) throws IOException, InterruptedException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    driver =
        new ProcessBuilder(CHROMEDRIVER.toString(), "--port=" + port, "--allowed-ips=127.0.0.1")
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    base = URI.create("http://127.0.0.1:" + port + "/");
    profile = Files.createTempDirectory("cosmolab-chromium-");
    try {
      waitReady();
      ObjectNode caps = JSON.createObjectNode();
      ObjectNode always = caps.putObject("capabilities").putObject("alwaysMatch");
      always.put("browserName", "chrome");
      ObjectNode chrome = always.putObject("goog:chromeOptions");
      chrome.put("binary", CHROMIUM.toString());
      ArrayNode args = chrome.putArray("args");
      for (String a :
          List.of(
              "--headless=new",
              "--no-sandbox",
              "--disable-gpu",
              "--disable-quic",
              "--no-first-run",
              "--disable-background-networking",
              "--disable-component-update",
              "--disable-sync",
              "--disable-dev-shm-usage",
              "--hide-scrollbars",
              "--user-data-dir=" + profile,
              "--window-size=" + width + "," + height)) {
        args.add(a);
      }
      session = call("POST", "session", caps).path("sessionId").asText();
    } catch (IOException | InterruptedException | RuntimeException e) {
      driver.destroy();
      throw e;
    }
  }

  private void waitReady() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (System.nanoTime() < deadline) {
      try {
        if (call("GET", "status", null).path("ready").asBoolean()) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(100);
    }
    throw new IOException("chromedriver did not become ready on " + base);
  }

  private JsonNode call(String method, String path, JsonNode body)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(base.resolve(path))
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json");
    b.method(
        method,
        body == null
            ? (method.equals("POST")
                ? HttpRequest.BodyPublishers.ofString("{}")
                : HttpRequest.BodyPublishers.noBody())
            : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    JsonNode v = JSON.readTree(r.body()).path("value");
    if (r.statusCode() != 200) {
      throw new IllegalStateException("WebDriver " + method + " " + path + ": " + v);
    }
    return v;
  }

  void open(URI url) throws IOException, InterruptedException {
    ObjectNode b = JSON.createObjectNode();
    b.put("url", url.toString());
    call("POST", "session/" + session + "/url", b);
  }

  /** Runs a script in the page; {@code return x} gives x as JSON. */
  JsonNode script(String js, Object... args) throws IOException, InterruptedException {
    ObjectNode b = JSON.createObjectNode();
    b.put("script", js);
    b.set("args", JSON.valueToTree(args));
    return call("POST", "session/" + session + "/execute/sync", b);
  }

  /** Waits until the script returns a truthy value, and returns it. */
  JsonNode await(String js, Duration timeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    JsonNode v = null;
    while (System.nanoTime() < deadline) {
      v = script(js);
      if (v != null && !v.isNull() && !(v.isBoolean() && !v.asBoolean()) && !v.asText().isEmpty()) {
        return v;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the page never satisfied: " + js + " (last: " + v + ")");
  }

  /** Clicks the element {@code css} selects, as a user would. */
  void click(String css) throws IOException, InterruptedException {
    ObjectNode b = JSON.createObjectNode();
    b.put("using", "css selector");
    b.put("value", css);
    String id = call("POST", "session/" + session + "/element", b).path(ELEMENT).asText();
    call("POST", "session/" + session + "/element/" + id + "/click", null);
  }

  void screenshot(Path file) throws IOException, InterruptedException {
    String png = call("GET", "session/" + session + "/screenshot", null).asText();
    Files.createDirectories(file.getParent());
    Files.write(file, Base64.getDecoder().decode(png));
  }

  @Override
  public void close() {
    try {
      call("DELETE", "session/" + session, null);
    } catch (IOException | RuntimeException e) {
      // the process goes below anyway
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      driver.destroy();
      try {
        if (!driver.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
          driver.destroyForcibly();
        }
      } catch (InterruptedException e) {
        driver.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }
}
