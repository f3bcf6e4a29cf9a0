package io.cosmolab.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.query.QueryErrors;
import io.cosmolab.query.ComputedProperties;
import io.cosmolab.query.QueryException;
import io.cosmolab.query.SearchPolicy;

/**
 * A container's properties kept and echoed as sent, with what queries read from them: the computed
 * properties and the vector and full-text policies. One immutable value, so a container replace
 * swaps all three at once and a query never reads a policy of one version beside computed
 * properties of another.
 *
 * @param json the properties as sent (never handed out: {@link #copy})
 * @param computed the {@code computedProperties}
 * @param search the {@code vectorEmbeddingPolicy} and {@code fullTextPolicy}
 */
public record StoredProperties(ObjectNode json, ComputedProperties computed, SearchPolicy search) {
  /** None kept. */
  public static final StoredProperties NONE =
      new StoredProperties(
          JsonNodeFactory.instance.objectNode(), ComputedProperties.NONE, SearchPolicy.NONE);

  /**
   * Reads and checks the properties.
   *
   * @throws io.cosmolab.engine.error.CosmosException 400 naming a computed property, vector
   *     embedding or full-text entry the service would refuse
   */
  public static StoredProperties of(JsonNode properties) {
    if (properties == null || !properties.isObject()) {
      return NONE;
    }
    try {
      return new StoredProperties(
          ((ObjectNode) properties).deepCopy(),
          ComputedProperties.fromJson(properties.get("computedProperties")),
          SearchPolicy.fromJson(
              properties.get("vectorEmbeddingPolicy"),
              properties.get("fullTextPolicy"),
              properties.get("geospatialConfig")));
    } catch (QueryException e) {
      throw QueryErrors.asCosmos(e);
    }
  }

  /** The properties as sent, as a copy the caller may change. */
  public ObjectNode copy() {
    return json.deepCopy();
  }
}
