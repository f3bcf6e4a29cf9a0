package io.cosmolab.query.exec;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The user-defined functions a query may call as {@code udf.name(args)}: the engine resolves them
 * from the container's scripts and runs them on its script runtime. Called once per row that
 * evaluates the call, in the query's thread.
 */
@FunctionalInterface
public interface UserFunctions {
  /** No functions: every {@code udf.} call fails, naming the function. */
  UserFunctions NONE =
      (name, arguments) -> {
        throw new io.cosmolab.query.QueryException(
            "SC2005", "'udf." + name + "' is not a recognized user-defined function");
      };

  /**
   * The function's value for the arguments (each null when undefined); null for undefined.
   *
   * @throws RuntimeException the engine's error for an unknown function or one that threw
   */
  JsonNode call(String name, List<JsonNode> arguments);
}
