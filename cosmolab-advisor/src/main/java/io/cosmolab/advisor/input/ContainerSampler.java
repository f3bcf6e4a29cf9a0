package io.cosmolab.advisor.input;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.throughput.Throughput;
import java.net.URI;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Samples documents from a live container through the official Java SDK: a cosmolab server or a
 * real account. The sample is the newest {@code size} documents (by {@code _ts}), streamed oldest
 * first, so monotonicity is measured on arrival order; with fewer documents, all of them. Two
 * queries do it: the cut-off {@code _ts} ({@code ORDER BY c._ts DESC OFFSET size-1 LIMIT 1}), then
 * the documents from it in order. The container's document count and its throughput are read too,
 * so the sample's weights scale to the whole container.
 *
 * <p>Throttling: sampling reads a lot at once, and a container with little throughput (or one
 * already busy) answers 429 with a retry-after, for longer than the SDK's own retries wait (30 s by
 * default). The sampler waits each retry-after out and goes on from the page it had reached, for up
 * to {@link #PATIENCE} in all; only then does it give up, saying so.
 *
 * <p>Assumption [I]: the newest documents represent the current mix of keys; storage shares of
 * older data are scaled from them.
 */
public final class ContainerSampler implements Iterator<ObjectNode>, AutoCloseable {
  private static final int PAGE = 1000;

  /** How long, in all, the sampler waits out 429s before it gives up. */
  public static final java.time.Duration PATIENCE = java.time.Duration.ofMinutes(10);

  private final CosmosClient client;
  private final boolean ownsClient;
  private final CosmosContainer container;
  private final String name;
  private final int size;
  private Iterator<FeedResponse<ObjectNode>> pages;
  private Iterator<ObjectNode> page;
  private SqlQuerySpec documents; // the query pages come from, and where the last page ended
  private String continuation;
  private int taken;
  private boolean arrivalOrder = true;
  private java.time.Duration patience = PATIENCE;
  private Sleeper sleeper = d -> Thread.sleep(d.toMillis());
  private java.time.Duration waited = java.time.Duration.ZERO;

  /** Waits (the sampler's only blocking besides the SDK's): injected by tests. */
  @FunctionalInterface
  interface Sleeper {
    void sleep(java.time.Duration d) throws InterruptedException;
  }

  private ContainerSampler(
      CosmosClient client, boolean ownsClient, String database, String container, int size) {
    if (size < 1) {
      throw new IllegalArgumentException("a sample needs at least 1 document, was " + size);
    }
    this.client = client;
    this.ownsClient = ownsClient;
    this.container = client.getDatabase(database).getContainer(container);
    this.name = database + "/" + container;
    this.size = size;
  }

  /** Samples through {@code client}, which stays open. */
  public static ContainerSampler of(
      CosmosClient client, String database, String container, int size) {
    return new ContainerSampler(client, false, database, container, size);
  }

  /**
   * Connects to {@code endpoint} in {@code mode} ({@link SdkClients}) and samples; closing the
   * sampler closes the client. For an emulator on this machine (localhost) the SDK is told to
   * accept its self-signed certificate, and, over plain HTTP, to allow it.
   */
  public static ContainerSampler connect(
      URI endpoint, String key, SdkClients.Mode mode, String database, String container, int size) {
    CosmosClient client = SdkClients.connect(endpoint, key, mode, builder -> builder);
    return new ContainerSampler(client, true, database, container, size);
  }

  /** Waits out 429s for up to {@code total} in all (tests shorten it). */
  ContainerSampler patience(java.time.Duration total, Sleeper sleeper) {
    this.patience = total;
    this.sleeper = sleeper;
    return this;
  }

  /** What a throttled call is retried as. */
  @FunctionalInterface
  private interface Call<T> {
    T run();
  }

  /**
   * {@code call}, its 429s waited out (each for its retry-after) while the patience lasts; any
   * other error, or a 429 past the patience, fails saying what it could not do.
   */
  private <T> T patiently(String what, Call<T> call) {
    while (true) {
      try {
        return call.run();
      } catch (CosmosException e) {
        if (e.getStatusCode() != 429) {
          throw e;
        }
        java.time.Duration wait = e.getRetryAfterDuration();
        if (wait == null || wait.isZero() || wait.isNegative()) {
          wait = java.time.Duration.ofMillis(100);
        }
        if (waited.plus(wait).compareTo(patience) > 0) {
          throw failure(
              what,
              e,
              " after waiting out 429s for "
                  + waited.toSeconds()
                  + " s (the container's throughput is busy or small; sample fewer documents"
                  + " with --sample, or retry later)");
        }
        try {
          sleeper.sleep(wait);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw failure(what, e, " (interrupted while waiting out a 429)");
        }
        waited = waited.plus(wait);
      }
    }
  }

  /** The documents the container holds ({@code SELECT VALUE COUNT(1)}). */
  public long containerDocuments() {
    try {
      return patiently(
          "count the documents of",
          () -> {
            for (Long n :
                container.queryItems(
                    "SELECT VALUE COUNT(1) FROM c", new CosmosQueryRequestOptions(), Long.class)) {
              return n;
            }
            return 0L;
          });
    } catch (CosmosException e) {
      throw failure("count the documents of", e);
    }
  }

  /** The container's own throughput, or null when it has none (shared by its database). */
  public Throughput throughputOrNull() {
    try {
      ThroughputProperties t =
          patiently("read the throughput of", () -> container.readThroughput().getProperties());
      if (t.getAutoscaleMaxThroughput() > 0) {
        return Throughput.autoscale(t.getAutoscaleMaxThroughput());
      }
      return t.getManualThroughput() == null ? null : Throughput.manual(t.getManualThroughput());
    } catch (CosmosException e) {
      if (e.getStatusCode() == 400 || e.getStatusCode() == 404) {
        return null; // no offer of its own
      }
      throw failure("read the throughput of", e);
    }
  }

  private void start() {
    try {
      startInArrivalOrder();
    } catch (CosmosException e) {
      if (e.getStatusCode() != 400) {
        throw failure("sample", e);
      }
      // the indexing policy cannot order by _ts: take the documents as the container stores them
      arrivalOrder = false;
      pagesOf(new SqlQuerySpec("SELECT * FROM c"));
    }
  }

  /** Pages of {@code query} from the start. */
  private void pagesOf(SqlQuerySpec query) {
    documents = query;
    continuation = null;
    pages = pageIterator();
    page = java.util.Collections.emptyIterator();
  }

  /** Pages of the documents' query from where the last page read ended. */
  private Iterator<FeedResponse<ObjectNode>> pageIterator() {
    return container
        .queryItems(documents, new CosmosQueryRequestOptions(), ObjectNode.class)
        .iterableByPage(continuation, PAGE)
        .iterator();
  }

  /**
   * Whether the sample came in arrival order (by {@code _ts}); false when the container's indexing
   * policy excludes {@code _ts}, and then monotonicity says nothing about time.
   */
  public boolean inArrivalOrder() {
    if (pages == null) {
      start();
    }
    return arrivalOrder;
  }

  private void startInArrivalOrder() {
    SqlQuerySpec newest =
        new SqlQuerySpec(
            "SELECT VALUE c._ts FROM c ORDER BY c._ts DESC OFFSET @skip LIMIT 1",
            List.of(new SqlParameter("@skip", size - 1)));
    Long cutoff =
        patiently(
            "sample",
            () -> {
              Long last = null;
              for (Long ts :
                  container.queryItems(newest, new CosmosQueryRequestOptions(), Long.class)) {
                last = ts;
              }
              return last;
            });
    pagesOf(
        cutoff == null
            ? new SqlQuerySpec("SELECT * FROM c ORDER BY c._ts")
            : new SqlQuerySpec(
                "SELECT * FROM c WHERE c._ts >= @cutoff ORDER BY c._ts",
                List.of(new SqlParameter("@cutoff", cutoff))));
  }

  @Override
  public boolean hasNext() {
    if (pages == null) {
      start();
    }
    if (taken >= size) {
      return false;
    }
    try {
      while (!page.hasNext()) {
        FeedResponse<ObjectNode> next =
            patiently(
                "sample",
                () -> {
                  try {
                    return pages.hasNext() ? pages.next() : null;
                  } catch (CosmosException e) {
                    pages = pageIterator(); // an iterator that failed is spent: resume anew
                    throw e;
                  }
                });
        if (next == null) {
          break;
        }
        continuation = next.getContinuationToken();
        page = next.getResults().iterator();
      }
    } catch (CosmosException e) {
      throw failure("sample", e);
    }
    return page.hasNext();
  }

  @Override
  public ObjectNode next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    taken++;
    return page.next();
  }

  private IllegalStateException failure(String what, CosmosException e) {
    return failure(what, e, "");
  }

  private IllegalStateException failure(String what, CosmosException e, String after) {
    return new IllegalStateException(
        "cannot " + what + " " + name + ": " + SdkClients.reason(e) + serviceMessage(e) + after, e);
  }

  /** The service's own words, without the SDK's diagnostics. */
  private static String serviceMessage(CosmosException e) {
    String words = SdkClients.serviceWords(e);
    return words == null ? "" : " (" + words + ")";
  }

  @Override
  public void close() {
    if (ownsClient) {
      client.close();
    }
  }
}
