package io.cosmolab.rehearsal.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.Database;
import io.cosmolab.engine.ItemOptions;
import io.cosmolab.engine.document.PatchOperation;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.engine.time.ManualClock;
import io.cosmolab.rehearsal.RehearsalReport;
import io.cosmolab.rehearsal.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.function.LongConsumer;

/**
 * Plays a scenario against the engine in virtual time and returns its report. One driver per run;
 * not thread-safe.
 */
/*
 * How and why.
 *
 * One engine, one manual clock, one container per candidate, created with the scenario's
 * throughput divided by the scale factor f on an engine whose limits are divided by f
 * (Limits' scale model): each simulated request and document stands for f real ones, and every
 * partition's budget, storage limit and the 20 GB logical limit shrink in proportion, so the
 * partitions fill and throttle as the full-size ones would. Request charges are the engine's own,
 * unscaled: a simulated 1 KB read still costs 1 RU against a budget of 6,000 / f.
 *
 * The documents the container holds at the start (the workload's documents / f) are created with
 * throttling off; then enforce mode is on and the clock is at the start.
 *
 * Time advances one virtual second at a time. At the start of second s the events due are applied,
 * and each operation sends rate × multiplier(s) / f requests that second (fractions carried), paced
 * evenly within it. Every request is generated once, by one seeded random, and sent to every
 * candidate, so the candidates see the same documents and the same requests; only what the
 * service answers differs. Sends, and retries after a 429 (the SDK's policy, SdkRetryPolicy), are
 * events in one priority queue ordered by (due time, sequence), so the clock only moves forward and
 * the run is the same for the same seed. At the end of each second each candidate's Recorder reads
 * the engine's per-partition metrics of that second. Requests still retrying at the end are run to
 * their end; their attempts count in the last step.
 */
public final class Driver {
  /** The most documents a rehearsal loads at the start (after scaling). */
  public static final long MAX_PRELOAD = 2_000_000;

  private final Scenario scenario;
  private final double scale;
  private final List<Candidate> candidates;
  private final ManualClock clock;
  private final CosmosEngine engine;
  private final List<Container> containers = new ArrayList<>();
  private final List<Recorder> recorders = new ArrayList<>();
  private final List<LatencyModel> latencies = new ArrayList<>();
  private final Traffic traffic;
  private final Documents docs;
  private final PriorityQueue<Attempt> queue = new PriorityQueue<>();
  private final long startMillis;
  private final long durationSeconds;
  private final int steps;
  private long seq;
  private long[] preloadRefused; // per candidate: documents of the start its container refused

  /** The next attempt of a request at one candidate. */
  private static final class Attempt implements Comparable<Attempt> {
    long due;
    long seq;
    final int candidate;
    final Traffic.Request request;
    int retries;
    long waited;
    double serviceMillis;

    Attempt(long due, long seq, int candidate, Traffic.Request request) {
      this.due = due;
      this.seq = seq;
      this.candidate = candidate;
      this.request = request;
    }

    @Override
    public int compareTo(Attempt o) {
      int c = Long.compare(due, o.due);
      return c != 0 ? c : Long.compare(seq, o.seq);
    }
  }

  public Driver(Scenario scenario) {
    this.scenario = scenario;
    this.scale = scenario.effectiveScale();
    this.candidates = scenario.candidates();
    this.startMillis = scenario.start().toEpochMilli();
    this.durationSeconds = scenario.duration().toSeconds();
    long stepSeconds = scenario.step().toSeconds();
    this.steps = (int) Math.max(1, (durationSeconds + stepSeconds - 1) / stepSeconds);
    this.clock = new ManualClock(scenario.start().minusSeconds(60));
    this.engine =
        CosmosEngine.builder()
            .clock(clock)
            .scale(scale)
            .burstCapacity(scenario.burstCapacity())
            .throttling(ThrottlingMode.OFF)
            .housekeeping(Runnable::run) // TTL deletions at the virtual moment: deterministic
            .build();
    this.traffic = new Traffic(scenario, scale);
    this.docs = traffic.docs();
    Database db = engine.createDatabase("rehearsal");
    Throughput t = scenario.throughput();
    Throughput scaled = t.withValue(t.maxRuPerSecond() / scale);
    for (int c = 0; c < candidates.size(); c++) {
      containers.add(
          db.createContainer(
              ContainerSettings.of("c" + c, candidates.get(c).definition())
                  .withThroughput(scaled)
                  .withIndexingPolicy(
                      scenario.indexingPolicy() == null
                          ? null
                          : io.cosmolab.engine.index.IndexingPolicy.fromJson(
                              scenario.indexingPolicy()))));
      latencies.add(new LatencyModel(scenario.client(), new Random(scenario.seed() * 31 + c + 1)));
    }
  }

