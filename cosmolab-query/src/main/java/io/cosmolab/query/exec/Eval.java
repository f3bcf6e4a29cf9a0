package io.cosmolab.query.exec;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * A compiled expression: its value (null for undefined) for a row's bindings. {@code group} is the
 * current group (its aggregates' results) while an aggregating SELECT is projected, else null.
 */
@FunctionalInterface
interface Eval {
  JsonNode eval(Map<String, JsonNode> env, Group group);
}
