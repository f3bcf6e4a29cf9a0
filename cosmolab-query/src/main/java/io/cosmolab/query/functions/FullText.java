package io.cosmolab.query.functions;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.query.QueryException;
import io.cosmolab.query.exec.Values;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.de.GermanAnalyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.es.SpanishAnalyzer;
import org.apache.lucene.analysis.fr.FrenchAnalyzer;
import org.apache.lucene.analysis.it.ItalianAnalyzer;
import org.apache.lucene.analysis.pt.PortugueseAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * Full-text search: the service's text processing (tokenising, lower-casing, stop-word removal and
 * stemming, per the path's language in the container's full-text policy) and its BM25 relevance
 * score.
 *
 * <p>Text is processed by Lucene's analyzer for the language: the service documents the steps
 * (tokenization, stop words, stemming, "so helmets matches helmet") but not its stemmer or stop
 * lists, so the terms a word reduces to can differ from the service's at the edges [A]. A keyword
 * of several words matches a text that holds all of its terms, in any order [A: the service does
 * not document phrase semantics].
 *
 * <p>BM25 with Lucene's and most engines' constants, k1 = 1.2 and b = 0.75, and the idf {@code ln(1
 * + (N - n + 0.5) / (n + 0.5))} [A: the service names BM25 but not its constants]. The corpus
 * statistics (document count, total word count, per-term document counts) are over all the
 * documents the query reads, before its WHERE clause, as the statistics query the service plans for
 * hybrid search reads them across partitions.
 */
public final class FullText {
  private FullText() {}

  /** The languages a full-text policy may name. */
  public static final Set<String> LANGUAGES;

  private static final Map<String, Supplier<Analyzer>> FACTORIES = new HashMap<>();
  private static final Map<String, Analyzer> ANALYZERS =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** The language of a path no policy names. */
  public static final String DEFAULT_LANGUAGE = "en-US";

  static {
    FACTORIES.put("en-us", EnglishAnalyzer::new);
    FACTORIES.put("de-de", GermanAnalyzer::new);
    FACTORIES.put("es-es", SpanishAnalyzer::new);
    FACTORIES.put("fr-fr", FrenchAnalyzer::new);
    FACTORIES.put("it-it", ItalianAnalyzer::new);
    FACTORIES.put("pt-br", PortugueseAnalyzer::new);
    FACTORIES.put("pt-pt", PortugueseAnalyzer::new);
    LANGUAGES = Set.of("en-US", "de-DE", "es-ES", "fr-FR", "it-IT", "pt-BR", "pt-PT");
  }

  /** BM25's term-frequency saturation. */
  static final double K1 = 1.2;

  /** BM25's length normalisation. */
  static final double B = 0.75;

  /** The function names this class serves. */
  public static final Set<String> FUNCTIONS =
      Set.of(
          "FULLTEXTCONTAINS",
          "FULLTEXTCONTAINSALL",
          "FULLTEXTCONTAINSANY",
          "FULLTEXTSCORE",
          "_FULLTEXTWORDCOUNT",
          "_FULLTEXTHITS",
          "_FULLTEXTBM25");

  /** True if the language is one a policy may name (compared ignoring case). */
  public static boolean isLanguage(String language) {
    return language != null && FACTORIES.containsKey(language.toLowerCase(Locale.ROOT));
  }

  /** The terms of a text in a language: what the index keeps of it, in order. */
  public static List<String> terms(String text, String language) {
    String key = language == null ? "en-us" : language.toLowerCase(Locale.ROOT);
    Analyzer analyzer =
        ANALYZERS.computeIfAbsent(
            key, k -> FACTORIES.getOrDefault(k, FACTORIES.get("en-us")).get());
    List<String> out = new ArrayList<>();
    try (TokenStream ts = analyzer.tokenStream("text", text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        out.add(term.toString());
      }
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringReader does not fail
    }
    return out;
  }

  /** The distinct terms of the keywords (strings, or arrays of strings), in order of appearance. */
  public static List<String> keywordTerms(List<JsonNode> keywords, String language) {
    LinkedHashSet<String> out = new LinkedHashSet<>();
    for (JsonNode k : keywords) {
      if (k != null && k.isArray()) {
        for (JsonNode e : k) {
          if (e.isTextual()) {
            out.addAll(terms(e.textValue(), language));
          }
        }
      } else if (k != null && k.isTextual()) {
        out.addAll(terms(k.textValue(), language));
      }
    }
    return new ArrayList<>(out);
  }

  /** Per-query statistics of the corpus, for one scored path and its terms. */
  public record Statistics(long documentCount, long totalWordCount, List<Long> hitCounts) {
    public Statistics {
      hitCounts = List.copyOf(hitCounts);
    }
  }

