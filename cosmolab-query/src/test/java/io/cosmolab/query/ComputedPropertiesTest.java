package io.cosmolab.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cosmolab.query.exec.Executor;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Computed properties as the service documents them: read as stored, never returned by *. */
class ComputedPropertiesTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static ComputedProperties cps(String json) throws Exception {
    return ComputedProperties.fromJson(JSON.readTree(json));
  }

  private static List<JsonNode> run(ComputedProperties cps, String query, String... docs)
      throws Exception {
    List<Executor.Input> in = new ArrayList<>();
    for (String d : docs) {
      in.add(new Executor.Input(JSON.readTree(d), 0));
    }
    return CompiledQuery.compile(query, Map.of())
        .withComputedProperties(cps)
        .execute(in, Instant.EPOCH);
  }

  private static final String LOWER =
      "[{\"name\":\"cp_lower\",\"query\":\"SELECT VALUE LOWER(r.name) FROM root r\"}]";

  @Test
  void aComputedProperty_isReadInEveryClause_underTheQuerysOwnAlias() throws Exception {
    List<JsonNode> rows =
        run(
            cps(LOWER),
            "SELECT x.id, x.cp_lower AS l FROM x WHERE x['cp_lower'] = 'ab' ORDER BY x.cp_lower",
            "{\"id\":\"1\",\"name\":\"AB\"}",
            "{\"id\":\"2\",\"name\":\"cd\"}");
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).get("l").asText()).isEqualTo("ab");
  }

  @Test
  void anUnaliasedComputedProperty_isNamedAfterItself_asAStoredPropertyWouldBe() throws Exception {
    // The service names c.cp_lower "cp_lower"; only an expression with no name of its own is $1.
    assertThat(
            run(
                    cps(LOWER),
                    "SELECT c.cp_lower, c['cp_lower'] AS again, LOWER(c.name) FROM c",
                    "{\"id\":\"1\",\"name\":\"AB\"}")
                .get(0)
                .toString())
        .isEqualTo("{\"cp_lower\":\"ab\",\"again\":\"ab\",\"$1\":\"ab\"}");
  }

  @Test
  void selectStar_andTheWholeDocument_leaveComputedPropertiesOut() throws Exception {
    assertThat(
            run(cps(LOWER), "SELECT * FROM c", "{\"id\":\"1\",\"name\":\"AB\"}")
                .get(0)
                .has("cp_lower"))
        .isFalse();
    assertThat(
            run(cps(LOWER), "SELECT VALUE c FROM c", "{\"id\":\"1\",\"name\":\"AB\"}")
                .get(0)
                .has("cp_lower"))
        .isFalse();
  }

  @Test
  void aComputedProperty_winsOverAStoredOneOfTheSameName_outsideSelectStar() throws Exception {
    assertThat(
            run(
                cps(LOWER),
                "SELECT VALUE c.cp_lower FROM c",
                "{\"name\":\"AB\",\"cp_lower\":\"x\"}"))
        .extracting(JsonNode::asText)
        .containsExactly("ab");
  }

  @Test
  void aSubqueryThatRebindsTheAlias_readsItsOwnValues() throws Exception {
    List<JsonNode> rows =
        run(
            cps(LOWER),
            "SELECT VALUE ARRAY(SELECT VALUE c.cp_lower FROM c IN c.items) FROM c",
            "{\"name\":\"AB\",\"items\":[{\"cp_lower\":\"kept\"}]}");
    assertThat(rows.get(0).get(0).asText()).isEqualTo("kept");
  }

  @Test
  void definitionsTheServiceRefuses_areRefusedNamingWhy() {
    assertThatThrownBy(() -> cps("[{\"name\":\"id\",\"query\":\"SELECT VALUE 1 FROM c\"}]"))
        .hasMessageContaining("system property");
    assertThatThrownBy(() -> cps("[{\"name\":\"cp\",\"query\":\"SELECT c.a FROM c\"}]"))
        .hasMessageContaining("SELECT VALUE");
    assertThatThrownBy(
            () -> cps("[{\"name\":\"cp\",\"query\":\"SELECT VALUE c.a FROM c WHERE c.a > 1\"}]"))
        .hasMessageContaining("WHERE");
    assertThatThrownBy(
            () -> cps("[{\"name\":\"cp\",\"query\":\"SELECT VALUE t FROM c JOIN t IN c.tags\"}]"))
        .hasMessageContaining("no JOIN");
    assertThatThrownBy(() -> cps("[{\"name\":\"cp\",\"query\":\"SELECT VALUE RAND() FROM c\"}]"))
        .hasMessageContaining("RAND");
    assertThatThrownBy(
            () ->
                cps(
                    "[{\"name\":\"a\",\"query\":\"SELECT VALUE c.b FROM c\"},"
                        + "{\"name\":\"b\",\"query\":\"SELECT VALUE 1 FROM c\"}]"))
        .hasMessageContaining("cannot depend on each other");
    assertThatThrownBy(
            () ->
                cps(
                    "[{\"name\":\"a\",\"query\":\"SELECT VALUE 1 FROM c\"},"
                        + "{\"name\":\"a\",\"query\":\"SELECT VALUE 2 FROM c\"}]"))
        .hasMessageContaining("defined twice");
  }
}
