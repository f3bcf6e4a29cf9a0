package io.cosmolab.query.exec;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.query.SearchPolicy;
import io.cosmolab.query.ast.Expr;
import io.cosmolab.query.functions.FullText;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rows a ranked full-text query's FROM yields, held so that BM25's corpus statistics (row
 * count, total word count, each term's row count) are known before the first row is scored. The
 * statistics cover every row, before WHERE, as the statistics query of a hybrid-search plan does
 * across partitions ({@code HybridSearchPlanner}): for {@code FROM c} the documents, for {@code
 * FROM t IN c.texts} the texts.
 */
final class Corpus implements Operator<Row> {
  private final Operator<Row> upstream;
  private final List<Expr.Call> scored;
  private final ExpressionCompiler expressions;
  private final SearchPolicy search;
  private final Budget budget;
  private final IdentityHashMap<Expr.Call, long[]> hits = new IdentityHashMap<>();
  private final IdentityHashMap<Expr.Call, long[]> words = new IdentityHashMap<>();
  private final IdentityHashMap<Expr.Call, List<String>> terms = new IdentityHashMap<>();
  private final IdentityHashMap<Expr.Call, FullText.Statistics> statistics =
      new IdentityHashMap<>();

  /** Each scored text's terms, by call and by the text's own string (the row's value). */
  private final IdentityHashMap<Expr.Call, IdentityHashMap<String, List<String>>> analysed =
      new IdentityHashMap<>();

  private List<Row> held;
  private Iterator<Row> replay;

  Corpus(
      Operator<Row> upstream,
      List<Expr.Call> scored,
      ExpressionCompiler expressions,
      SearchPolicy search,
      Budget budget) {
    this.upstream = upstream;
    this.scored = scored;
    this.expressions = expressions;
    this.search = search;
    this.budget = budget;
  }

  @Override
  public Row next() {
    load();
    if (replay == null) {
      replay = held.iterator();
    }
    return replay.hasNext() ? replay.next() : null;
  }

  /** The terms a FullTextScore call scores by, processed in its path's language. */
  List<String> terms(Expr.Call call) {
    return terms.computeIfAbsent(
        call,
        c -> {
          List<JsonNode> keywords = new ArrayList<>();
          for (Expr k : c.arguments().subList(1, c.arguments().size())) {
            keywords.add(expressions.of(k).eval(Map.of(), null));
          }
          return FullText.keywordTerms(keywords, language(c));
        });
  }

  private String language(Expr.Call call) {
    return search.languageOf(SearchPolicy.pathOf(call.arguments().get(0)));
  }

  /**
   * The terms of a row's text for a FullTextScore call: those the corpus found when it read the
   * row, or (for a text it did not read) analysed now and charged.
   */
  List<String> termsOf(Expr.Call call, String text) {
    load();
    List<String> known = analysed.get(call).get(text);
    if (known != null) {
      return known;
    }
    budget.spend(text.length()); // analysis reads every character
    return FullText.terms(text, language(call));
  }

  /** The statistics for a FullTextScore call (of this query's ORDER BY RANK). */
  FullText.Statistics statistics(Expr.Call call) {
    load();
    return statistics.computeIfAbsent(
        call,
        c -> {
          long[] w = words.get(c);
          long[] h = hits.getOrDefault(c, new long[0]);
          List<Long> counts = new ArrayList<>(h.length);
          for (long n : h) {
            counts.add(n);
          }
          return new FullText.Statistics(held.size(), w == null ? 0 : w[0], counts);
        });
  }

  private void load() {
    if (held != null) {
      return;
    }
    List<Row> all = new ArrayList<>();
    List<List<String>> queries = new ArrayList<>();
    for (Expr.Call c : scored) {
      List<String> t = terms(c);
      queries.add(t);
      hits.put(c, new long[t.size()]);
      words.put(c, new long[1]);
      analysed.put(c, new IdentityHashMap<>());
    }
    for (Row row = upstream.next(); row != null; row = upstream.next()) {
      all.add(row);
      budget.hold(all.size());
      budget.holdBytes(Values.ROW_BYTES);
      for (int i = 0; i < scored.size(); i++) {
        Expr.Call c = scored.get(i);
        JsonNode text = expressions.of(c.arguments().get(0)).eval(row.bindings(), null);
        if (text == null || !text.isTextual()) {
          continue;
        }
        budget.spend(text.textValue().length()); // analysis reads every character
        List<String> found = FullText.terms(text.textValue(), language(c));
        analysed.get(c).put(text.textValue(), found);
        words.get(c)[0] += found.size();
        Set<String> present = new HashSet<>(found);
        long[] h = hits.get(c);
        for (int t = 0; t < h.length; t++) {
          if (present.contains(queries.get(i).get(t))) {
            h[t]++;
          }
        }
      }
    }
    held = all;
  }
}
