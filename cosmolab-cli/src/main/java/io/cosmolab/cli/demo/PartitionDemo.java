package io.cosmolab.cli.demo;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.metrics.LogicalPartitionStats;
import io.cosmolab.engine.metrics.PartitionEvent;
import io.cosmolab.engine.metrics.PartitionMetrics;
import io.cosmolab.engine.metrics.PartitionStats;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKind;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.engine.time.ManualClock;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * A multi-tenant session store on the engine, in virtual time: documents keyed by tenant, user and
 * session are written at a steady rate, one VIP tenant owns a large share of them and is read hard,
 * and the container's physical partitions are printed with what each stored and served.
 *
 * <p>The run is deterministic for a seed: time is a {@link ManualClock} advanced per operation.
 */
public final class PartitionDemo {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /**
   * What to run.
   *
   * @param documents documents to write
   * @param keyPaths 1 path (Hash V2) or 2–3 (hierarchical MultiHash)
   * @param throughput the container's throughput
   * @param partitions physical partitions to start with, or null for the throughput rule
   * @param scale the scale model's factor
   * @param throttling enforce, observe or off
   * @param tenants tenants besides the VIP
   * @param vipShare the VIP tenant's share of the documents and of the reads
   * @param documentBytes approximate size of each document
   * @param writesPerSecond virtual-time write rate
   * @param readsPerSecond virtual-time read rate after the load, for {@code readSeconds}
   * @param readSeconds how long the read phase lasts
   * @param seed the random seed
   */
  public record Options(
      int documents,
      List<String> keyPaths,
      Throughput throughput,
      Integer partitions,
      double scale,
      ThrottlingMode throttling,
      int tenants,
      double vipShare,
      int documentBytes,
      int writesPerSecond,
      int readsPerSecond,
      int readSeconds,
      long seed) {
    public Options {
      keyPaths = List.copyOf(keyPaths);
      require(documents >= 0, "--docs must be >= 0, was %d", documents);
      require(tenants >= 1, "--tenants must be >= 1, was %d", tenants);
      require(vipShare >= 0 && vipShare <= 1, "--vip-share must be in [0, 1], was %s", vipShare);
      require(documentBytes >= 100, "--doc-size must be >= 100 bytes, was %d", documentBytes);
      require(writesPerSecond >= 1, "--write-rate must be >= 1, was %d", writesPerSecond);
      require(readsPerSecond >= 0, "--read-rate must be >= 0, was %d", readsPerSecond);
      require(readSeconds >= 0, "--read-seconds must be >= 0, was %d", readSeconds);
      require(
          keyPaths.size() >= 1 && keyPaths.size() <= 3,
          "--key takes 1 to 3 paths, got %d",
          keyPaths.size());
    }

    private static void require(boolean ok, String format, Object... args) {
      if (!ok) {
        throw new IllegalArgumentException(String.format(Locale.ROOT, format, args));
      }
    }
  }

  /** What a run did. */
  public record Result(
      Container container,
      long startSecond,
      long endSecond,
      int written,
      int writesThrottled,
      int reads,
      int readsThrottled,
      double writeRu,
      double readRu) {}

  private PartitionDemo() {}

  public static Result run(Options o) {
    ManualClock clock = ManualClock.startingAtEpoch2026();
    CosmosEngine engine =
        CosmosEngine.builder().clock(clock).throttling(o.throttling()).scale(o.scale()).build();
    PartitionKeyDefinition key =
        o.keyPaths().size() == 1
            ? PartitionKeyDefinition.hash(o.keyPaths().get(0))
            : new PartitionKeyDefinition(o.keyPaths(), PartitionKind.MULTI_HASH, 2);
    Container container =
        engine
            .createDatabase("demo")
            .createContainer(
                ContainerSettings.of("sessions", key)
                    .withThroughput(o.throughput())
                    .withPhysicalPartitions(o.partitions()));
    Random random = new Random(o.seed());
    long start = clock.millis() / 1000;
    long writeStart = clock.millis();
    int written = 0;
    int writesThrottled = 0;
    double writeRu = 0;
    List<ObjectNode> vipDocs = new ArrayList<>();
    String filler = "x".repeat(Math.max(0, o.documentBytes() - 260));
    for (int i = 0; i < o.documents(); i++) {
      ObjectNode doc = document(i, random, o, filler);
      try {
        writeRu += container.create(doc).requestCharge();
        written++;
        if (doc.get("tenantId").textValue().equals("vip") && vipDocs.size() < 100) {
          vipDocs.add(doc);
        }
      } catch (CosmosException e) {
        writesThrottled++;
      }
      pace(clock, writeStart, i + 1, o.writesPerSecond());
    }
    int reads = 0;
    int readsThrottled = 0;
    double readRu = 0;
    long readStart = clock.millis();
    long readOps = (long) o.readsPerSecond() * o.readSeconds();
    for (long r = 0; r < readOps && !vipDocs.isEmpty(); r++) {
      ObjectNode target =
          random.nextDouble() < o.vipShare()
              ? vipDocs.get(random.nextInt(vipDocs.size()))
              : document(random.nextInt(Math.max(1, o.documents())), new Random(r), o, "");
      try {
        readRu += container.read(key.extract(target), target.get("id").textValue()).requestCharge();
        reads++;
      } catch (CosmosException e) {
        if (e.status() == 429) {
          readsThrottled++;
        } else {
          reads++;
        }
      }
      pace(clock, readStart, r + 1, o.readsPerSecond());
    }
    return new Result(
        container,
        start,
        clock.millis() / 1000 + 1,
        written,
        writesThrottled,
        reads,
        readsThrottled,
        writeRu,
        readRu);
  }