  /** Runs the rehearsal; {@code progress} hears each virtual second as it ends. */
  public RehearsalReport run(LongConsumer progress) {
    preload();
    engine.setThrottling(ThrottlingMode.ENFORCE);
    clock.set(scenario.start());
    long startSecond = startMillis / 1000;
    for (Container c : containers) {
      recorders.add(
          new Recorder(
              new EnginePartitions(c),
              steps,
              scenario.step().toSeconds(),
              startSecond,
              scenario.phases().size()));
    }
    // the engine's alert rules (the scenario's, else the defaults) on the virtual clock: once a
    // step
    // (the rules read the engine's per-second series, so the cadence does not move a hot
    // partition's 5 minutes; other alerts are dated by the step that first sees them)
    io.cosmolab.engine.alerts.AlertEvaluator alerts =
        new io.cosmolab.engine.alerts.AlertEvaluator(
            engine,
            scenario.alertRules(),
            e -> {
              if (e.kind() == io.cosmolab.engine.alerts.AlertEvent.Kind.STARTED) {
                int c = containerIndex(e.alert().container());
                if (c >= 0) {
                  recorders.get(c).alertStarted(e.alert(), e.atMillis());
                }
              }
            });
    long stepSeconds = scenario.step().toSeconds();
    for (long s = 0; s < durationSeconds; s++) {
      long secondStarts = startMillis + s * 1000;
      if (clock.millis() < secondStarts) {
        clock.advanceMillis(secondStarts - clock.millis());
      }
      send(s);
      drain((startMillis + (s + 1) * 1000));
      for (Recorder r : recorders) {
        r.endSecond(s);
      }
      if ((s + 1) % stepSeconds == 0 || s + 1 == durationSeconds) {
        alerts.evaluate(clock.millis());
      }
      progress.accept(s + 1);
    }
    drain(Long.MAX_VALUE);
    for (Recorder r : recorders) {
      r.closeLatencyStep();
    }
    return Reports.build(
        RehearsalReport.ENGINE, null, scenario, scale, candidates, recorders, preloadRefused);
  }

  /** The candidate whose container has this id ("c" and its index), or -1. */
  private int containerIndex(String containerId) {
    for (int c = 0; c < containers.size(); c++) {
      if (containers.get(c).id().equals(containerId)) {
        return c;
      }
    }
    return -1;
  }

  private void preload() {
    preloadRefused = new long[containers.size()];
    long count = Math.round(scenario.documents() / scale);
    if (count > MAX_PRELOAD) {
      throw new IllegalArgumentException(
          String.format(
              java.util.Locale.ROOT,
              "scenario %s starts with %,d documents; at scale %s that is %,d simulated documents,"
                  + " more than the %,d a rehearsal loads: raise scale to at least %.0f",
              scenario.name(),
              scenario.documents(),
              Reports.number(scale),
              count,
              MAX_PRELOAD,
              Math.ceil(scenario.documents() / (double) MAX_PRELOAD)));
    }
    traffic.preload(
        count,
        (d, json) -> {
          for (int c = 0; c < containers.size(); c++) {
            try {
              containers.get(c).create(d.keys[c], docs.forCandidate(json, d, c));
            } catch (CosmosException e) {
              if (e.status() != 403) {
                throw e;
              }
              preloadRefused[c]++;
            }
          }
        });
  }

