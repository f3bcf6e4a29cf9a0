package io.cosmolab.query.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.query.CompiledQuery;
import io.cosmolab.query.QueryException;
import io.cosmolab.query.SearchPolicy;
import io.cosmolab.query.ast.Expr;
import io.cosmolab.query.ast.Query;
import io.cosmolab.query.functions.FullText;
import io.cosmolab.query.functions.Ranking;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Plans {@code ORDER BY RANK} for the SDKs' hybrid-search pipeline: the gateway's {@code
 * hybridSearchQueryInfo} (the plan's {@code queryInfo} is then null). The client, as the Java SDK
 * 4.81 does it ({@code HybridSearchDocumentQueryExecutionContext}):
 *
 * <ol>
 *   <li>runs {@code globalStatisticsQuery} on every partition and adds the answers up: the document
 *       count, and per FullTextScore the total word count and each term's document count;
 *   <li>writes those numbers into each component query's placeholders ({@code
 *       {documentdb-formattablehybridsearchquery-totaldocumentcount}}, {@code
 *       ...-totalwordcount-i}, {@code ...-hitcountsarray-i}, i the component's index; the
 *       statistics are taken in order, one per full-text component);
 *   <li>runs each component query on every partition: the best {@code skip + take} documents by
 *       that component's score, each with every component's score ({@code payload.componentScores})
 *       and the projection ({@code payload.payload});
 *   <li>de-duplicates by {@code _rid}, ranks by each component's scores, fuses the ranks with RRF
 *       under {@code componentWeights}, and applies {@code skip} and {@code take}.
 * </ol>
 *
 * <p>The query texts are ours (the client only fills in the placeholders): the full-text score
 * there is {@code _FullTextBm25(text, [terms], documents, words, [hits])}, with the terms already
 * processed in the path's language, so each partition scores with the statistics of all. An
 * undefined score (a document without the vector) is written as the worst possible, so that the
 * client, which needs a number for every component, ranks it last [A].
 */
public final class HybridSearchPlanner {
  private HybridSearchPlanner() {}

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String DOCUMENT_COUNT =
      "{documentdb-formattablehybridsearchquery-totaldocumentcount}";

  /** True if the query orders by RANK (and so needs this plan). */
  public static boolean applies(Query q) {
    return q.orderBy().size() == 1 && q.orderBy().get(0).rank();
  }

