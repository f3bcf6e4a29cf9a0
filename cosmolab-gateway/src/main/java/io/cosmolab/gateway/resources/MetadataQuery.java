package io.cosmolab.gateway.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.query.QueryErrors;
import io.cosmolab.query.CompiledQuery;
import io.cosmolab.query.QueryException;
import io.cosmolab.query.exec.Executor;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Queries over metadata feeds — databases, containers, offers, scripts — with the same query
 * language as documents: the SDKs look up offers with {@code SELECT * FROM c WHERE
 * c.offerResourceId = @id}, and {@code queryDatabases} takes any SQL. These feeds are small, so
 * they are answered in one page.
 */
final class MetadataQuery {
  private MetadataQuery() {}

  static List<JsonNode> run(Requests.QueryText query, List<ObjectNode> resources, Instant now) {
    try {
      CompiledQuery compiled = CompiledQuery.compile(query.text(), query.parameters());
      List<Executor.Input> inputs = new ArrayList<>(resources.size());
      for (int i = 0; i < resources.size(); i++) {
        inputs.add(new Executor.Input(resources.get(i), i));
      }
      return compiled.execute(inputs, now);
    } catch (QueryException e) {
      throw QueryErrors.asCosmos(e);
    }
  }
}
