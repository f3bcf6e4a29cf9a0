package io.cosmolab.benchmarks;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.document.JsonTrees;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.ObjectName;

/**
 * What the in-memory engine keeps per stored document, in bytes and in objects (what the collector
 * copies, one by one, while a document is young: docs/benchmarks.md, "What a stored document
 * keeps"). The JVM's class histogram of live objects (the DiagnosticCommand MBean's {@code
 * gcClassHistogram}, which collects first) is taken before and after N creates into a container of
 * 2 physical partitions and K key values (10,000 unless given); the difference by class, divided by
 * N, is printed. N / K is the documents per logical partition: up to 64 are kept as one array, more
 * in chunks (LogicalDocuments), so 200,000 and 10,000 measure the first, 1,000,000 and 5,000 both.
 *
 * <pre>
 *   java -cp benchmarks.jar io.cosmolab.benchmarks.FootprintBench 200000 [10000]
 * </pre>
 *
 * Two document shapes: the JMH benchmarks' ({@code PointOperationsBenchmark.document}: built in
 * code, its 880-character filler one string shared by all), and the same ~1 KB document read from
 * JSON text as the gateway reads a request body, so that every string is its own.
 */
public final class FootprintBench {
  private static final Pattern ROW =
      Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)(?:\\s.*)?$");

  private FootprintBench() {}

  /** One class's live instances and bytes. */
  private record Count(long instances, long bytes) {}

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
    int keys = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
    if (n < 1 || keys < 1) {
      throw new IllegalArgumentException(
          "documents and keys must be at least 1: " + String.join(" ", args));
    }
    String filler = "x".repeat(870);
    System.out.printf(Locale.ROOT, "%,d documents over %,d key values%n", n, keys);
    measure(
        "built in code, shared filler (the JMH benchmarks')",
        n,
        i -> PointOperationsBenchmark.document("new" + i, Math.floorMod(i, keys)));
    measure(
        "read from JSON text, every string its own (as the gateway)",
        n,
        i ->
            parse(
                "{\"id\":\"new"
                    + i
                    + "\",\"pk\":\"key-"
                    + Math.floorMod(i, keys)
                    + "\",\"name\":\"benchmark document\",\"n\":"
                    + Math.floorMod(i, keys)
                    + ",\"payload\":\""
                    + filler
                    + i
                    + "\"}"));
  }

  private static ObjectNode parse(String json) {
    try {
      return (ObjectNode) JsonTrees.read(json);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void measure(String shape, int n, IntFunction<ObjectNode> document)
      throws Exception {
    Container c = PointOperationsBenchmark.container(2);
    c.create(document.apply(-1)); // the classes loaded and the first structures made
    Map<String, Count> before = histogram();
    Map<String, Count> after;
    try {
      for (int i = 0; i < n; i++) {
        c.create(document.apply(i));
      }
      after = histogram();
    } finally {
      java.lang.ref.Reference.reachabilityFence(c); // the documents stay live for the histogram
    }
    List<Map.Entry<String, Count>> grown = new ArrayList<>();
    long bytes = 0;
    long objects = 0;
    for (Map.Entry<String, Count> e : after.entrySet()) {
      Count was = before.getOrDefault(e.getKey(), new Count(0, 0));
      Count diff =
          new Count(e.getValue().instances() - was.instances(), e.getValue().bytes() - was.bytes());
      bytes += diff.bytes();
      objects += diff.instances();
      if (diff.bytes() > 0) {
        grown.add(Map.entry(e.getKey(), diff));
      }
    }
    grown.sort((a, b) -> Long.compare(b.getValue().bytes(), a.getValue().bytes()));
    System.out.printf(
        Locale.ROOT,
        "%s: %,d documents%n  per document: %,.0f bytes, %.1f objects%n",
        shape,
        n,
        bytes / (double) n,
        objects / (double) n);
    for (Map.Entry<String, Count> e : grown.subList(0, Math.min(14, grown.size()))) {
      System.out.printf(
          Locale.ROOT,
          "    %7.1f bytes %5.2f objects  %s%n",
          e.getValue().bytes() / (double) n,
          e.getValue().instances() / (double) n,
          e.getKey());
    }
  }

  /** Live objects by class, after a full collection (the histogram's own). */
  private static Map<String, Count> histogram() throws Exception {
    String text =
        (String)
            ManagementFactory.getPlatformMBeanServer()
                .invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"),
                    "gcClassHistogram",
                    new Object[] {null},
                    new String[] {String[].class.getName()});
    Map<String, Count> counts = new HashMap<>();
    for (String line : text.lines().toList()) {
      Matcher m = ROW.matcher(line);
      if (m.matches()) {
        counts.put(m.group(3), new Count(Long.parseLong(m.group(1)), Long.parseLong(m.group(2))));
      }
    }
    return counts;
  }
}