  /** The {@code hybridSearchQueryInfo} of an ORDER BY RANK query. */
  public static ObjectNode info(CompiledQuery compiled) {
    Query q = compiled.ast();
    Map<String, JsonNode> params = compiled.parameterValues();
    if (q.top() == null && q.limit() == null) {
      throw new QueryException(
          "",
          "A query with ORDER BY RANK needs TOP or OFFSET ... LIMIT: the client ranks every"
              + " partition's best TOP documents, and without a bound that is every document");
    }
    if (q.select() instanceof Query.Select.Value || q.distinct() || q.from().isEmpty()) {
      throw QueryPlanner.unsupported(
          "ORDER BY RANK with SELECT VALUE, DISTINCT or without FROM (the client expects an"
              + " object per result)");
    }
    Ranking ranking = Ranking.of(q.orderBy().get(0).expression(), params);
    long skip = q.offset() == null ? 0 : QueryPlanner.count(q.offset(), params, "OFFSET");
    long take =
        Math.min(
            q.top() == null ? Long.MAX_VALUE : QueryPlanner.count(q.top(), params, "TOP"),
            q.limit() == null ? Long.MAX_VALUE : QueryPlanner.count(q.limit(), params, "LIMIT"));
    String root = q.from().get(0).alias();
    String from = " FROM " + SqlWriter.from(q.from());
    String where = q.where() == null ? null : SqlWriter.write(q.where());

    List<String> scores = new ArrayList<>();
    StringBuilder statistics = new StringBuilder();
    for (int i = 0; i < ranking.components().size(); i++) {
      Ranking.Component c = ranking.components().get(i);
      if (!c.fullText()) {
        scores.add(QueryPlanner.scoreOrWorst(SqlWriter.write(c.call()), c.higherIsBetter()));
        continue;
      }
      String text = SqlWriter.write(c.call().arguments().get(0));
      List<String> terms = terms(c.call(), compiled.searchPolicy(), params);
      ArrayNode termArray = NODES.arrayNode();
      terms.forEach(termArray::add);
      scores.add(
          "_FullTextBm25("
              + text
              + ", "
              + termArray
              + ", "
              + DOCUMENT_COUNT
              + ", "
              + "{documentdb-formattablehybridsearchquery-totalwordcount-"
              + i
              + "}"
              + ", "
              + "{documentdb-formattablehybridsearchquery-hitcountsarray-"
              + i
              + "}"
              + ")");
      statistics.append(statistics.length() > 0 ? ", " : "");
      statistics
          .append("{\"totalWordCount\": SUM(_FullTextWordCount(")
          .append(text)
          .append(")), \"hitCounts\": [");
      for (int t = 0; t < terms.size(); t++) {
        statistics
            .append(t > 0 ? ", " : "")
            .append("SUM(_FullTextHits(")
            .append(text)
            .append(", ")
            .append(NODES.textNode(terms.get(t)))
            .append("))");
      }
      statistics.append("]}");
    }

    ObjectNode info = NODES.objectNode();
    // statistics over the rows FROM and its JOINs yield, before WHERE (as Corpus gathers them)
    info.put(
        "globalStatisticsQuery",
        "SELECT COUNT(1) AS documentCount, [" + statistics + "] AS fullTextStatistics" + from);
    ArrayNode components = info.putArray("componentQueryInfos");
    String allScores = String.join(", ", scores);
    String payload = QueryPlanner.payload(q, root);
    long perComponent = io.cosmolab.query.internal.RowCounts.sum(skip, take);
    for (int i = 0; i < scores.size(); i++) {
      String direction = ranking.components().get(i).higherIsBetter() ? "DESC" : "ASC";
      StringBuilder r = new StringBuilder("SELECT TOP ");
      r.append(perComponent)
          .append(' ')
          .append(root)
          .append("._rid, [{\"item\": ")
          .append(scores.get(i))
          .append("}] AS orderByItems, {\"payload\": ")
          .append(payload)
          .append(", \"componentScores\": [")
          .append(allScores)
          .append("]} AS payload")
          .append(from)
          .append(" WHERE ");
      if (where != null) {
        r.append('(').append(where).append(") AND ");
      }
      r.append('(')
          .append(QueryPlanner.ORDER_BY_FILTER)
          .append(") ORDER BY ")
          .append(scores.get(i))
          .append(' ')
          .append(direction);
      ObjectNode component = components.addObject();
      component.put("distinctType", "None");
      component.put("top", perComponent);
      component.putNull("offset");
      component.putNull("limit");
      component.putArray("orderBy").add(direction.equals("DESC") ? "Descending" : "Ascending");
      component.putArray("orderByExpressions").add(scores.get(i));
      component.putArray("groupByExpressions");
      component.putArray("groupByAliases");
      component.putArray("aggregates");
      component.putObject("groupByAliasToAggregateType");
      component.put("rewrittenQuery", r.toString());
      component.put("hasSelectValue", false);
      component.putNull("dCountInfo");
      component.put("hasNonStreamingOrderBy", true);
    }
    ArrayNode weights = info.putArray("componentWeights");
    ranking.weights().forEach(weights::add);
    info.putNull("projectionQueryInfo");
    if (q.offset() != null) {
      info.put("skip", skip);
    } else {
      info.putNull("skip");
    }
    info.put("take", take);
    info.put("requiresGlobalStatistics", true);
    return info;
  }

  /** A FullTextScore's terms, processed in its path's language (keywords must be constants). */
  private static List<String> terms(
      Expr.Call call, SearchPolicy policy, Map<String, JsonNode> params) {
    List<JsonNode> keywords = new ArrayList<>();
    for (Expr k : call.arguments().subList(1, call.arguments().size())) {
      JsonNode v = Ranking.constant(k, params);
      if (v == null && k instanceof Expr.Parameter p) {
        throw new QueryException(
            "SC2001",
            "FullTextScore's keywords name " + p.name() + ", which the request does not bind");
      }
      if (v == null) {
        throw new QueryException(
            "",
            "FullTextScore's keywords must be strings, arrays of strings or parameters, was "
                + SqlWriter.write(k));
      }
      keywords.add(v);
    }
    String language = policy.languageOf(SearchPolicy.pathOf(call.arguments().get(0)));
    return FullText.keywordTerms(keywords, language);
  }

  /** Whether an ORDER BY key is a search score (not a document path, and not indexed as one). */
  public static boolean isScore(Expr e) {
    if (e instanceof Expr.Binary b && b.op() == Expr.BinaryOp.COALESCE) {
      return isScore(b.left());
    }
    return e instanceof Expr.Call c
        && (c.name().equals("VECTORDISTANCE")
            || c.name().equals("FULLTEXTSCORE")
            || c.name().equals("RRF")
            || c.name().equals("_FULLTEXTBM25"));
  }
}
