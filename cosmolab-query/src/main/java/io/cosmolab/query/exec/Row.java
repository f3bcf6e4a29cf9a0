package io.cosmolab.query.exec;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * A row of the FROM stage: the value of each alias, and the {@link Executor.Input#order()} of the
 * input document it came from (every row a JOIN makes from a document shares its order).
 */
record Row(Map<String, JsonNode> bindings, long order) {}
