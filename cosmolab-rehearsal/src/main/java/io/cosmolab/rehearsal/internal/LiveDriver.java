package io.cosmolab.rehearsal.internal;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosDiagnostics;
import com.azure.cosmos.CosmosDiagnosticsContext;
import com.azure.cosmos.CosmosDiagnosticsRequestInfo;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.ThrottlingRetryOptions;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosItemResponse;
import com.azure.cosmos.models.CosmosPatchOperations;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedRange;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.input.SdkClients;
import io.cosmolab.advisor.input.SdkForms;
import io.cosmolab.advisor.workload.Operation;
import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.rehearsal.LiveOptions;
import io.cosmolab.rehearsal.RehearsalReport;
import io.cosmolab.rehearsal.Scenario;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * Plays a scenario against a live endpoint through the official Java SDK, in real time, and builds
 * the same report as {@link Driver} from what the responses measured. One driver per run.
 */
/*
 * How and why.
 *
 * The same Traffic as the virtual rehearsal, at a scale factor f chosen so that the peak, times
 * the candidates (each request goes to each candidate's container), stays under the rate cap. The
 * containers get the scenario's throughput / f, rounded up to what the service accepts (manual:
 * 400 and hundreds; autoscale: 1,000 and thousands). On a real account the partitions are full
 * size, so at f > 1 they are fewer and emptier than the full-size scenario's; a cosmolab endpoint
 * started with --scale f shrinks them in proportion and reaches the same layout (the report's
 * scale says which f was used).
 *
 * Second s of the scenario is wall second s of the run. Its requests are generated just before it
 * starts and each is sent at its own moment within it by a scheduled pool (synchronous SDK calls,
 * so the pool is sized for the latency: the cap / 10 threads, 32 to 256). The SDK's own throttle
 * retries are off: every 429 comes back here, is counted on its partition, and is retried after
 * the retry-after it carried, by SdkRetryPolicy, the same client model as the virtual run, so the
 * two runs give up on the same requests. A request's latency is measured from the moment it was
 * due to the end of its last attempt, retry waits included.
 *
 * Each attempt's charge is counted on its physical partition (MeasuredPartitions says how it is
 * found); the SDK's feed ranges are read again every 5 s and after each throughput change, so a
 * split shows in the heat map within 5 s of the SDK seeing it. The client-side counters go to the
 * Recorder as in the virtual run; the per-partition seconds are replayed into it at the end.
 *
 * Not measured live [A]: the storage of each logical partition (the report's largest logical
 * partition is the bytes of the documents this run wrote, as JSON, under each key), and the
 * engine's alert rules (a cosmolab endpoint evaluates them itself: /_explorer/api/alerts).
 */
public final class LiveDriver {
  private static final long LAYOUT_REFRESH_MILLIS = 5_000;

  private final Scenario scenario;
  private final LiveOptions options;
  private final double scale;
  private final List<Candidate> candidates;
  private final Traffic traffic;
  private final Documents docs;
  private final long startMillis;
  private final long durationSeconds;
  private final int steps;
  private final Object lock = new Object();
  private final List<CosmosContainer> containers = new ArrayList<>();
  private final List<io.cosmolab.engine.partitioning.PartitionKeyDefinition> definitions =
      new ArrayList<>();
  private final List<MeasuredPartitions> measured = new ArrayList<>();
  private final List<Recorder> recorders = new ArrayList<>();
  private final double[] throughput;
  private long[] preloadRefused;
  private long wallStartNanos;
  private final AtomicLong inFlight = new AtomicLong();

  public LiveDriver(Scenario scenario, LiveOptions options) {
    this.scenario = scenario;
    this.options = options;
    this.candidates = scenario.candidates();
    this.scale = scaleFor(scenario, options);
    this.traffic = new Traffic(scenario, scale);
    this.docs = traffic.docs();
    this.startMillis = scenario.start().toEpochMilli();
    this.durationSeconds = scenario.duration().toSeconds();
    long stepSeconds = scenario.step().toSeconds();
    this.steps = (int) Math.max(1, (durationSeconds + stepSeconds - 1) / stepSeconds);
    this.throughput = new double[candidates.size()];
  }

