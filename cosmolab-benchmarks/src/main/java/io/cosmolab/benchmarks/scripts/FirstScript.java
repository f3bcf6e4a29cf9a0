package io.cosmolab.benchmarks.scripts;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.script.ScriptKind;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The JavaScript engine's start-up cost in a new JVM: the first stored procedure (the runtime found
 * by ServiceLoader, GraalJS's engine built, the first context, the first parse), then the second
 * and the tenth, and the heap and resident memory before and after. Run once per JVM:
 *
 * <pre>{@code java -cp cosmolab-benchmarks/target/benchmarks.jar \
 *     io.cosmolab.benchmarks.scripts.FirstScript}</pre>
 *
 * Prints one line of {@code name=value} pairs.
 */
public final class FirstScript {
  private FirstScript() {}

  public static void main(String[] args) throws Exception {
    var nodes = JsonNodeFactory.instance;
    long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
    CosmosEngine engine = CosmosEngine.builder().build();
    Container c =
        engine
            .createDatabase("b")
            .createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk")));
    c.scripts()
        .create(
            ScriptKind.STORED_PROCEDURE,
            nodes.objectNode().put("id", "bulk").put("body", ScriptBench.BULK_IMPORT));
    long heapBefore = usedHeap();
    long rssBefore = rssKb();
    long engineReadyMillis = System.currentTimeMillis() - jvmStart;
    double[] ms = new double[10];
    for (int i = 0; i < ms.length; i++) {
      var docs = nodes.arrayNode();
      for (int d = 0; d < 10; d++) {
        docs.add(nodes.objectNode().put("id", "d" + d).put("pk", "p" + i));
      }
      long t = System.nanoTime();
      c.executeStoredProcedure(
          PartitionKeyValue.of("p" + i), "bulk", nodes.arrayNode().add(docs), false);
      ms[i] = (System.nanoTime() - t) / 1e6;
    }
    long heapAfter = usedHeap();
    long rssAfter = rssKb();
    System.out.printf(
        Locale.ROOT,
        "engineReadyMs=%d firstScriptMs=%.1f secondMs=%.1f tenthMs=%.1f heapBeforeMb=%.1f"
            + " heapAfterMb=%.1f rssBeforeMb=%.1f rssAfterMb=%.1f%n",
        engineReadyMillis,
        ms[0],
        ms[1],
        ms[9],
        heapBefore / 1048576.0,
        heapAfter / 1048576.0,
        rssBefore / 1024.0,
        rssAfter / 1024.0);
    engine.close();
  }

  private static long usedHeap() {
    System.gc();
    Runtime r = Runtime.getRuntime();
    return r.totalMemory() - r.freeMemory();
  }

  private static long rssKb() throws Exception {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("\\D", ""));
      }
    }
    return -1;
  }
}
