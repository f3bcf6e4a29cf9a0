package io.cosmolab.migrator;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosBulkOperations;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemOperation;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.testkit.CosmosLab;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * One copy measured, for {@code scripts/bench-migrator-pair}: an in-process cosmolab (throttling
 * off), a source of N orders of ~150 bytes on 2 physical partitions, migrated from {@code
 * /tenantId} to {@code /region+/userId} with no RU cap and the default options. Prints one line:
 * {@code result DOCS WHOLE_DOCS_PER_S COPY_DOCS_PER_S RU}, where the whole run counts the plan, the
 * target's creation and the copy, and the copy counts from the state's start (after the plan) to
 * its last save. Uses only the migrator's public API, so the same file measures an older revision.
 */
public final class MigratorCopyBench {
  private MigratorCopyBench() {}

  /** {@code DOCUMENTS} */
  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    ObjectMapper json = new ObjectMapper();
    String[] regions = {"eu", "us", "asia"};
    Path state = Files.createTempDirectory("migrator-bench");
    try (CosmosLab lab = CosmosLab.builder().throttling(ThrottlingMode.OFF).start();
        CosmosClient client = lab.clientBuilder().buildClient()) {
      client.createDatabaseIfNotExists("b");
      client
          .getDatabase("b")
          .createContainer(
              new CosmosContainerProperties("orders", "/tenantId"),
              ThroughputProperties.createManualThroughput(12_000));
      CosmosContainer source = client.getDatabase("b").getContainer("orders");
      List<CosmosItemOperation> ops = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        ObjectNode d = json.createObjectNode();
        d.put("id", "o" + i);
        d.put("tenantId", "t" + (i % 97));
        d.put("region", regions[i % 3]);
        d.put("userId", "u" + (i % 11));
        d.put("total", i);
        d.putObject("address").put("city", "c" + (i % 5));
        ops.add(CosmosBulkOperations.getCreateItemOperation(d, new PartitionKey("t" + (i % 97))));
      }
      source.executeBulkOperations(ops).forEach(r -> {});
      Endpoint e = new Endpoint(lab.endpoint(), lab.key());
      MigrationSpec spec =
          new MigrationSpec(
              e,
              new ContainerRef("b", "orders"),
              e,
              new ContainerRef("b", "byRegion"),
              "/region+/userId",
              OnMissing.FAIL,
              0,
              0);
      try (Migrator m = Migrator.open(spec, state, MigratorOptions.of(Clock.systemUTC()))) {
        long t0 = System.nanoTime();
        MigrationState s = m.run(true, () -> false);
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (s.copied() != n) {
          throw new IllegalStateException("copied " + s.copied() + " of " + n);
        }
        double copySeconds = (s.updatedAtMillis() - s.startedAtMillis()) / 1000.0;
        System.out.printf(
            "result %d %.0f %.0f %.0f%n", n, n / seconds, n / copySeconds, s.requestUnits());
      }
    }
  }
}