  /**
   * The scale factor: the stated one (refused if its peak is over the cap), or the smallest of 1,
   * 2, 5, 10, 20, 50, ... that brings the peak, times the candidates, under the cap.
   */
  static double scaleFor(Scenario scenario, LiveOptions options) {
    double peak = scenario.peakRequestsPerSecond() * scenario.candidates().size();
    double cap = options.maxRequestsPerSecond();
    if (options.scale() >= 1) {
      if (peak / options.scale() > cap * 1.000001) {
        throw new IllegalArgumentException(
            String.format(
                Locale.ROOT,
                "at scale %s the scenario's peak is %,.0f requests/s (%,.0f per candidate, %d"
                    + " candidates), above the cap of %,.0f/s: raise --max-rate or the scale",
                Reports.number(options.scale()),
                peak / options.scale(),
                peak / options.scale() / scenario.candidates().size(),
                scenario.candidates().size(),
                cap));
      }
      return options.scale();
    }
    return Scenario.roundScale(peak / cap);
  }

  /** Runs it; {@code progress} hears each second of the scenario as it ends. */
  public RehearsalReport run(LongConsumer progress) {
    int threads = (int) Math.max(32, Math.min(256, options.maxRequestsPerSecond() / 10));
    ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(threads);
    pool.setRemoveOnCancelPolicy(true);
    try (CosmosClient client = connect()) {
      RehearsalReport report;
      try {
        createContainers(client);
        preload(pool);
        long startSecond = startMillis / 1000;
        for (int c = 0; c < containers.size(); c++) {
          MeasuredPartitions m = measured.get(c);
          m.layout(0, feedRanges(c), throughput[c]);
          m.at(startSecond);
          recorders.add(
              new Recorder(
                  m, steps, scenario.step().toSeconds(), startSecond, scenario.phases().size()));
        }
        play(pool, progress);
        report = report();
      } catch (RuntimeException e) {
        pool.shutdownNow();
        for (String left : deleteContainers()) {
          e.addSuppressed(new IllegalStateException("not deleted: " + left));
        }
        throw e;
      }
      pool.shutdownNow();
      List<String> left = deleteContainers();
      if (!left.isEmpty()) {
        throw new IllegalStateException(
            "the rehearsal ran, but its containers could not be deleted: "
                + String.join("; ", left)
                + ". Delete them by hand, or run with --keep-containers");
      }
      return report;
    }
  }

  /**
   * Deletes the run's containers unless they are to be kept; what could not be deleted, as {@code
   * database/container (status)}. One already gone is not an error.
   */
  private List<String> deleteContainers() {
    List<String> left = new ArrayList<>();
    if (options.keepContainers()) {
      return left;
    }
    for (CosmosContainer c : containers) {
      try {
        c.delete();
      } catch (CosmosException e) {
        if (e.getStatusCode() != 404) {
          left.add(options.database() + "/" + c.getId() + " (" + e.getStatusCode() + ")");
        }
      }
    }
    return left;
  }

  private CosmosClient connect() {
    return SdkClients.connect(
        options.endpoint(),
        options.key(),
        SdkClients.Mode.of(options.direct()),
        b ->
            b.throttlingRetryOptions(
                    new ThrottlingRetryOptions().setMaxRetryAttemptsOnThrottledRequests(0))
                .contentResponseOnWriteEnabled(false));
  }

  private static String containerName(Scenario scenario, int c) {
    StringBuilder base = new StringBuilder();
    for (char ch : scenario.name().toCharArray()) {
      boolean plain =
          (ch >= 'a' && ch <= 'z')
              || (ch >= 'A' && ch <= 'Z')
              || (ch >= '0' && ch <= '9')
              || ch == '-'
              || ch == '_';
      base.append(plain ? ch : '-');
    }
    return (base.length() == 0 ? "rehearsal" : base.toString()) + "-c" + c;
  }

