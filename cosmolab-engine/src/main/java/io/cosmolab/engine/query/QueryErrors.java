package io.cosmolab.engine.query;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.query.QueryException;
import java.util.Locale;

/** How a query-language error reaches a client: the service's 400 with the code and position. */
public final class QueryErrors {
  private QueryErrors() {}

  /** The 400 for a syntax or semantic error, naming its code (SC1001, ...) and offsets. */
  public static CosmosException asCosmos(QueryException e) {
    String where =
        e.start() < 0
            ? ""
            : String.format(Locale.ROOT, " (at offset %d to %d)", e.start(), e.end());
    if (e.code().isEmpty()) { // a message the service sends without a code
      return CosmosError.BAD_REQUEST.exception("%s%s", e.getMessage(), where);
    }
    return CosmosError.BAD_REQUEST.exception("%s: %s%s", e.code(), e.getMessage(), where);
  }
}
