package io.cosmolab.engine.document;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/** The object mapper, with default settings, is the oracle: same trees, same bytes. */
class JsonTreesTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Property(tries = 300)
  void write_producesTheMappersBytes(@ForAll long seed) throws Exception {
    JsonNode tree = DocumentShapeTest.randomTree(new Random(seed), 0);
    assertThat(JsonTrees.write(tree)).as("seed %d", seed).isEqualTo(MAPPER.writeValueAsBytes(tree));
  }

  @Property(tries = 300)
  void read_buildsTheMappersTree(@ForAll long seed) throws Exception {
    byte[] json = MAPPER.writeValueAsBytes(DocumentShapeTest.randomTree(new Random(seed), 0));
    JsonNode mine = JsonTrees.read(json);
    JsonNode theirs = MAPPER.readTree(json);
    assertThat(mine).as("seed %d", seed).isEqualTo(theirs);
    assertThat(JsonTrees.write(mine)).isEqualTo(json); // node classes too: ints stay ints
  }

  @Test
  void read_numbersTakeTheMappersNodeTypes() throws Exception {
    String json =
        "{\"i\":7,\"l\":9007199254740993,\"b\":123456789012345678901234567890,"
            + "\"d\":1.5,\"e\":1e300,\"neg\":-0.0,\"tiny\":4.9e-324}";
    JsonNode mine = JsonTrees.read(json);
    JsonNode theirs = MAPPER.readTree(json);
    assertThat(mine).isEqualTo(theirs);
    mine.properties()
        .forEach(
            e ->
                assertThat(e.getValue().getClass())
                    .as(e.getKey())
                    .isEqualTo(theirs.get(e.getKey()).getClass()));
  }

  @Test
  void read_keepsTheLastOfARepeatedProperty_asTheMapperDoes() throws Exception {
    String json = "{\"a\":1,\"b\":2,\"a\":{\"x\":[true,null]}}";
    assertThat(JsonTrees.read(json)).isEqualTo(MAPPER.readTree(json));
    assertThat(JsonTrees.read(json).get("a").get("x").size()).isEqualTo(2);
  }

  @Test
  void read_ofNothingIsMissing_andOfAScalarIsTheScalar() throws Exception {
    assertThat(JsonTrees.read("")).isSameAs(MissingNode.getInstance());
    assertThat(JsonTrees.read(" \n")).isEqualTo(MAPPER.readTree(" \n"));
    assertThat(JsonTrees.read("\"s\"")).isEqualTo(JsonNodeFactory.instance.textNode("s"));
    assertThat(JsonTrees.read("null")).isEqualTo(MAPPER.readTree("null"));
  }

  @Test
  void read_ignoresWhatFollowsTheFirstValue_asReadTreeDoes() throws Exception {
    assertThat(JsonTrees.read("{\"a\":1} trailing")).isEqualTo(MAPPER.readTree("{\"a\":1} x"));
  }

  @Test
  void read_failsNamingWhereTheTextStopsBeingJson() {
    assertThatThrownBy(() -> JsonTrees.read("{\"a\": tru}".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(JsonProcessingException.class)
        .satisfies(
            e -> {
              JsonProcessingException j = (JsonProcessingException) e;
              assertThat(j.getLocation().getLineNr()).isEqualTo(1);
              assertThat(j.getLocation().getColumnNr()).isGreaterThan(6);
            });
    assertThatThrownBy(() -> JsonTrees.read("[1,2")).isInstanceOf(JsonProcessingException.class);
    assertThatThrownBy(() -> JsonTrees.read("}")).isInstanceOf(JsonProcessingException.class);
  }

  @Test
  void read_refusesNestingPastTheParsersLimit() {
    String deep = "[".repeat(1500) + "]".repeat(1500);
    assertThatThrownBy(() -> JsonTrees.read(deep))
        .isInstanceOf(JsonProcessingException.class)
        .hasMessageContaining("nesting depth");
  }

  @Test
  void write_fallsBackToTheMapperForJavaObjects() throws Exception {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.putPOJO("when", java.util.List.of(1, "two"));
    o.put("bytes", new byte[] {1, 2, 3});
    assertThat(JsonTrees.write(o)).isEqualTo(MAPPER.writeValueAsBytes(o));
  }
}
