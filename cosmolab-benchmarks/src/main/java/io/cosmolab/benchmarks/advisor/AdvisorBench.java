package io.cosmolab.benchmarks.advisor;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.Advice;
import io.cosmolab.advisor.Advisor;
import io.cosmolab.advisor.AdvisorOptions;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.candidate.CandidateDiscovery;
import io.cosmolab.advisor.input.DocumentReader;
import io.cosmolab.engine.throughput.Throughput;
import java.io.BufferedWriter;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The advisor's throughput over a file of documents of about 1 KB.
 *
 * <pre>
 * AdvisorBench generate FILE COUNT          write COUNT documents of ~1 KB as JSON Lines
 * AdvisorBench run FILE CANDIDATES ROUNDS   rank CANDIDATES discovered keys, ROUNDS times
 * </pre>
 *
 * {@code -Dkeys=/a,/b>/c} names the candidates instead (then CANDIDATES caps how many).
 *
 * <p>Each round reads the whole file through {@link DocumentReader} and ranks the candidates; it
 * prints the wall time, MB/s, and the heap's peak (all heap pools, after a GC before the round).
 */
public final class AdvisorBench {
  private AdvisorBench() {}

  public static void main(String[] args) throws IOException {
    switch (args.length == 0 ? "" : args[0]) {
      case "generate" -> generate(Path.of(args[1]), Integer.parseInt(args[2]));
      case "run" -> run(Path.of(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]));
      default -> {
        System.err.println("usage: AdvisorBench generate FILE COUNT | run FILE CANDIDATES ROUNDS");
        System.exit(2);
      }
    }
  }

  /** Orders of a multi-tenant shop: 12 scalar fields, two nested, a padding of text. */
  static void generate(Path file, int count) throws IOException {
    Random r = new Random(7);
    String[] regions = {"eu-west", "eu-north", "us-east", "us-west", "ap-south", "ap-east"};
    String[] statuses = {"open", "paid", "shipped", "delivered", "returned"};
    StringBuilder pad = new StringBuilder();
    while (pad.length() < 2000) {
      pad.append("lorem ipsum dolor sit amet consectetur ");
    }
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (int i = 0; i < count; i++) {
        int tenant = r.nextDouble() < 0.2 ? 0 : 1 + r.nextInt(999);
        String line =
            String.format(
                Locale.ROOT,
                "{\"id\":\"o%d\",\"tenantId\":\"t%d\",\"userId\":\"t%d-u%d\",\"sessionId\":\"s%d\","
                    + "\"region\":\"%s\",\"status\":\"%s\",\"createdAt\":\"2026-%02d-%02dT%02d:%02d:00Z\","
                    + "\"amount\":%.2f,\"items\":%d,\"device\":{\"os\":\"os%d\",\"version\":%d},"
                    + "\"channel\":\"c%d\",\"notes\":\"%s\"}",
                i,
                tenant,
                tenant,
                r.nextInt(5000),
                i / 4,
                regions[r.nextInt(regions.length)],
                statuses[r.nextInt(statuses.length)],
                1 + i * 12L / count,
                1 + r.nextInt(28),
                r.nextInt(24),
                r.nextInt(60),
                r.nextDouble() * 500,
                1 + r.nextInt(9),
                r.nextInt(4),
                r.nextInt(30),
                r.nextInt(8),
                pad.substring(0, 600 + r.nextInt(200)));
        w.write(line);
        w.write('\n');
      }
    }
  }

  static void run(Path file, int candidates, int rounds) {
    List<ObjectNode> head = new ArrayList<>();
    try (DocumentReader reader = DocumentReader.open(file)) {
      while (head.size() < Advisor.DISCOVERY_SAMPLE && reader.hasNext()) {
        head.add(reader.next());
      }
    }
    List<Candidate> chosen = CandidateDiscovery.discover(head);
    if (System.getProperty("keys") != null) { // -Dkeys=/a,/b: these instead of discovered ones
      chosen = new ArrayList<>();
      for (String k : System.getProperty("keys").split(",", -1)) {
        chosen.add(Candidate.parse(k));
      }
    }
    chosen = chosen.subList(0, Math.min(candidates, chosen.size()));
    long bytes;
    try {
      bytes = Files.size(file);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    System.out.printf(
        Locale.ROOT,
        "%s: %.1f MB, %d candidates, %d processors, max heap %d MB%n",
        file,
        bytes / 1e6,
        chosen.size(),
        Runtime.getRuntime().availableProcessors(),
        Runtime.getRuntime().maxMemory() >> 20);
    double[] mbPerSecond = new double[rounds];
    for (int round = 0; round < rounds; round++) {
      System.gc();
      resetPeaks();
      long start = System.nanoTime();
      List<Advice> ranked;
      try (DocumentReader reader = DocumentReader.open(file)) {
        ranked = Advisor.analyze(reader, chosen, new AdvisorOptions(Throughput.manual(40_000), 0));
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      mbPerSecond[round] = bytes / 1e6 / seconds;
      System.out.printf(
          Locale.ROOT,
          "round %d: %.2f s, %.1f MB/s, heap peak %d MB, best %s%n",
          round + 1,
          seconds,
          mbPerSecond[round],
          heapPeak() >> 20,
          ranked.isEmpty() ? "-" : ranked.get(0).candidate());
    }
    Arrays.sort(mbPerSecond);
    System.out.printf(Locale.ROOT, "median %.1f MB/s%n", mbPerSecond[rounds / 2]);
  }

  private static void resetPeaks() {
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP) {
        p.resetPeakUsage();
      }
    }
  }

  private static long heapPeak() {
    long sum = 0;
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP) {
        sum += p.getPeakUsage().getUsed();
      }
    }
    return sum;
  }
}
