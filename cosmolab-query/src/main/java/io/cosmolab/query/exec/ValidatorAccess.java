package io.cosmolab.query.exec;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.query.ast.Query;
import java.util.Map;

/** Lets the API class run the package-private validator; not part of the API. */
public final class ValidatorAccess {
  private ValidatorAccess() {}

  public static void check(Query query, Map<String, JsonNode> parameters) {
    new Validator(parameters).check(query);
  }
}