  /**
   * The BM25 score of a document's terms for the query terms, under the corpus statistics; 0 for an
   * empty corpus.
   */
  public static double bm25(List<String> document, List<String> query, Statistics stats) {
    if (stats.documentCount() <= 0 || document.isEmpty()) {
      return 0;
    }
    double averageLength = Math.max(1e-9, (double) stats.totalWordCount() / stats.documentCount());
    Map<String, Integer> frequency = new HashMap<>();
    for (String t : document) {
      frequency.merge(t, 1, Integer::sum);
    }
    double score = 0;
    for (int i = 0; i < query.size(); i++) {
      Integer tf = frequency.get(query.get(i));
      if (tf == null) {
        continue;
      }
      long n = i < stats.hitCounts().size() ? stats.hitCounts().get(i) : 0;
      double idf = Math.log(1 + (stats.documentCount() - n + 0.5) / (n + 0.5));
      double norm = K1 * (1 - B + B * document.size() / averageLength);
      score += idf * tf * (K1 + 1) / (tf + norm);
    }
    return score;
  }

  /**
   * The implementation of a text function over a path in {@code language}; the language comes from
   * the container's full-text policy for the path the first argument reads.
   */
  public static SystemFunctions.Impl impl(String name, String language) {
    SystemFunctions.Impl body = body(name, language);
    // analysing a text reads every character of it: charged as such, so a JOIN that repeats a
    // large text stops at the work limit
    return (a, c) -> {
      JsonNode text = a.isEmpty() ? null : a.get(0);
      if (text != null && text.isTextual()) {
        c.spend(text.textValue().length());
      }
      return body.apply(a, c);
    };
  }

  private static SystemFunctions.Impl body(String name, String language) {
    return switch (name) {
      case "FULLTEXTCONTAINS" -> (a, c) -> contains(a, language, true);
      case "FULLTEXTCONTAINSALL" -> (a, c) -> contains(a, language, true);
      case "FULLTEXTCONTAINSANY" -> (a, c) -> contains(a, language, false);
      case "_FULLTEXTWORDCOUNT" ->
          (a, c) ->
              Values.number(
                  a.get(0) != null && a.get(0).isTextual()
                      ? terms(a.get(0).textValue(), language).size()
                      : 0);
      case "_FULLTEXTHITS" ->
          (a, c) ->
              Values.number(
                  a.get(0) != null
                          && a.get(0).isTextual()
                          && a.get(1) != null
                          && terms(a.get(0).textValue(), language).contains(a.get(1).asText())
                      ? 1
                      : 0);
      case "_FULLTEXTBM25" -> (a, c) -> statedBm25(a, language);
      default ->
          (a, c) -> {
            throw new QueryException(
                "", "The " + name + " function is only allowed in an ORDER BY RANK clause.");
          };
    };
  }

  static void register(SystemFunctions.Registrar r) {
    SystemFunctions.Impl unbound = (a, c) -> null; // replaced per path when compiled
    r.def("FullTextContains", 2, 2, unbound);
    r.def("FullTextContainsAll", 2, Integer.MAX_VALUE, unbound);
    r.def("FullTextContainsAny", 2, Integer.MAX_VALUE, unbound);
    r.def("FullTextScore", 2, Integer.MAX_VALUE, unbound);
    // the forms the hybrid-search plan sends to each partition (QueryPlanner): the terms come
    // already processed, with the statistics the client gathered across partitions
    r.def("_FullTextWordCount", 1, 1, unbound);
    r.def("_FullTextHits", 2, 2, unbound);
    r.def("_FullTextBm25", 5, 5, unbound);
  }

  /** Whether the text at a[0] holds all (or any) of the keywords a[1..]. */
  private static JsonNode contains(List<JsonNode> a, String language, boolean all) {
    JsonNode text = a.get(0);
    if (text == null || !text.isTextual()) {
      return null;
    }
    Set<String> have = new java.util.HashSet<>(terms(text.textValue(), language));
    for (int i = 1; i < a.size(); i++) {
      JsonNode k = a.get(i);
      if (k == null || !k.isTextual()) {
        return null;
      }
      List<String> wanted = terms(k.textValue(), language);
      boolean found = !wanted.isEmpty() && have.containsAll(wanted);
      if (found != all) {
        return Values.bool(found);
      }
    }
    return Values.bool(all);
  }

  /** _FullTextBm25(text, [terms], documentCount, totalWordCount, [hitCounts]). */
  private static JsonNode statedBm25(List<JsonNode> a, String language) {
    JsonNode text = a.get(0);
    if (text == null || !text.isTextual()) {
      return Values.number(0);
    }
    List<String> query = new ArrayList<>();
    if (a.get(1) != null) {
      a.get(1).forEach(t -> query.add(t.asText()));
    }
    List<Long> hits = new ArrayList<>();
    JsonNode h = a.get(4);
    for (int i = 0; h != null && i < query.size() && i < h.size(); i++) {
      hits.add(h.get(i).asLong());
    }
    long documents = a.get(2) == null ? 0 : a.get(2).asLong();
    long words = a.get(3) == null ? 0 : a.get(3).asLong();
    return Values.number(
        bm25(terms(text.textValue(), language), query, new Statistics(documents, words, hits)));
  }
}
