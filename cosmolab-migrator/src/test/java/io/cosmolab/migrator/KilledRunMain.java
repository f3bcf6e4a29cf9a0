package io.cosmolab.migrator;

import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;

/** A migration run in its own JVM, for {@link KilledRunTest} to kill with SIGKILL. */
public final class KilledRunMain {
  private KilledRunMain() {}

  /** endpoint key database stateDir maxRu */
  public static void main(String[] args) {
    Endpoint e = new Endpoint(URI.create(args[0]), args[1]);
    MigrationSpec spec =
        new MigrationSpec(
            e,
            new ContainerRef(args[2], "orders"),
            e,
            new ContainerRef(args[2], "byRegion"),
            "/region+/userId",
            OnMissing.FAIL,
            Double.parseDouble(args[4]),
            0);
    try (Migrator m =
        Migrator.open(
            spec, Path.of(args[3]), MigratorOptions.of(Clock.systemUTC()).withPageSize(20))) {
      System.out.println("running");
      System.out.flush();
      m.run(false, () -> false); // tails until killed
    }
  }
}
