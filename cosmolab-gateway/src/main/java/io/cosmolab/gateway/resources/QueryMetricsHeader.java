package io.cosmolab.gateway.resources;

import io.cosmolab.engine.query.QueryMetrics;
import io.cosmolab.engine.query.QueryPage;
import java.util.Locale;

/**
 * {@code x-ms-documentdb-query-metrics}, sent when a query asks with {@code
 * x-ms-documentdb-populatequerymetrics: true}: the service's {@code name=value;…} list, which the
 * SDKs parse into their query metrics (azure-cosmos {@code QueryMetricsConstants}).
 *
 * <p>The counts are exact: documents retrieved from storage and their bytes, rows output and their
 * bytes, and documents found through an index. Their ratio is what exposes a fan-out key: a
 * synthetic-suffix or cross-partition read path retrieves far more than it returns. The times are
 * measured (wall time, {@link QueryMetrics.Times}): the total (the gateway's, around the engine),
 * compile, logical and physical plan, index lookup and the execution. Document loading, function
 * calls and writing the output happen inside the execution as the query pulls its rows, and are
 * reported as 0 rather than guessed apart from it [A]; query optimization is part of the plans.
 */
final class QueryMetricsHeader {
  private QueryMetricsHeader() {}

  static String of(QueryPage page, long elapsedNanos) {
    QueryMetrics m = page.metrics();
    QueryMetrics.Times t = m.times();
    double indexRatio =
        m.documentsLoaded() == 0
            ? 1.0
            : Math.min(1.0, (double) m.indexHits() / m.documentsLoaded());
    // times in ms to a tenth of a microsecond: a cached text compiles in a few microseconds, which
    // the service's two decimals would print as 0 (the SDKs read any decimals into nanoseconds)
    return String.format(
        Locale.ROOT,
        "totalExecutionTimeInMs=%.4f;queryCompileTimeInMs=%.4f;queryLogicalPlanBuildTimeInMs=%.4f;"
            + "queryPhysicalPlanBuildTimeInMs=%.4f;queryOptimizationTimeInMs=0.0000;"
            + "VMExecutionTimeInMs=%.4f;indexLookupTimeInMs=%.4f;documentLoadTimeInMs=0.0000;"
            + "systemFunctionExecuteTimeInMs=0.0000;userFunctionExecuteTimeInMs=0.0000;"
            + "retrievedDocumentCount=%d;retrievedDocumentSize=%d;outputDocumentCount=%d;"
            + "outputDocumentSize=%d;writeOutputTimeInMs=0.0000;indexUtilizationRatio=%.2f",
        ms(elapsedNanos),
        ms(t.compileNanos()),
        ms(t.logicalPlanNanos()),
        ms(t.physicalPlanNanos()),
        ms(t.executionNanos()),
        ms(t.indexLookupNanos()),
        m.documentsLoaded(),
        m.bytesLoaded(),
        m.documentsReturned(),
        m.bytesReturned(),
        indexRatio);
  }

  private static double ms(long nanos) {
    return nanos / 1e6;
  }

