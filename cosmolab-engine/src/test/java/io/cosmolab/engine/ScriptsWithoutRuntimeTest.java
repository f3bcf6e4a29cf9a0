package io.cosmolab.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.script.ScriptHost;
import io.cosmolab.engine.script.ScriptKind;
import io.cosmolab.engine.script.ScriptRuntime;
import io.cosmolab.engine.script.ScriptSource;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Scripts on an engine with no JavaScript runtime (none on this module's class path) are refused,
 * saying what to add, and never skipped; and a runtime given to the builder sees the transaction.
 */
class ScriptsWithoutRuntimeTest {
  static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  static final PartitionKeyValue A = PartitionKeyValue.of("a");

  static Container container(CosmosEngine engine) {
    Container c =
        engine
            .createDatabase("db")
            .createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk")));
    c.scripts()
        .create(
            ScriptKind.STORED_PROCEDURE,
            NODES.objectNode().put("id", "sp").put("body", "function () {}"));
    c.scripts()
        .create(
            ScriptKind.TRIGGER,
            NODES
                .objectNode()
                .put("id", "t")
                .put("body", "function () {}")
                .put("triggerType", "Pre")
                .put("triggerOperation", "All"));
    c.scripts()
        .create(
            ScriptKind.USER_DEFINED_FUNCTION,
            NODES.objectNode().put("id", "f").put("body", "function (x) { return x; }"));
    return c;
  }

  static ObjectNode doc(String id) {
    return NODES.objectNode().put("id", id).put("pk", "a");
  }

  @Test
  void everyScript_withoutARuntime_answers501NamingTheModule() {
    try (CosmosEngine engine = CosmosEngine.builder().build()) {
      Container c = container(engine);
      assertThatThrownBy(() -> c.executeStoredProcedure(A, "sp", null, false))
          .isInstanceOfSatisfying(
              CosmosException.class,
              e -> {
                assertThat(e.error()).isEqualTo(CosmosError.NOT_SUPPORTED);
                assertThat(e.getMessage())
                    .contains("stored procedure 'sp'")
                    .contains("io.cosmolab:cosmolab-scripts");
              });
      ItemOptions withTrigger = ItemOptions.NONE.withTriggers(List.of("t"), List.of());
      assertThatThrownBy(() -> c.create(A, doc("x"), withTrigger))
          .isInstanceOfSatisfying(
              CosmosException.class, e -> assertThat(e.status()).isEqualTo(501));
      assertThat(c.documentCount()).isZero(); // not written as if the trigger had run
      c.create(doc("y"));
      assertThatThrownBy(() -> c.query(QueryRequest.of("SELECT VALUE udf.f(c.id) FROM c")))
          .isInstanceOfSatisfying(
              CosmosException.class, e -> assertThat(e.getMessage()).contains("cosmolab-scripts"));
    }
  }

  /** A runtime in Java: what the engine hands a script, and that a throw rolls back. */
  static final class JavaRuntime implements ScriptRuntime {
    @Override
    public void runStoredProcedure(ScriptSource procedure, JsonNode parameters, ScriptHost host) {
      host.create(doc("one"), false);
      host.create(doc("two"), false);
      if (parameters.path(0).asBoolean()) {
        throw CosmosError.SCRIPT_ERROR.exception("asked to fail");
      }
      host.setResponseBody(NODES.numberNode(host.readAll(-1, null).documents().size()));
    }

    @Override
    public void runTrigger(ScriptSource trigger, ScriptHost host) {
      ((ObjectNode) host.requestBody()).put("by", trigger.id());
    }

    @Override
    public FunctionScope openFunctions() {
      return (function, arguments) ->
          NODES.textNode(function.id() + ":" + arguments.get(0).asText());
    }

    @Override
    public String description() {
      return "java";
    }
  }

  @Test
  void aGivenRuntime_runsInOneTransaction_andAThrowRollsItBack() {
    try (CosmosEngine engine = CosmosEngine.builder().scriptRuntime(new JavaRuntime()).build()) {
      Container c = container(engine);
      JsonNode fail = NODES.arrayNode().add(true);
      assertThatThrownBy(() -> c.executeStoredProcedure(A, "sp", fail, false))
          .isInstanceOfSatisfying(
              CosmosException.class, e -> assertThat(e.status()).isEqualTo(400));
      assertThat(c.documentCount()).isZero();
      ScriptResponse r = c.executeStoredProcedure(A, "sp", NODES.arrayNode().add(false), false);
      assertThat(r.body().asInt()).isEqualTo(2);
      assertThat(c.documentCount()).isEqualTo(2);
      c.create(A, doc("x"), ItemOptions.NONE.withTriggers(List.of("t"), List.of()));
      assertThat(c.read(A, "x").document().path("by").asText()).isEqualTo("t");
      assertThat(
              c.query(QueryRequest.of("SELECT VALUE udf.f(c.id) FROM c WHERE c.id = 'x'")).rows())
          .extracting(JsonNode::asText)
          .containsExactly("f:x");
    }
  }
}
