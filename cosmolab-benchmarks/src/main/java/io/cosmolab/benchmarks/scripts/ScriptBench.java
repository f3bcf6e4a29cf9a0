package io.cosmolab.benchmarks.scripts;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.batch.BatchOperation;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.script.ScriptKind;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.scripts.GraalJsRuntime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * 100 creates of small documents in one logical partition, atomically: by the bulk-import stored
 * procedure of the official samples (one execution, 100 {@code createDocument} calls and their
 * callbacks), and by one transactional batch of 100 create operations. Each invocation writes into
 * a fresh logical partition, so neither meets a conflict; the engine is new per iteration so the
 * heap does not grow across iterations. Scores are executions per second: ×100 for documents.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ScriptBench {
  static final String BULK_IMPORT =
      """
      function bulkImport(docs) {
        var collection = getContext().getCollection();
        var count = 0;
        if (!docs.length) { getContext().getResponse().setBody(0); return; }
        tryCreate(docs[count], callback);
        function tryCreate(doc, cb) {
          if (!collection.createDocument(collection.getSelfLink(), doc, cb)) {
            getContext().getResponse().setBody(count);
          }
        }
        function callback(err) {
          if (err) throw err;
          count++;
          if (count >= docs.length) getContext().getResponse().setBody(count);
          else tryCreate(docs[count], callback);
        }
      }""";

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final GraalJsRuntime RUNTIME = new GraalJsRuntime();

  private CosmosEngine engine;
  private Container container;
  private long next;

  @Setup(Level.Iteration)
  public void setUp() {
    if (engine != null) {
      engine.close();
    }
    // a minute, not 5 s: the first executions in the JVM are interpreted cold, and a slow one
    // would stop at isAccepted's half-time and write fewer than 100
    engine =
        CosmosEngine.builder()
            .scriptRuntime(RUNTIME)
            .scriptLimits(
                io.cosmolab.engine.script.ScriptLimits.DEFAULT.withTimeout(
                    java.time.Duration.ofMinutes(1)))
            .throttling(ThrottlingMode.OFF)
            .build();
    container =
        engine
            .createDatabase("b")
            .createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk")));
    container
        .scripts()
        .create(
            ScriptKind.STORED_PROCEDURE,
            NODES.objectNode().put("id", "bulk").put("body", BULK_IMPORT));
  }

  private List<ObjectNode> documents(String pk) {
    List<ObjectNode> docs = new ArrayList<>(100);
    for (int i = 0; i < 100; i++) {
      docs.add(NODES.objectNode().put("id", "d" + i).put("pk", pk).put("n", i).put("s", "v" + i));
    }
    return docs;
  }

  @Benchmark
  public Object storedProcedure100Creates() {
    String pk = "p" + next++;
    ArrayNode docs = NODES.arrayNode().addAll(documents(pk));
    var r =
        container.executeStoredProcedure(
            PartitionKeyValue.of(pk), "bulk", NODES.arrayNode().add(docs), false);
    if (r.body().asInt() != 100) {
      throw new IllegalStateException("the procedure wrote " + r.body() + " of 100");
    }
    return r;
  }

  @Benchmark
  public Object batch100Creates() {
    String pk = "p" + next++;
    List<BatchOperation> ops = new ArrayList<>(100);
    for (ObjectNode d : documents(pk)) {
      ops.add(new BatchOperation.Create(d));
    }
    return container.executeBatch(PartitionKeyValue.of(pk), ops);
  }
}