  /**
   * {@code x-ms-cosmos-index-utilization}, sent when a query asks with {@code
   * x-ms-cosmos-populateindexmetrics: true}: base64 of the JSON the SDKs decode into their index
   * metrics (azure-cosmos {@code IndexUtilizationInfo}: utilized and potential single and composite
   * indexes). See {@link io.cosmolab.engine.query.IndexUtilization} for what is listed.
   */
  static String indexUtilization(QueryPage page) {
    io.cosmolab.engine.query.IndexUtilization use = page.metrics().indexUse();
    com.fasterxml.jackson.databind.node.ObjectNode out =
        com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    singles(out.putArray("UtilizedSingleIndexes"), use.utilized());
    singles(out.putArray("PotentialSingleIndexes"), use.potential());
    composite(out.putArray("UtilizedCompositeIndexes"), use, true);
    out.putArray("PotentialCompositeIndexes");
    return java.util.Base64.getEncoder()
        .encodeToString(out.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  /**
   * {@code x-ms-cosmos-index-utilization} when a query asks with {@code
   * x-ms-cosmos-populateindexmetrics-V2: true} (the JavaScript SDK 4.x; the .NET SDK's {@code
   * IndexMetricsInfo}): the JSON percent-encoded, not base64, and shaped {@code {"Utilized":
   * {"SingleIndexes": [{"IndexSpec", "IndexImpactScore"}], "CompositeIndexes": [{"IndexSpecs",
   * "IndexImpactScore"}]}, "Potential": {...}}}. The same indexes as the first format.
   */
  static String indexMetricsV2(QueryPage page) {
    io.cosmolab.engine.query.IndexUtilization use = page.metrics().indexUse();
    com.fasterxml.jackson.databind.node.ObjectNode out =
        com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    com.fasterxml.jackson.databind.node.ObjectNode utilized = out.putObject("Utilized");
    specs(utilized.putArray("SingleIndexes"), use.utilized());
    composite(utilized.putArray("CompositeIndexes"), use, false);
    com.fasterxml.jackson.databind.node.ObjectNode potential = out.putObject("Potential");
    specs(potential.putArray("SingleIndexes"), use.potential());
    potential.putArray("CompositeIndexes");
    return percentEncoded(out.toString());
  }

  /**
   * {@code x-ms-cosmos-query-advice}, sent when a query asks with {@code
   * x-ms-cosmos-populatequeryadvice: true} and meets any of the advisor's rules ({@link
   * io.cosmolab.query.QueryAdvice}): the JSON {@code [{"Id": "QA1002", "Params": []}, ...]},
   * percent-encoded, which the Java SDK decodes ({@code QueryAdvice.tryCreateFromString}) and shows
   * with its own copy of each rule's message. Null when no rule applies: the SDK then reports no
   * advice, as for a query the service has nothing to say about.
   */
  static String queryAdvice(io.cosmolab.engine.query.QueryRequest query) {
    java.util.List<String> ids =
        io.cosmolab.query.QueryAdvice.of(
            io.cosmolab.query.CompiledQuery.compile(query.text(), query.parameters()));
    if (ids.isEmpty()) {
      return null;
    }
    com.fasterxml.jackson.databind.node.ArrayNode out =
        com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
    for (String id : ids) {
      out.addObject().put("Id", id).putArray("Params"); // [A] no rule's message has parameters
    }
    return percentEncoded(out.toString());
  }

  /**
   * The composite index an ORDER BY used, if any, into {@code to}: its paths, and in the first
   * format whether the index set was precise.
   */
  private static void composite(
      com.fasterxml.jackson.databind.node.ArrayNode to,
      io.cosmolab.engine.query.IndexUtilization use,
      boolean firstFormat) {
    if (use.utilizedComposite().isEmpty()) {
      return;
    }
    com.fasterxml.jackson.databind.node.ObjectNode c = to.addObject();
    use.utilizedComposite().forEach(c.putArray("IndexSpecs")::add);
    if (firstFormat) {
      c.put("IndexPreciseSet", true);
    }
    c.put("IndexImpactScore", "High");
  }

  private static void specs(
      com.fasterxml.jackson.databind.node.ArrayNode to,
      java.util.List<io.cosmolab.engine.query.IndexUtilization.SingleIndex> indexes) {
    for (io.cosmolab.engine.query.IndexUtilization.SingleIndex i : indexes) {
      to.addObject().put("IndexSpec", i.indexSpec()).put("IndexImpactScore", "High"); // [A]
    }
  }

  /**
   * Percent-encoding as JavaScript's {@code encodeURIComponent}: every UTF-8 byte but the
   * unreserved ones, so a space is {@code %20}, never {@code +}. The SDKs decode with {@code
   * decodeURIComponent} (JavaScript) and {@code HttpUtility.UrlDecode} (.NET); both read this.
   */
  static String percentEncoded(String text) {
    StringBuilder out = new StringBuilder(text.length() + 16);
    for (byte b : text.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
      int c = b & 0xFF;
      if ((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || "-_.!~*'()".indexOf(c) >= 0) {
        out.append((char) c);
      } else {
        out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)));
        out.append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
      }
    }
    return out.toString();
  }

  private static void singles(
      com.fasterxml.jackson.databind.node.ArrayNode to,
      java.util.List<io.cosmolab.engine.query.IndexUtilization.SingleIndex> indexes) {
    for (io.cosmolab.engine.query.IndexUtilization.SingleIndex i : indexes) {
      com.fasterxml.jackson.databind.node.ObjectNode e = to.addObject();
      e.put("FilterExpression", i.filter());
      e.put("IndexSpec", i.indexSpec());
      e.put("FilterPreciseSet", true);
      e.put("IndexPreciseSet", true);
      e.put("IndexImpactScore", "High"); // [A] a scan served or avoided: the service scores it
    }
  }
}