  private void createContainers(CosmosClient client) {
    client.createDatabaseIfNotExists(options.database());
    CosmosDatabase db = client.getDatabase(options.database());
    Throughput t = scenario.throughput();
    for (int c = 0; c < candidates.size(); c++) {
      String name = containerName(scenario, c);
      CosmosContainer existing = db.getContainer(name);
      boolean exists;
      try {
        existing.read();
        exists = true;
      } catch (CosmosException e) {
        if (e.getStatusCode() != 404) {
          throw e;
        }
        exists = false;
      }
      if (exists) {
        if (!options.replaceContainers()) {
          throw new IllegalStateException(
              "container "
                  + options.database()
                  + "/"
                  + name
                  + " already exists (an earlier run kept it?): delete it, or run with"
                  + " --replace-containers");
        }
        existing.delete();
      }
      io.cosmolab.engine.partitioning.PartitionKeyDefinition def = candidates.get(c).definition();
      throughput[c] = provisionable(t.maxRuPerSecond() / scale);
      CosmosContainerProperties props =
          new CosmosContainerProperties(name, SdkForms.definition(def));
      if (scenario.indexingPolicy() != null) {
        props.setIndexingPolicy(SdkForms.indexingPolicy(scenario.indexingPolicy()));
      }
      db.createContainer(props, properties(throughput[c]));
      CosmosContainer container = db.getContainer(name);
      containers.add(container);
      definitions.add(def);
      measured.add(new MeasuredPartitions(startMillis / 1000, (int) durationSeconds));
      measured.get(c).layout(0, feedRanges(c), throughput[c]);
    }
  }

  private List<EpkRange> feedRanges(int c) {
    List<EpkRange> out = new ArrayList<>();
    for (FeedRange r : containers.get(c).getFeedRanges()) {
      out.add(SdkForms.rangeOf(r));
    }
    return out;
  }

