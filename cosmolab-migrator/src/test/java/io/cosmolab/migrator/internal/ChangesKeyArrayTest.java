package io.cosmolab.migrator.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A delete's key from its change-feed metadata: the service writes an object keyed by each key
 * path's property name; the migrator needs the array in the container's path order.
 */
class ChangesKeyArrayTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode json(String text) throws Exception {
    return JSON.readTree(text);
  }

  @Test
  void theServicesObjectForm_becomesTheArrayInPathOrder_everyLevelOfAHierarchy() throws Exception {
    assertThat(Changes.keyArray(json("{\"pk\":\"p\"}"), List.of("/pk"))).hasToString("[\"p\"]");
    assertThat(Changes.keyArray(json("{\"b\":1,\"a\":\"x\"}"), List.of("/a", "/b")))
        .hasToString("[\"x\",1]");
    assertThat(Changes.keyArray(json("{\"zip\":\"98052\"}"), List.of("/address/zip")))
        .hasToString("[\"98052\"]");
  }

  @Test
  void aPropertyLeftOut_isUndefined_andOtherFormsAreTakenAsTheyAre() throws Exception {
    assertThat(Changes.keyArray(json("{}"), List.of("/pk"))).hasToString("[{}]");
    assertThat(Changes.keyArray(json("[\"p\"]"), List.of("/pk"))).hasToString("[\"p\"]");
    assertThat(Changes.keyArray(json("\"p\""), List.of("/pk"))).hasToString("[\"p\"]");
    assertThat(Changes.keyArray(null, List.of("/pk"))).isNull();
  }
}
