package io.cosmolab.gateway;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A {@link GatewayChild} process: started on the test classpath, stopped with SIGTERM. */
final class ChildGateway implements AutoCloseable {
  private final Process process;
  private final int port;
  private final int cap;
  private final Path stderr;
  private final List<String> stdout;
  private final Thread reader;

  private ChildGateway(
      Process process, int port, int cap, Path stderr, List<String> stdout, Thread reader) {
    this.process = process;
    this.reader = reader;
    this.port = port;
    this.cap = cap;
    this.stderr = stderr;
    this.stdout = stdout;
  }

  /**
   * Starts a child and waits (at most 30 s) until it listens.
   *
   * @param descriptorLimit the child's {@code ulimit -n}, or 0 to leave it
   */
  static ChildGateway start(int descriptorLimit, String... args) {
    List<String> java = new ArrayList<>();
    java.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    if (Runtime.version().feature() >= 24) { // Netty's Unsafe and native access, without warnings
      java.add("--sun-misc-unsafe-memory-access=allow");
      java.add("--enable-native-access=ALL-UNNAMED");
    }
    java.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m"));
    java.addAll(List.of("-cp", System.getProperty("java.class.path")));
    java.add(GatewayChild.class.getName());
    java.addAll(List.of(args));
    List<String> command = new ArrayList<>();
    if (descriptorLimit > 0) {
      // "$@" passes the java command line through the shell untouched
      command.addAll(
          List.of("bash", "-c", "ulimit -n " + descriptorLimit + " && exec \"$@\"", "bash"));
    }
    command.addAll(java);
    try {
      Path stderr = Files.createTempFile("gateway-child", ".err");
      Process p =
          new ProcessBuilder(command)
              .redirectError(stderr.toFile())
              .redirectInput(ProcessBuilder.Redirect.PIPE)
              .start();
      List<String> stdout = new CopyOnWriteArrayList<>();
      CompletableFuture<int[]> listening = new CompletableFuture<>();
      Thread reader =
          new Thread(
              () -> {
                int cap = -1;
                try (BufferedReader r =
                    new BufferedReader(
                        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                  for (String line = r.readLine(); line != null; line = r.readLine()) {
                    stdout.add(line);
                    if (line.startsWith("cap ")) {
                      cap = Integer.parseInt(line.substring(4).trim());
                    } else if (line.startsWith("port ")) {
                      listening.complete(
                          new int[] {Integer.parseInt(line.substring(5).trim()), cap});
                    }
                  }
                } catch (IOException | RuntimeException e) {
                  listening.completeExceptionally(e);
                }
                listening.completeExceptionally(new IllegalStateException("the child ended"));
              },
              "gateway-child-stdout");
      reader.setDaemon(true);
      reader.start();
      try {
        int[] started = listening.get(30, TimeUnit.SECONDS);
        return new ChildGateway(p, started[0], started[1], stderr, stdout, reader);
      } catch (ExecutionException | TimeoutException e) {
        p.destroyForcibly();
        throw new IllegalStateException(
            "the child did not start: " + e + "\n" + Files.readString(stderr), e);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  int port() {
    return port;
  }

  /** The connection cap the child decided. */
  int cap() {
    return cap;
  }

  Process process() {
    return process;
  }

  /** What the child wrote: its standard output, then its standard error. */
  String output() {
    try {
      if (!process.isAlive()) {
        reader.join(5000); // the last lines it printed
      }
      return String.join("\n", stdout) + "\n--- stderr ---\n" + Files.readString(stderr);
    } catch (IOException e) {
      return String.join("\n", stdout) + "\n(stderr unreadable: " + e + ")";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return String.join("\n", stdout);
    }
  }

  /** Sends SIGTERM and waits up to {@code seconds}; true when the child has exited. */
  boolean terminate(long seconds) throws InterruptedException {
    // the handle's destroy sends the same SIGTERM as Process.destroy, without closing the pipe
    // from the child: what the child prints while it stops is read to the end
    process.toHandle().destroy();
    return process.waitFor(seconds, TimeUnit.SECONDS);
  }

  @Override
  public void close() {
    try {
      if (!terminate(15)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
      Files.deleteIfExists(stderr);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
