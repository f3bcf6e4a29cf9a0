package io.cosmolab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.gateway.auth.MasterKeyAuthenticator;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve --data-dir}: the server is killed with SIGKILL in the middle of a write load, and
 * after a restart on the same directory every write it acknowledged is there, with the database,
 * the container and its partition layout.
 */
class DurableServeTest {
  private static final MasterKeyAuthenticator SIGNER =
      new MasterKeyAuthenticator(
          MasterKeyAuthenticator.EMULATOR_KEY, Clock.systemUTC(), Duration.ofMinutes(15));
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @TempDir Path dir;

  @Test
  void acknowledgedWrites_surviveKillDashNine() throws Exception {
    int port = freePort();
    Process server = start(port);
    Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    try {
      assertThat(send(port, "POST", "/dbs", "dbs", "", "{\"id\":\"db\"}", null)).isEqualTo(201);
      assertThat(
              send(
                  port,
                  "POST",
                  "/dbs/db/colls",
                  "colls",
                  "dbs/db",
                  "{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"],\"kind\":\"Hash\"}}",
                  "30000"))
          .isEqualTo(201);
      AtomicBoolean stop = new AtomicBoolean();
      List<Thread> writers = new ArrayList<>();
      for (int t = 0; t < 3; t++) {
        int thread = t;
        Thread w =
            new Thread(
                () -> {
                  for (int i = 0; !stop.get(); i++) {
                    String id = "w" + thread + "-" + i;
                    try {
                      int status =
                          send(
                              port,
                              "POST",
                              "/dbs/db/colls/c/docs",
                              "docs",
                              "dbs/db/colls/c",
                              "{\"id\":\"" + id + "\",\"pk\":\"p" + (i % 50) + "\"}",
                              null,
                              "[\"p" + (i % 50) + "\"]");
                      if (status == 201) {
                        acknowledged.add(id + "|p" + (i % 50));
                      }
                    } catch (IOException | InterruptedException killed) {
                      return;
                    }
                  }
                });
        w.start();
        writers.add(w);
      }
      // kill once enough writes were acknowledged, however slow the machine is today (a fixed
      // 1.5 s saw none on a loaded 2-core runner), and a little after, so some are mid-request
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (acknowledged.size() < 100 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      Thread.sleep(200);
      server.destroyForcibly(); // SIGKILL, while the writers are mid-request
      server.waitFor(10, TimeUnit.SECONDS);
      stop.set(true);
      for (Thread w : writers) {
        w.join(10_000);
      }
    } finally {
      server.destroyForcibly();
    }
    System.out.println("acknowledged before the kill: " + acknowledged.size());
    assertThat(acknowledged).hasSizeGreaterThan(50);

    Process again = start(port);
    try {
      for (String ack : acknowledged) {
        String[] parts = ack.split("\\|", -1);
        int status =
            send(
                port,
                "GET",
                "/dbs/db/colls/c/docs/" + parts[0],
                "docs",
                "dbs/db/colls/c/docs/" + parts[0],
                null,
                null,
                "[\"" + parts[1] + "\"]");
        assertThat(status)
            .as("acknowledged document %s after the restart", parts[0])
            .isEqualTo(200);
      }
      String ranges = body(port, "/dbs/db/colls/c/pkranges", "pkranges", "dbs/db/colls/c");
      assertThat(ranges).contains("\"_count\":5"); // 30,000 RU/s: five partitions, kept
    } finally {
      again.destroy();
      again.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private Process start(int port) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    if (Runtime.version().feature() >= 24) {
      cmd.add("--sun-misc-unsafe-memory-access=allow");
      cmd.add("--enable-native-access=ALL-UNNAMED");
    }
    cmd.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            Main.class.getName(),
            "serve",
            "--port",
            Integer.toString(port),
            "--http",
            "--data-dir",
            dir.toString()));
    Process p =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolveSibling(dir.getFileName() + "-server.log").toFile())
            .start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      try {
        if (send(port, "GET", "/", "", "", null, null) == 200) {
          return p;
        }
      } catch (IOException notYet) {
        Thread.sleep(50);
      }
      if (!p.isAlive()) {
        throw new IllegalStateException(
            "the server exited: "
                + Files.readString(dir.resolveSibling(dir.getFileName() + "-server.log")));
      }
    }
    throw new IllegalStateException("the server did not answer within 60 s");
  }

  private int send(
      int port, String method, String path, String type, String link, String body, String offer)
      throws IOException, InterruptedException {
    return send(port, method, path, type, link, body, offer, null);
  }

  private int send(
      int port,
      String method,
      String path,
      String type,
      String link,
      String body,
      String offer,
      String partitionKey)
      throws IOException, InterruptedException {
    return request(port, method, path, type, link, body, offer, partitionKey).statusCode();
  }

  private String body(int port, String path, String type, String link)
      throws IOException, InterruptedException {
    return request(port, "GET", path, type, link, null, null, null).body();
  }

  private HttpResponse<String> request(
      int port,
      String method,
      String path,
      String type,
      String link,
      String body,
      String offer,
      String partitionKey)
      throws IOException, InterruptedException {
    String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(10))
            .header("x-ms-date", date)
            .header("authorization", SIGNER.sign(method, type, link, date))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (offer != null) {
      b.header("x-ms-offer-throughput", offer);
    }
    if (partitionKey != null) {
      b.header("x-ms-documentdb-partitionkey", partitionKey);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
