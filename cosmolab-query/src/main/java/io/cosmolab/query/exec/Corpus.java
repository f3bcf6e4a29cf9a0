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
 * The documents a ranked full-text query reads, held so that BM25's corpus statistics (document
 * count, total word count, each term's document count) are known before the first document is
 * scored. The statistics cover every document read, before WHERE, as the statistics query of a
 * hybrid-search plan does across partitions ({@code QueryPlanner}).
 */
final class Corpus implements Iterable<Executor.Input> {
  private final Iterable<Executor.Input> inputs;
  private final String alias;
  private final List<Expr.Call> scored;
  private final ExpressionCompiler expressions;
  private final SearchPolicy search;
  private final Budget budget;
  private final IdentityHashMap<Expr.Call, long[]> hits = new IdentityHashMap<>();
  private final IdentityHashMap<Expr.Call, long[]> words = new IdentityHashMap<>();
  private final IdentityHashMap<Expr.Call, List<String>> terms = new IdentityHashMap<>();
  private final IdentityHashMap<Expr.Call, FullText.Statistics> statistics =
      new IdentityHashMap<>();
  private List<Executor.Input> held;

  Corpus(
      Iterable<Executor.Input> inputs,
      String alias,
      List<Expr.Call> scored,
      ExpressionCompiler expressions,
      SearchPolicy search,
      Budget budget) {
    this.inputs = inputs;
    this.alias = alias;
    this.scored = scored;
    this.expressions = expressions;
    this.search = search;
    this.budget = budget;
  }

  @Override
  public Iterator<Executor.Input> iterator() {
    load();
    return held.iterator();
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

  String language(Expr.Call call) {
    return search.languageOf(SearchPolicy.pathOf(call.arguments().get(0)));
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
    List<Executor.Input> all = new ArrayList<>();
    List<List<String>> queries = new ArrayList<>();
    for (Expr.Call c : scored) {
      List<String> t = terms(c);
      queries.add(t);
      hits.put(c, new long[t.size()]);
      words.put(c, new long[1]);
    }
    for (Executor.Input in : inputs) {
      all.add(in);
      budget.nextDocument(); // its text's analysis counts against its own limit
      budget.hold(all.size());
      for (int i = 0; i < scored.size(); i++) {
        Expr.Call c = scored.get(i);
        JsonNode text =
            expressions.of(c.arguments().get(0)).eval(Map.of(alias, in.document()), null);
        if (text == null || !text.isTextual()) {
          continue;
        }
        budget.spend(text.textValue().length());
        List<String> terms = FullText.terms(text.textValue(), language(c));
        words.get(c)[0] += terms.size();
        Set<String> present = new HashSet<>(terms);
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