  /** Moves virtual time to when operation {@code n} of a run at {@code rate}/s is due. */
  private static void pace(ManualClock clock, long startMillis, long n, int rate) {
    long due = startMillis + n * 1000L / rate;
    if (due > clock.millis()) {
      clock.advanceMillis(due - clock.millis());
    }
  }

  private static ObjectNode document(int i, Random random, Options o, String filler) {
    boolean vip = random.nextDouble() < o.vipShare();
    String tenant = vip ? "vip" : String.format(Locale.ROOT, "t%03d", random.nextInt(o.tenants()));
    ObjectNode d = NODES.objectNode();
    d.put("id", "s" + i);
    d.put("tenantId", tenant);
    d.put("userId", "u" + random.nextInt(vip ? 2_000 : 50));
    d.put("sessionId", "s" + i);
    d.put("createdAt", "2026-01-01T00:00:00Z");
    d.put("payload", filler);
    return d;
  }

  /** Prints the container's physical partitions and what they served. */
  public static void print(Result r, Options o, PrintWriter out) {
    Container c = r.container();
    PartitionKeyDefinition key = c.partitionKey();
    out.printf(
        Locale.ROOT,
        "container 'sessions' keyed by %s %s (hash V%d)%n",
        key.kind().wireName(),
        key.paths(),
        key.version());
    out.printf(
        Locale.ROOT,
        "throughput %s RU/s %s, %d physical partitions, scale %s, throttling %s%n",
        num(o.throughput().maxRuPerSecond()),
        o.throughput().kind(),
        c.routing().size(),
        num(o.scale()),
        o.throttling().name().toLowerCase(Locale.ROOT));
    out.printf(
        Locale.ROOT,
        "wrote %d documents (%d refused with 429) for %s RU; read %d (%d refused) for %s RU, in"
            + " %d s of virtual time%n%n",
        r.written(),
        r.writesThrottled(),
        num(r.writeRu()),
        r.reads(),
        r.readsThrottled(),
        num(r.readRu()),
        r.endSecond() - r.startSecond());
    out.printf(
        Locale.ROOT,
        "%-6s %-22s %8s %10s %12s %10s %7s %6s %8s%n",
        "range",
        "EPK range",
        "docs",
        "storage",
        "RU",
        "peak RU/s",
        "budget",
        "429s",
        "would-be");
    for (PartitionStats s : c.partitionStats()) {
      double peak = 0;
      for (PartitionMetrics.Second sec :
          c.partitionSeconds(s.id(), r.startSecond(), r.endSecond())) {
        peak = Math.max(peak, sec.ru());
      }
      out.printf(
          Locale.ROOT,
          "%-6s %-22s %8d %10s %12s %10s %6.0f%% %6d %8d%n",
          s.id(),
          shortRange(s.range().min(), s.range().max()),
          s.documents(),
          bytes(s.storageBytes()),
          num(s.totalRu()),
          num(peak),
          s.budgetRuPerSecond() == 0 ? 0.0 : 100 * peak / s.budgetRuPerSecond(),
          s.throttled(),
          s.wouldThrottle());
    }
    out.println();
    summarize(r, c, o, out);
    out.println();
    out.println("hottest logical partitions by RU (sketch estimate ± error):");
    for (LogicalPartitionStats s : c.hottestLogicalPartitions(5)) {
      out.printf(
          Locale.ROOT,
          "  %-40s range %-4s %12s RU ± %s%n",
          s.partitionKey(),
          s.rangeId(),
          num(s.value()),
          num(s.errorBound()));
    }
    out.println("largest logical partitions by storage:");
    for (LogicalPartitionStats s : c.largestLogicalPartitions(5)) {
      out.printf(
          Locale.ROOT,
          "  %-40s range %-4s %10s in %d documents%n",
          s.partitionKey(),
          s.rangeId(),
          bytes((long) s.value()),
          s.documents());
    }
    List<PartitionEvent> events = c.partitionEvents();
    out.println(events.isEmpty() ? "no splits or merges" : "layout changes:");
    for (PartitionEvent e : events) {
      out.printf(
          Locale.ROOT,
          "  %s %s -> %s%s: %s%n",
          e.kind().name().toLowerCase(Locale.ROOT),
          e.before(),
          e.after(),
          e.at() == null ? "" : " at " + e.at(),
          e.reason());
    }
  }

