package io.cosmolab.benchmarks.paging;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.cost.CostModel;
import io.cosmolab.engine.document.DocumentShape;
import io.cosmolab.engine.index.IndexingPolicy;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.query.QueryPage;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import java.util.Locale;

/**
 * Pages through a container of DOCUMENTS documents of about 1 KB on 4 physical partitions, in pages
 * of PAGE, for each query shape (an ORDER BY of a key with many values and of one with three among
 * them, of each with the other as a second item, a composite index's, and of the first under a JOIN
 * making two rows of each document; a TOP and an OFFSET ... LIMIT without ORDER BY), or those whose
 * text contains MATCH, ROUNDS times, and prints per shape and round: the pages, the documents the
 * pages loaded in total, the request units in total and split into the per-partition base, the
 * reads of the returned rows and the loading (the rest), and the wall time.
 *
 * <pre>
 * java -cp cosmolab-benchmarks/target/benchmarks.jar io.cosmolab.benchmarks.paging.PagingBench \
 *     [DOCUMENTS=100000] [PAGE=1000] [ROUNDS=3] [MATCH]
 * </pre>
 *
 * One pass over the documents loads about 100,000 × 1.1 KB ≈ 110 MB, which the cost model charges
 * about 1,070 RU (10 RU per MB).
 */
public final class PagingBench {
  private PagingBench() {}

  private static final String[] QUERIES = {
    "SELECT * FROM c",
    "SELECT VALUE c.id FROM c WHERE c.n % 10 = 3",
    "SELECT c.id, c.n FROM c ORDER BY c.n",
    "SELECT c.id, c.status FROM c ORDER BY c.status",
    "SELECT c.id, c.n, c.status FROM c ORDER BY c.n, c.status",
    "SELECT c.id, c.status, c.n FROM c ORDER BY c.status, c.n",
    "SELECT c.id, t FROM c JOIN t IN c.tags ORDER BY c.n",
    "SELECT TOP 50000 c.id, c.n FROM c",
    "SELECT * FROM c OFFSET 50000 LIMIT 20000",
  };

  private static final String[] STATUSES = {"open", "closed", "on hold"};

  public static void main(String[] args) {
    int documents = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    int page = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    String match = args.length > 3 ? args[3] : "";
    Container c = load(documents);
    System.out.printf(
        Locale.ROOT,
        "%-45s %5s %6s %10s %9s %9s %9s %9s%n",
        "query",
        "round",
        "pages",
        "docs read",
        "RU total",
        "base",
        "reads",
        "loading");
    for (int round = 1; round <= rounds; round++) {
      for (String q : QUERIES) {
        if (q.contains(match)) {
          run(c, q, page, round);
        }
      }
    }
  }

  /** An empty container on 4 physical partitions, throttling off (the paging benchmarks'). */
  static Container emptyContainer() {
    return CosmosEngine.builder()
        .throttling(ThrottlingMode.OFF)
        .build()
        .createDatabase("bench")
        .createContainer(
            ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                .withThroughput(Throughput.manual(1_000_000))
                .withPhysicalPartitions(4)
                .withIndexingPolicy(
                    IndexingPolicy.DEFAULT
                        .withCompositeIndex(
                            new IndexingPolicy.CompositePath("/n", true),
                            new IndexingPolicy.CompositePath("/status", true))
                        .withCompositeIndex(
                            new IndexingPolicy.CompositePath("/status", true),
                            new IndexingPolicy.CompositePath("/n", true))));
  }

  private static Container load(int documents) {
    Container c = emptyContainer();
    String filler = "x".repeat(880);
    for (int i = 0; i < documents; i++) {
      ObjectNode d = JsonNodeFactory.instance.objectNode();
      d.put("id", "d" + i);
      d.put("pk", "k" + (i % 10_000));
      d.put("n", (i * 7919L) % 1_000_003);
      d.put("name", "paging item");
      d.put("status", STATUSES[i % STATUSES.length]); // few values: long runs of ties
      d.put("s", filler);
      d.putArray("tags").add("t" + (i % 3)).add("t" + (i % 5)); // two rows under a JOIN
      c.create(d);
    }
    return c;
  }

  private static void run(Container c, String text, int pageSize, int round) {
    long t0 = System.nanoTime();
    QueryRequest r = QueryRequest.of(text).withMaxItemCount(pageSize);
    int pages = 0;
    long loaded = 0;
    double ru = 0;
    double base = 0;
    double reads = 0;
    while (true) {
      QueryPage p = c.query(r);
      pages++;
      loaded += p.metrics().documentsLoaded();
      ru += p.requestCharge();
      base += 2.5 * p.metrics().partitionsTargeted();
      for (JsonNode row : p.rows()) {
        reads += CostModel.PUBLISHED.pointRead(DocumentShape.sizeOf(row), false);
      }
      if (p.continuation() == null) {
        break;
      }
      r = r.withContinuation(p.continuation());
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    System.out.printf(
        Locale.ROOT,
        "%-45s %5d %6d %10d %9.0f %9.0f %9.0f %9.0f   %.2f s%n",
        text,
        round,
        pages,
        loaded,
        ru,
        base,
        reads,
        ru - base - reads,
        seconds);
  }
}
