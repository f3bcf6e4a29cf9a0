package io.cosmolab.migrator;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.ChangeFeedPolicy;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.testkit.CosmosLab;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/** Test helpers: a source container of orders, a writer, a spec. */
final class Lab {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String[] REGIONS = {"eu", "us", "asia"};

  private Lab() {}

  static CosmosContainer orders(CosmosClient client, String db, String name, int n) {
    return orders(client, db, new CosmosContainerProperties(name, "/tenantId"), n);
  }

  /**
   * A source whose change feed is the latest-version one (the default on the service, where all
   * versions and deletes needs continuous backup).
   */
  static CosmosContainer latestVersionOrders(CosmosClient client, String db, int n) {
    CosmosContainerProperties p = new CosmosContainerProperties("orders", "/tenantId");
    p.setChangeFeedPolicy(ChangeFeedPolicy.createLatestVersionPolicy());
    return orders(client, db, p, n);
  }

  private static CosmosContainer orders(
      CosmosClient client, String db, CosmosContainerProperties properties, int n) {
    client.createDatabaseIfNotExists(db);
    client
        .getDatabase(db)
        .createContainer(properties, ThroughputProperties.createManualThroughput(12_000));
    CosmosContainer c = client.getDatabase(db).getContainer(properties.getId());
    for (int i = 0; i < n; i++) {
      c.createItem(order("o" + i, "t" + (i % 7), REGIONS[i % 3], i));
    }
    return c;
  }

  static ObjectNode order(String id, String tenant, String region, int total) {
    ObjectNode d = JSON.createObjectNode();
    d.put("id", id);
    d.put("tenantId", tenant);
    d.put("region", region);
    d.put("userId", "u" + (total % 11));
    d.put("total", total);
    d.putObject("address").put("city", "c" + (total % 5));
    return d;
  }

  static MigrationSpec spec(CosmosLab lab, String db, String from, String to, String key) {
    Endpoint e = new Endpoint(lab.endpoint(), lab.key());
    return new MigrationSpec(
        e, new ContainerRef(db, from), e, new ContainerRef(db, to), key, OnMissing.FAIL, 0, 0);
  }

  static MigratorOptions options() {
    return MigratorOptions.of(Clock.systemUTC()).withPageSize(50);
  }

  /**
   * Creates, replaces (also changing the region and the tenant's user, so documents move between
   * new logical partitions) and deletes orders in the source, from a seeded random, until stopped.
   */
  static final class Writer implements AutoCloseable {
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicLong writes = new AtomicLong();
    private volatile RuntimeException failure;
    private final Thread thread;

    Writer(CosmosContainer c, long seed, int ids) {
      Random random = new Random(seed);
      thread =
          new Thread(
              () -> {
                while (!stop.get()) {
                  int i = random.nextInt(ids);
                  String id = "w" + i;
                  String tenant = "t" + (i % 5);
                  try {
                    int op = random.nextInt(10);
                    if (op < 2) {
                      c.deleteItem(id, new PartitionKey(tenant), null);
                    } else {
                      c.upsertItem(
                          order(id, tenant, REGIONS[random.nextInt(3)], random.nextInt(1000)));
                    }
                    writes.incrementAndGet();
                  } catch (CosmosException e) {
                    if (e.getStatusCode() != 404) {
                      failure = e;
                      return;
                    }
                  } catch (RuntimeException e) {
                    failure = e;
                    return;
                  }
                  try {
                    Thread.sleep(2);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              },
              "source-writer");
      thread.start();
    }

    /**
     * The writes done so far.
     *
     * @throws IllegalStateException once the writer has failed: a test waiting for more writes
     *     fails with the cause instead of waiting forever
     */
    long writes() {
      RuntimeException f = failure;
      if (f != null) {
        throw new IllegalStateException("the source writer failed after " + writes + " writes", f);
      }
      return writes.get();
    }

    @Override
    public void close() {
      stop.set(true);
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  static Path dir(Path tmp, String name) {
    return tmp.resolve(name);
  }
}
