package io.cosmolab.migrator.internal;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.migrator.MigratorOptions;
import io.cosmolab.migrator.TargetKey;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The target's writes: whole-document upserts and deletes that tolerate 404, so replaying a page
 * after a crash changes nothing; each through the RU cap, and each after the test's fault hook
 * ({@code upsert}, {@code delete}). {@link #runAll} runs a page's independent work on the writer
 * pool and waits for all of it, so a page is either wholly applied or its first failure thrown.
 */
public final class Writes implements AutoCloseable {
  private final CosmosContainer target;
  private final TargetKey key;
  private final Sdk sdk;
  private final MigratorOptions options;
  private final ExecutorService pool;

  public Writes(CosmosContainer target, TargetKey key, Sdk sdk, MigratorOptions options) {
    this.target = target;
    this.key = key;
    this.sdk = sdk;
    this.options = options;
    this.pool = Executors.newFixedThreadPool(options.parallelism());
  }

  /** Writes a transformed document under its new key. */
  public void upsert(ObjectNode t) {
    options.fault().before("upsert");
    PartitionKey pk = key.sdkKeyOf(t);
    sdk.call(
        () -> target.upsertItem(t, pk, new CosmosItemRequestOptions()), r -> r.getRequestCharge());
  }

  /** Deletes {@code id} under {@code pk}; absent is fine. */
  public void delete(String id, PartitionKey pk) {
    options.fault().before("delete");
    try {
      sdk.call(
          () -> target.deleteItem(id, pk, new CosmosItemRequestOptions()),
          r -> r.getRequestCharge());
    } catch (CosmosException e) {
      if (e.getStatusCode() != 404) {
        throw e;
      }
    }
  }

  /** Runs every piece of {@code work} on the pool and waits; throws the first failure. */
  public void runAll(List<Runnable> work) {
    if (work.size() == 1) {
      work.get(0).run();
      return;
    }
    List<Future<?>> futures = new ArrayList<>();
    for (Runnable r : work) {
      futures.add(pool.submit(r));
    }
    RuntimeException failure = null;
    for (Future<?> f : futures) {
      try {
        f.get();
      } catch (ExecutionException e) {
        if (failure == null) {
          failure =
              e.getCause() instanceof RuntimeException re
                  ? re
                  : new IllegalStateException(e.getCause());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
