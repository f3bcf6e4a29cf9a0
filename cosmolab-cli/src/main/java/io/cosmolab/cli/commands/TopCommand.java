package io.cosmolab.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cosmolab.cli.top.TopView;
import io.cosmolab.gateway.GatewayServer;
import io.cosmolab.gateway.tls.GatewayCertificate;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code cosmolab top}: a running server's partitions and alerts, refreshed every second. */
@Command(
    name = "top",
    mixinStandardHelpOptions = true,
    description = {
      "Shows a running cosmolab server's physical partitions in the terminal: bars of normalized"
          + " RU, 429s (real and would-be), storage, the top keys, and the active alerts,"
          + " refreshed every second (Ctrl-C stops). Reads the server's /_explorer/api/, which"
          + " a server serves to clients on its own machine only (elsewhere, an SSH tunnel to"
          + " its port)."
    })
public final class TopCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  private static final ObjectMapper JSON = new ObjectMapper();

  @Option(
      names = "--endpoint",
      defaultValue = "https://localhost:8081/",
      description = "The server (${DEFAULT-VALUE}).")
  URI endpoint;

  @Option(
      names = "--container",
      paramLabel = "DB/CONTAINER",
      description = "Only this container (default: every container).")
  String container;

  @Option(
      names = "--interval",
      defaultValue = "PT1S",
      description = "Time between frames (ISO-8601, default ${DEFAULT-VALUE}).")
  Duration interval;

  @Option(names = "--once", description = "Print one frame and exit (for scripts and logs).")
  boolean once;

  @Option(names = "--frames", hidden = true, description = "Stop after this many frames (tests).")
  Integer frames;

  @Option(
      names = "--data-dir",
      description =
          "Where the server keeps its certificate (its --data-dir; default ~/.cosmolab), to"
              + " trust it over HTTPS.")
  Path dataDir;

  @Override
  public Integer call() throws IOException, InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("--interval must be positive, was " + interval);
    }
    URI base = endpoint.toString().endsWith("/") ? endpoint : URI.create(endpoint + "/");
    HttpClient http = client(base);
    int limit = once ? 1 : frames == null ? Integer.MAX_VALUE : frames;
    for (int frame = 0; frame < limit; frame++) {
      String text = frame(http, base);
      if (!once) {
        out.print("\033[H\033[2J"); // home and clear: each frame replaces the last
      }
      out.print(text);
      out.flush();
      if (frame + 1 < limit) {
        Thread.sleep(interval.toMillis());
      }
    }
    return 0;
  }

  private String frame(HttpClient http, URI base) throws IOException, InterruptedException {
    JsonNode account = get(http, base, "_explorer/api/account");
    List<JsonNode> containers = new ArrayList<>();
    for (JsonNode db : account.path("databases")) {
      for (JsonNode c : db.path("containers")) {
        String name = db.path("id").asText() + "/" + c.path("id").asText();
        if (container == null || container.equals(name)) {
          containers.add(
              get(
                  http,
                  base,
                  "_explorer/api/dbs/"
                      + enc(db.path("id").asText())
                      + "/colls/"
                      + enc(c.path("id").asText())
                      + "/partitions"));
        }
      }
    }
    if (container != null && containers.isEmpty()) {
      throw new IllegalArgumentException(
          "no container " + container + " on " + base + " (--container takes DB/CONTAINER)");
    }
    return TopView.render(
        base.toString(), account, containers, get(http, base, "_explorer/api/alerts"));
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static JsonNode get(HttpClient http, URI base, String path)
      throws IOException, InterruptedException {
    HttpResponse<String> r;
    try {
      r =
          http.send(
              HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10)).build(),
              HttpResponse.BodyHandlers.ofString());
    } catch (java.net.ConnectException e) {
      throw new IOException("no cosmolab server answers at " + base + " (is `serve` running?)", e);
    }
    if (r.statusCode() != 200) {
      throw new IOException(base.resolve(path) + " answered " + r.statusCode() + ": " + r.body());
    }
    return JSON.readTree(r.body());
  }

  /** Over HTTPS, trusts the server's own self-signed certificate, if this machine has it. */
  private HttpClient client(URI base) throws IOException {
    HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
    if (base.getScheme().equals("https")) {
      Path dir = dataDir != null ? dataDir : GatewayServer.defaultCertificateDirectory();
      if (Files.exists(dir.resolve(GatewayCertificate.FILE_NAME))) {
        try {
          KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
          ks.load(null, null);
          ks.setCertificateEntry("cosmolab", GatewayCertificate.loadOrCreate(dir).certificate());
          TrustManagerFactory tmf =
              TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
          tmf.init(ks);
          SSLContext ssl = SSLContext.getInstance("TLS");
          ssl.init(null, tmf.getTrustManagers(), null);
          b.sslContext(ssl);
        } catch (java.security.GeneralSecurityException e) {
          throw new IOException("cannot trust the certificate in " + dir + ": " + e, e);
        }
      }
    }
    return b.build();
  }
}
