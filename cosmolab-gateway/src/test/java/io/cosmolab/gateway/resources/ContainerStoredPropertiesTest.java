package io.cosmolab.gateway.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A container property is applied, kept and echoed as sent, or refused naming it: never dropped.
 */
class ContainerStoredPropertiesTest {
  private static ObjectNode body(String json) throws Exception {
    return (ObjectNode) new ObjectMapper().readTree(json);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "ttlPropertyPath|{\"id\":\"c\",\"defaultTtl\":60,\"ttlPropertyPath\":\"/expiresAt\"}",
        "clientEncryptionPolicy|{\"id\":\"c\",\"clientEncryptionPolicy\":{\"includedPaths\":[]}}",
        "materializedViewDefinition|{\"id\":\"c\",\"materializedViewDefinition\":{\"a\":1}}"
      })
  void aPropertyCosmolabCannotApply_isRefusedNamingIt(String name, String json) throws Exception {
    ObjectNode b = body(json);
    assertThatThrownBy(() -> ContainerResource.storedProperties(b))
        .isInstanceOfSatisfying(
            CosmosException.class, e -> assertThat(e.error()).isEqualTo(CosmosError.NOT_SUPPORTED))
        .hasMessageContaining("'" + name + "'");
  }

  @Test
  void aNullOrEmptyRefusedProperty_isNotAskingForAnything() throws Exception {
    assertThat(
            ContainerResource.storedProperties(
                body("{\"id\":\"c\",\"ttlPropertyPath\":null,\"clientEncryptionPolicy\":null}")))
        .isEmpty();
  }

  @Test
  void storedProperties_areKeptAsSent() throws Exception {
    ObjectNode kept =
        ContainerResource.storedProperties(
            body(
                "{\"id\":\"c\",\"analyticalStorageTtl\":-1,"
                    + "\"conflictResolutionPolicy\":{\"mode\":\"LastWriterWins\"}}"));
    assertThat(kept.get("analyticalStorageTtl").asInt()).isEqualTo(-1);
    assertThat(kept.path("conflictResolutionPolicy").path("mode").asText())
        .isEqualTo("LastWriterWins");
  }

  @Test
  void aSpatialIndexWithoutTypes_isRefusedInTheServicesWords() throws Exception {
    assertThatThrownBy(
            () ->
                ContainerResource.storedProperties(
                    body(
                        "{\"id\":\"c\",\"indexingPolicy\":{\"spatialIndexes\":"
                            + "[{\"path\":\"/loc/*\",\"types\":[]}]}}")))
        .isInstanceOf(CosmosException.class)
        .hasMessageContaining("The spatial data types array cannot be empty")
        .hasMessageContaining("/loc/*");
    assertThatThrownBy(
            () ->
                ContainerResource.storedProperties(
                    body(
                        "{\"id\":\"c\",\"indexingPolicy\":{\"spatialIndexes\":"
                            + "[{\"path\":\"/loc/*\",\"types\":[\"Circle\"]}]}}")))
        .isInstanceOf(CosmosException.class)
        .hasMessageContaining("Circle");
  }

  @Test
  void aSpatialIndex_isReturnedWithEverySpatialType_asTheServiceReturnsIt() throws Exception {
    ObjectNode kept =
        ContainerResource.storedProperties(
            body(
                "{\"id\":\"c\",\"indexingPolicy\":{\"spatialIndexes\":"
                    + "[{\"path\":\"/loc/*\",\"types\":[\"LineString\"]}]}}"));
    assertThat(kept.at("/indexingPolicy/spatialIndexes/0/types").toString())
        .isEqualTo("[\"Point\",\"LineString\",\"Polygon\",\"MultiPolygon\"]");
    assertThat(kept.at("/indexingPolicy/spatialIndexes/0/path").asText()).isEqualTo("/loc/*");
  }
}