  /** The documents of the start, at the cap's pace, each to every container. */
  private void preload(ScheduledThreadPoolExecutor pool) {
    preloadRefused = new long[containers.size()];
    long count = Math.round(scenario.documents() / scale);
    if (count > Driver.MAX_PRELOAD) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT,
              "the scenario starts with %,d simulated documents at scale %s, more than the %,d a"
                  + " rehearsal loads: raise the scale",
              count,
              Reports.number(scale),
              Driver.MAX_PRELOAD));
    }
    long perRequestNanos = (long) (1e9 / options.maxRequestsPerSecond());
    long start = System.nanoTime();
    List<Runnable> writes = new ArrayList<>();
    traffic.preload(
        count,
        (d, json) -> {
          for (int c = 0; c < containers.size(); c++) {
            int candidate = c;
            ObjectNode body = docs.forCandidate(json, d, c);
            writes.add(() -> preloadOne(candidate, d, body));
          }
        });
    CountDownLatch done = new CountDownLatch(writes.size());
    for (int i = 0; i < writes.size(); i++) {
      Runnable w = writes.get(i);
      long at = start + i * perRequestNanos;
      java.util.concurrent.Future<?> unused =
          pool.schedule(
              () -> {
                try {
                  w.run();
                } finally {
                  done.countDown();
                }
              },
              Math.max(0, at - System.nanoTime()),
              TimeUnit.NANOSECONDS);
    }
    await(done);
  }

  private void preloadOne(int c, Documents.Doc d, ObjectNode body) {
    PartitionKey key = SdkForms.partitionKey(d.keys[c].toJson());
    for (int attempt = 0; ; attempt++) {
      try {
        CosmosItemResponse<ObjectNode> r = containers.get(c).createItem(body, key, null);
        synchronized (lock) {
          EpkRange range = rangeOfKey(c, d.keys[c]);
          measured.get(c).learn(range, rangeIdOf(r.getDiagnostics()));
          measured.get(c).logical(d.keys[c].toJson().toString(), 0, bytes(body));
        }
        return;
      } catch (CosmosException e) {
        if (e.getStatusCode() == 429 && attempt < 100) {
          sleep(e.getRetryAfterDuration());
        } else if (e.getStatusCode() == 403) {
          synchronized (lock) {
            preloadRefused[c]++;
          }
          return;
        } else if (e.getStatusCode() == 409) {
          return;
        } else {
          throw e;
        }
      }
    }
  }

  private void play(ScheduledThreadPoolExecutor pool, LongConsumer progress) {
    wallStartNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
    long lastLayout = 0;
    for (long s = 0; s < durationSeconds; s++) {
      long second = s;
      // generated a little before the second starts, so each request goes out at its moment
      sleepUntil(wallStartNanos + TimeUnit.SECONDS.toNanos(s) - TimeUnit.MILLISECONDS.toNanos(200));
      int step;
      synchronized (lock) {
        step = recorders.get(0).step(s);
      }
      traffic.second(
          s,
          e -> {
            for (int c = 0; c < containers.size(); c++) {
              int candidate = c;
              double t = e.throughput() / scale;
              pool.execute(() -> replaceThroughput(candidate, second, t));
            }
          },
          (due, r) -> {
            synchronized (lock) {
              for (Recorder rec : recorders) {
                rec.requests[step]++;
                rec.phaseRequests[r.phase]++;
              }
            }
            for (int c = 0; c < containers.size(); c++) {
              Attempt a = new Attempt(c, r, wallOf(due));
              schedule(pool, a, a.firstDueNanos);
            }
          });
      if ((s * 1000) - lastLayout >= LAYOUT_REFRESH_MILLIS) {
        lastLayout = s * 1000;
        pool.execute(
            () -> {
              for (int c = 0; c < containers.size(); c++) {
                try {
                  List<EpkRange> ranges = feedRanges(c);
                  synchronized (lock) {
                    measured.get(c).layout(second, ranges, throughput[c]);
                  }
                } catch (CosmosException e) {
                  // read again in 5 s
                }
              }
            });
      }
      if (s > 0) {
        progress.accept(s);
      }
    }
    sleepUntil(wallStartNanos + TimeUnit.SECONDS.toNanos(durationSeconds));
    progress.accept(durationSeconds);
    // requests still retrying run to their end: at most the client's longest wait
    long deadline =
        System.nanoTime() + scenario.client().maxRetryWait().toNanos() + 10_000_000_000L;
    while (inFlight.get() > 0 && System.nanoTime() < deadline) {
      sleep(Duration.ofMillis(20));
    }
  }

  private boolean autoscale() {
    return scenario.throughput() instanceof Throughput.Autoscale;
  }

  /**
   * {@code scaled} RU/s rounded up to what the service provisions: manual at least 400 and in
   * hundreds, autoscale's maximum at least 1,000 and in thousands.
   */
  private double provisionable(double scaled) {
    return autoscale()
        ? Math.max(1000, Math.ceil(scaled / 1000) * 1000)
        : Math.max(400, Math.ceil(scaled / 100) * 100);
  }

  private ThroughputProperties properties(double value) {
    return autoscale()
        ? ThroughputProperties.createAutoscaledThroughput((int) value)
        : ThroughputProperties.createManualThroughput((int) value);
  }

  private void replaceThroughput(int c, long second, double scaled) {
    double value = provisionable(scaled);
    try {
      containers.get(c).replaceThroughput(properties(value));
      List<EpkRange> ranges = feedRanges(c);
      synchronized (lock) {
        throughput[c] = value;
        measured.get(c).layout(second, ranges, value);
      }
    } catch (CosmosException e) {
      synchronized (lock) {
        Recorder rec = recorders.get(c);
        if (rec.firstOtherFailure == null) {
          rec.firstOtherFailure =
              "throughput change to " + (long) value + " RU/s refused: " + e.getStatusCode();
        }
      }
    }
  }

  /** One request at one candidate, through its attempts. */
  private static final class Attempt {
    final int candidate;
    final Traffic.Request request;
    final long firstDueNanos;
    int retries;
    long waitedMillis;

    Attempt(int candidate, Traffic.Request request, long firstDueNanos) {
      this.candidate = candidate;
      this.request = request;
      this.firstDueNanos = firstDueNanos;
    }
  }

  private long wallOf(long dueEpochMillis) {
    return wallStartNanos + TimeUnit.MILLISECONDS.toNanos(dueEpochMillis - startMillis);
  }

  private long secondOf(long nanos) {
    return Math.max(0, (nanos - wallStartNanos) / 1_000_000_000L);
  }

  private void schedule(ScheduledThreadPoolExecutor pool, Attempt a, long atNanos) {
    inFlight.incrementAndGet();
    java.util.concurrent.Future<?> unused =
        pool.schedule(
            () -> {
              try {
                attempt(pool, a);
              } finally {
                inFlight.decrementAndGet();
              }
            },
            Math.max(0, atNanos - System.nanoTime()),
            TimeUnit.NANOSECONDS);
  }

  private void attempt(ScheduledThreadPoolExecutor pool, Attempt a) {
    int c = a.candidate;
    Traffic.Request r = a.request;
    Traffic.Op o = traffic.op(r);
    long now = System.nanoTime();
    long second = secondOf(now);
    synchronized (lock) {
      recorders.get(c).attempts[recorders.get(c).step(second)]++;
    }
    try {
      Outcome out = execute(c, o, r);
      synchronized (lock) {
        record(c, r, second, out.charge, out.rangeIds, false);
        complete(a, second);
      }
    } catch (CosmosException e) {
      synchronized (lock) {
        record(
            c,
            r,
            second,
            e.getRequestCharge(),
            rangeIdsOf(e.getDiagnostics()),
            e.getStatusCode() == 429);
        Recorder rec = recorders.get(c);
        int step = rec.step(second);
        if (e.getStatusCode() == 429) {
          rec.throttled[step]++;
          rec.phaseThrottled[r.phase]++;
          long delay =
              SdkRetryPolicy.delayMillis(
                  scenario.client(),
                  a.retries,
                  a.waitedMillis,
                  e.getRetryAfterDuration() == null ? 0 : e.getRetryAfterDuration().toMillis());
          if (delay < 0) {
            rec.failedThrottled++;
            fail(a, second);
          } else {
            a.retries++;
            a.waitedMillis += delay;
            schedule(pool, a, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delay));
          }
        } else if (e.getStatusCode() == 403 && e.getSubStatusCode() == 1014) {
          rec.failedStorage++;
          fail(a, second);
        } else if (e.getStatusCode() == 404) {
          rec.notFound++;
          complete(a, second);
        } else {
          rec.failedOther++;
          if (rec.firstOtherFailure == null) {
            rec.firstOtherFailure =
                e.getStatusCode() + "/" + e.getSubStatusCode() + ": " + firstLine(e.getMessage());
          }
          fail(a, second);
        }
      }
    } catch (RuntimeException e) {
      synchronized (lock) {
        Recorder rec = recorders.get(c);
        rec.failedOther++;
        if (rec.firstOtherFailure == null) {
          rec.firstOtherFailure = e.getClass().getSimpleName() + ": " + firstLine(e.getMessage());
        }
        fail(a, second);
      }
    }
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "";
    }
    int nl = message.indexOf('\n');
    String line = nl < 0 ? message : message.substring(0, nl);
    return line.length() > 300 ? line.substring(0, 300) + "…" : line;
  }

  /** Charges an attempt to its partition(s) and its logical partition. Under the lock. */
  private void record(
      int c,
      Traffic.Request r,
      long second,
      double charge,
      List<String> rangeIds,
      boolean throttled) {
    MeasuredPartitions m = measured.get(c);
    Documents.Doc d = r.doc;
    if (d != null) {
      EpkRange range = rangeOfKey(c, d.keys[c]);
      if (!rangeIds.isEmpty() && !throttled) {
        m.learn(range, rangeIds.get(0));
      }
      m.served(second, range, null, charge, throttled);
      Traffic.Op o = traffic.op(r);
      String key = d.keys[c].toJson().toString();
      double written = 0;
      if (!throttled && r.json != null) {
        written = bytes(docs.forCandidate(r.json, d, c));
      }
      m.logical(key, charge, written);
      if (!throttled && o.op.type() == Operation.Type.DELETE) {
        m.removed(key, bytes(docs.json(d)));
      }
      return;
    }
    // a query: its pages, each on the partition it names; the charge split evenly among them [A]
    if (rangeIds.isEmpty()) {
      m.served(second, m.current().get(0), null, charge, throttled);
      return;
    }
    for (String id : rangeIds) {
      m.served(second, null, id, charge / rangeIds.size(), throttled);
    }
  }

  private static double bytes(ObjectNode json) {
    return json.toString().getBytes(StandardCharsets.UTF_8).length;
  }

  private EpkRange rangeOfKey(int c, PartitionKeyValue key) {
    return measured.get(c).rangeOf(EffectivePartitionKey.of(definitions.get(c), key));
  }

  private void complete(Attempt a, long second) {
    recorders.get(a.candidate).complete(a.request.phase, second, micros(a));
  }

  private void fail(Attempt a, long second) {
    Recorder rec = recorders.get(a.candidate);
    int step = rec.step(second);
    rec.failed[step]++;
    rec.phaseFailed[a.request.phase]++;
    rec.complete(a.request.phase, second, micros(a));
  }

  private static long micros(Attempt a) {
    return Math.max(1, (System.nanoTime() - a.firstDueNanos) / 1000);
  }

  /** What a successful attempt cost, and the partitions its responses named. */
  private record Outcome(double charge, List<String> rangeIds) {}

  private Outcome execute(int c, Traffic.Op o, Traffic.Request r) {
    CosmosContainer container = containers.get(c);
    Documents.Doc d = r.doc;
    PartitionKey key = d == null ? null : SdkForms.partitionKey(d.keys[c].toJson());
    CosmosItemRequestOptions none = new CosmosItemRequestOptions();
    CosmosItemResponse<?> response =
        switch (o.op.type()) {
          case CREATE -> container.createItem(docs.forCandidate(r.json, d, c), key, none);
          case UPSERT -> container.upsertItem(docs.forCandidate(r.json, d, c), key, none);
          case REPLACE -> container.replaceItem(docs.forCandidate(r.json, d, c), d.id, key, none);
          case PATCH -> {
            if (o.changes.isEmpty()) {
              yield container.readItem(d.id, key, ObjectNode.class);
            }
            CosmosPatchOperations patch = CosmosPatchOperations.create();
            for (String path : o.changes) {
              JsonNode v =
                  Candidate.Reader.scalarAt(
                      r.json,
                      io.cosmolab.engine.partitioning.PartitionKeyDefinition.segmentsOf(path)
                          .toArray(String[]::new));
              patch.set(path, v);
            }
            yield container.patchItem(d.id, key, patch, ObjectNode.class);
          }
          case DELETE -> container.deleteItem(d.id, key, none);
          case READ -> container.readItem(d.id, key, ObjectNode.class);
          case QUERY -> null;
        };
    if (response != null) {
      return new Outcome(response.getRequestCharge(), rangeIdsOf(response.getDiagnostics()));
    }
    return query(c, o, r);
  }

  private Outcome query(int c, Traffic.Op o, Traffic.Request r) {
    List<SqlParameter> params = new ArrayList<>();
    for (Map.Entry<String, JsonNode> p : r.parameters.entrySet()) {
      params.add(new SqlParameter(p.getKey(), p.getValue()));
    }
    CosmosQueryRequestOptions options = new CosmosQueryRequestOptions();
    PartitionKeyValue key = QueryKeys.keyOf(candidates.get(c), r.fixedValues);
    if (key != null) {
      options.setPartitionKey(SdkForms.partitionKey(key.toJson()));
    }
    double charge = 0;
    List<String> ids = new ArrayList<>();
    int rows = 0;
    for (FeedResponse<JsonNode> page :
        containers
            .get(c)
            .queryItems(new SqlQuerySpec(o.sql, params), options, JsonNode.class)
            .iterableByPage(o.rows)) {
      charge += page.getRequestCharge();
      for (String id : rangeIdsOf(page.getCosmosDiagnostics())) {
        if (!ids.contains(id)) {
          ids.add(id);
        }
      }
      rows += page.getResults().size();
      if (rows >= o.rows) {
        break;
      }
    }
    return new Outcome(charge, ids);
  }

  /** The partition key range ids the SDK's diagnostics name, in order, without repeats. */
  static List<String> rangeIdsOf(CosmosDiagnostics diagnostics) {
    List<String> out = new ArrayList<>();
    if (diagnostics == null) {
      return out;
    }
    CosmosDiagnosticsContext context = diagnostics.getDiagnosticsContext();
    if (context == null) {
      return out;
    }
    for (CosmosDiagnosticsRequestInfo info : context.getRequestInfo()) {
      String id = info.getPartitionKeyRangeId();
      if (id != null && !id.isEmpty() && !out.contains(id)) {
        out.add(id);
      }
    }
    return out;
  }

  private static String rangeIdOf(CosmosDiagnostics diagnostics) {
    List<String> ids = rangeIdsOf(diagnostics);
    return ids.isEmpty() ? null : ids.get(0);
  }

  private RehearsalReport report() {
    long startSecond = startMillis / 1000;
    synchronized (lock) {
      for (int c = 0; c < recorders.size(); c++) {
        MeasuredPartitions m = measured.get(c);
        Recorder rec = recorders.get(c);
        for (long s = 0; s < durationSeconds; s++) {
          m.at(startSecond + s);
          rec.endSecond(s);
        }
        rec.closeLatencyStep();
      }
      return Reports.build(
          options.endpoint().toString(),
          options.direct() ? "direct" : "gateway",
          scenario,
          scale,
          candidates,
          recorders,
          preloadRefused);
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while loading the documents of the start", e);
    }
  }

  private static void sleep(Duration d) {
    try {
      long nanos = Math.max(1_000_000, d == null ? 0 : d.toNanos());
      Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private static void sleepUntil(long nanos) {
    long wait = nanos - System.nanoTime();
    if (wait > 0) {
      sleep(Duration.ofNanos(wait));
    }
  }
}
