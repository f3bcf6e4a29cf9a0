package io.cosmolab.benchmarks.paging;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.query.QueryPage;
import io.cosmolab.engine.query.QueryRequest;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * ORDER BY pages while the container is written: DOCUMENTS documents of about 1 KB on 4 physical
 * partitions, and a writer that creates new ones after the last in the order (about one every 0.2
 * ms, as a live application appends), while the query {@code SELECT c.id, c.n FROM c ORDER BY c.n}
 * reads PAGES pages of PAGE, ROUNDS times. Prints per round the wall time and the documents created
 * meanwhile.
 *
 * <pre>
 * java -cp cosmolab-benchmarks/target/benchmarks.jar io.cosmolab.benchmarks.paging.LivePagingBench \
 *     [DOCUMENTS=100000] [PAGE=1000] [PAGES=100] [ROUNDS=3]
 * </pre>
 */
public final class LivePagingBench {
  private LivePagingBench() {}

  public static void main(String[] args) throws InterruptedException {
    int documents = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    int page = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
    int pages = args.length > 2 ? Integer.parseInt(args[2]) : 100;
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    Container c = PagingBench.emptyContainer();
    String filler = "x".repeat(880);
    for (int i = 0; i < documents; i++) {
      c.create(
          JsonNodeFactory.instance
              .objectNode()
              .put("id", "d" + i)
              .put("pk", "k" + (i % 10_000))
              .put("n", i)
              .put("s", filler));
    }
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong created = new AtomicLong();
    Thread writer =
        new Thread(
            () -> {
              for (long i = 0; !stop.get(); i++) {
                c.create(
                    JsonNodeFactory.instance
                        .objectNode()
                        .put("id", "w" + i)
                        .put("pk", "k" + (i % 10_000))
                        .put("n", 1_000_000_000L + i)
                        .put("s", filler));
                created.incrementAndGet();
                try {
                  Thread.sleep(0, 200_000);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "writer");
    writer.start();
    try {
      for (int round = 1; round <= rounds; round++) {
        long t0 = System.nanoTime();
        long before = created.get();
        QueryRequest r =
            QueryRequest.of("SELECT c.id, c.n FROM c ORDER BY c.n").withMaxItemCount(page);
        int read = 0;
        long rows = 0;
        while (read < pages) {
          QueryPage p = c.query(r);
          read++;
          rows += p.rows().size();
          if (p.continuation() == null) {
            break;
          }
          r = r.withContinuation(p.continuation());
        }
        System.out.printf(
            Locale.ROOT,
            "round %d: %d pages, %d rows in %.2f s while %d documents were created%n",
            round,
            read,
            rows,
            (System.nanoTime() - t0) / 1e9,
            created.get() - before);
      }
    } finally {
      stop.set(true);
      writer.join();
    }
  }
}