  /** The busiest second: how much of the container's RU/s was used, and how many 429s. */
  private static void summarize(Result r, Container c, Options o, PrintWriter out) {
    List<PartitionStats> stats = c.partitionStats();
    double provisioned = stats.stream().mapToDouble(PartitionStats::budgetRuPerSecond).sum();
    long busiest = r.startSecond();
    double busiestRu = -1;
    long busiestThrottles = 0;
    String hottest = "";
    for (long sec = r.startSecond(); sec < r.endSecond(); sec++) {
      double ru = 0;
      long throttles = 0;
      String hot = "";
      double hotRu = -1;
      for (PartitionStats s : stats) {
        PartitionMetrics.Second one = c.partitionSeconds(s.id(), sec, sec + 1).get(0);
        ru += one.ru();
        throttles += one.throttled() + one.wouldThrottle();
        if (one.ru() > hotRu) {
          hotRu = one.ru();
          hot = s.id();
        }
      }
      if (throttles > busiestThrottles || (throttles == busiestThrottles && ru > busiestRu)) {
        busiest = sec;
        busiestRu = ru;
        busiestThrottles = throttles;
        hottest = hot;
      }
    }
    out.printf(
        Locale.ROOT,
        "busiest second (t+%d s): the container used %.0f%% of its %s RU/s, %d requests %s 429,"
            + " partition %s the hottest%n",
        busiest - r.startSecond(),
        provisioned == 0 ? 0.0 : 100 * busiestRu / provisioned,
        num(provisioned),
        busiestThrottles,
        o.throttling() == ThrottlingMode.OBSERVE ? "would have got" : "got",
        hottest);
  }

  /** Reads a key path list like "/tenantId,/userId". */
  public static List<String> parsePaths(String text) {
    if (text.contains("+")) {
      throw new IllegalArgumentException(
          "--key "
              + text
              + ": a synthetic key (/a+/b) is for advise and migrate; demo keys its container by"
              + " paths, one, or 2-3 for a hierarchical key: /tenantId,/userId or /tenantId>/userId");
    }
    List<String> out = new ArrayList<>();
    // commas, or '>' as advise and migrate write a hierarchical key
    for (String p : text.split("[,>]", -1)) {
      String path = p.trim();
      if (!path.startsWith("/") || path.length() == 1) {
        throw new IllegalArgumentException(
            "--key "
                + text
                + ": '"
                + path
                + "' is not a path; give paths such as /tenantId, separated by ',' or '>'");
      }
      out.add(path);
    }
    if (out.size() > 3) {
      throw new IllegalArgumentException(
          "--key " + text + ": a hierarchical key has at most 3 paths, this has " + out.size());
    }
    return out;
  }

  private static String shortRange(String min, String max) {
    return abbreviate(min.isEmpty() ? "\"\"" : min) + ".." + abbreviate(max);
  }

  private static String abbreviate(String epk) {
    return epk.length() <= 8 ? epk : epk.substring(0, 8) + "…";
  }

  private static String num(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15
        ? String.format(Locale.ROOT, "%d", (long) v)
        : String.format(Locale.ROOT, "%.2f", v);
  }

  static String bytes(long b) {
    if (b < 1024) {
      return b + " B";
    }
    if (b < 1024 * 1024) {
      return String.format(Locale.ROOT, "%.1f KB", b / 1024.0);
    }
    if (b < 1024L * 1024 * 1024) {
      return String.format(Locale.ROOT, "%.1f MB", b / (1024.0 * 1024));
    }
    return String.format(Locale.ROOT, "%.2f GB", b / (1024.0 * 1024 * 1024));
  }
}
