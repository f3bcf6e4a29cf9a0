package io.cosmolab.compat;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.ModelBridgeInternal;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/** What the Java SDK's query and index metrics say of a query, summed over its pages. */
final class QueryProbe {
  private QueryProbe() {}

  /** Rows, retrieved documents and output documents, summed over the query's pages. */
  static long[] metrics(CosmosContainer c, String query) {
    var options = new CosmosQueryRequestOptions();
    options.setQueryMetricsEnabled(true);
    long[] out = new long[3];
    for (var page : c.queryItems(query, options, ObjectNode.class).iterableByPage()) {
      out[0] += page.getResults().size();
      for (var m : ModelBridgeInternal.queryMetricsMap(page).values()) {
        out[1] += m.getRetrievedDocumentCount();
        out[2] += m.getOutputDocumentCount();
      }
    }
    return out;
  }

  /** The Java SDK's query metrics of each partition's part of each page of a query. */
  static List<com.azure.cosmos.implementation.QueryMetrics> perPage(
      CosmosContainer c, String query, int pageSize) {
    var options = new CosmosQueryRequestOptions();
    options.setQueryMetricsEnabled(true);
    List<com.azure.cosmos.implementation.QueryMetrics> out = new ArrayList<>();
    for (var page : c.queryItems(query, options, ObjectNode.class).iterableByPage(pageSize)) {
      out.addAll(ModelBridgeInternal.queryMetricsMap(page).values());
    }
    return out;
  }

  /** The index metrics of a query's pages, one line per entry, without repeats. */
  static List<String> indexUse(CosmosContainer c, String query) {
    var options = new CosmosQueryRequestOptions();
    options.setQueryMetricsEnabled(true);
    options.setIndexMetricsEnabled(true);
    LinkedHashSet<String> out = new LinkedHashSet<>();
    for (var page : c.queryItems(query, options, ObjectNode.class).iterableByPage()) {
      for (var m : ModelBridgeInternal.queryMetricsMap(page).values()) {
        var use = m.getIndexUtilizationInfo();
        use.getUtilizedSingleIndexes()
            .forEach(
                i ->
                    out.add(
                        "utilized "
                            + i.getIndexDocumentExpression()
                            + " "
                            + i.getFilterExpression()));
        use.getPotentialSingleIndexes()
            .forEach(
                i ->
                    out.add(
                        "potential "
                            + i.getIndexDocumentExpression()
                            + " "
                            + i.getFilterExpression()));
        use.getUtilizedCompositeIndexes()
            .forEach(i -> out.add("composite " + i.getIndexDocumentExpressions()));
      }
    }
    return new ArrayList<>(out);
  }
}