  /** Sends the requests of second {@code s} to every candidate. */
  private void send(long s) {
    int step = recorders.get(0).step(s);
    traffic.second(
        s,
        e -> {
          Throughput t = scenario.throughput().withValue(e.throughput() / scale);
          for (int c = 0; c < containers.size(); c++) {
            containers.get(c).replaceThroughput(t);
            recorders.get(c).refreshLayout(s);
          }
        },
        (due, r) -> {
          for (int c = 0; c < containers.size(); c++) {
            recorders.get(c).requests[step]++;
            recorders.get(c).phaseRequests[r.phase]++;
            queue.add(new Attempt(due, seq++, c, r));
          }
        });
  }

  /** Runs every attempt due before {@code until} (epoch millis), in order. */
  private void drain(long until) {
    while (!queue.isEmpty() && queue.peek().due < until) {
      Attempt a = queue.poll();
      long now = clock.millis();
      if (a.due > now) {
        clock.advanceMillis(a.due - now);
      }
      attempt(a);
    }
  }

  private void attempt(Attempt a) {
    int c = a.candidate;
    Traffic.Request r = a.request;
    Traffic.Op o = traffic.op(r);
    Recorder rec = recorders.get(c);
    long second = Math.max(0, (a.due - startMillis) / 1000);
    int step = rec.step(second);
    rec.attempts[step]++;
    a.serviceMillis += latencies.get(c).attemptMillis(o.write);
    try {
      execute(c, o, r);
      complete(rec, a, second);
    } catch (CosmosException e) {
      if (e.status() == 429) {
        rec.throttled[step]++;
        rec.phaseThrottled[r.phase]++;
        long delay =
            SdkRetryPolicy.delayMillis(
                scenario.client(), a.retries, a.waited, e.retryAfterMillis());
        if (delay < 0) {
          rec.failedThrottled++;
          fail(rec, a, second, step);
          return;
        }
        a.retries++;
        a.waited += delay;
        a.due += delay;
        a.seq = seq++;
        queue.add(a);
      } else if (e.status() == 403 && e.subStatus() == 1014) {
        rec.failedStorage++;
        fail(rec, a, second, step);
      } else if (e.status() == 404) {
        rec.notFound++;
        complete(rec, a, second);
      } else {
        rec.failedOther++;
        if (rec.firstOtherFailure == null) {
          rec.firstOtherFailure = e.status() + "/" + e.subStatus() + ": " + e.getMessage();
        }
        fail(rec, a, second, step);
      }
    }
  }

  private static void complete(Recorder rec, Attempt a, long second) {
    rec.complete(a.request.phase, second, micros(a));
  }

  private static void fail(Recorder rec, Attempt a, long second, int step) {
    rec.failed[step]++;
    rec.phaseFailed[a.request.phase]++;
    rec.complete(a.request.phase, second, micros(a));
  }

  private static long micros(Attempt a) {
    return Math.round((a.serviceMillis + a.waited) * 1000);
  }

  private void execute(int c, Traffic.Op o, Traffic.Request r) {
    Container container = containers.get(c);
    Documents.Doc d = r.doc;
    switch (o.op.type()) {
      case CREATE -> container.create(d.keys[c], docs.forCandidate(r.json, d, c));
      case UPSERT -> container.upsert(d.keys[c], docs.forCandidate(r.json, d, c), ItemOptions.NONE);
      case REPLACE -> container.replace(d.keys[c], d.id, docs.forCandidate(r.json, d, c));
      case PATCH -> {
        List<PatchOperation> set = new ArrayList<>();
        for (String path : o.changes) {
          JsonNode v =
              Candidate.Reader.scalarAt(
                  r.json,
                  io.cosmolab.engine.partitioning.PartitionKeyDefinition.segmentsOf(path)
                      .toArray(String[]::new));
          set.add(PatchOperation.set(path, v));
        }
        if (set.isEmpty()) {
          container.read(d.keys[c], d.id);
        } else {
          container.patch(d.keys[c], d.id, set);
        }
      }
      case DELETE -> container.delete(d.keys[c], d.id);
      case READ -> container.read(d.keys[c], d.id);
      case QUERY -> {
        QueryRequest q =
            QueryRequest.of(o.sql).withParameters(r.parameters).withMaxItemCount(o.rows);
        PartitionKeyValue key = QueryKeys.keyOf(candidates.get(c), r.fixedValues);
        container.query(key == null ? q : q.withPartitionKey(key));
      }
    }
  }
}
