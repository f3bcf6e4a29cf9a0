package io.cosmolab.rehearsal.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.workload.Access;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The documents of a rehearsal: how a new one is made from the sample, and the registry of those
 * that exist, indexed by the fields requests choose them by. Not thread-safe: one driver owns it.
 */
/*
 * How and why. A document is kept as a few numbers (its sample, its creation time, its version,
 * the hot values it was given), not as JSON: its JSON is rebuilt from the sample when a request
 * needs it, so the registry of a million documents costs tens of megabytes, not gigabytes. Each
 * candidate's key of the document is computed once, at creation, with the advisor's own
 * Candidate.keyOf, and so is the extra property a synthetic or bucketed key is stored in.
 *
 * Choosing documents ([I], the advisor's access distributions over the values of a field): values
 * are ranked by their documents when the preload is done (most first, ties by text), new values
 * after them in order of appearance. Zipf draws a rank by the continuous inverse of the
 * distribution function, which is within a few percent of the discrete one for the ranks that
 * matter. A hot event sends its share of every read to the documents with its value, once some
 * exist.
 */
final class Documents {
  /** One document that exists (or existed). */
  static final class Doc {
    final String id;
    final int sample;
    final long createdMillis;
    final JsonNode[] hot; // per hot field of the scenario, the value it was given, or null
    final PartitionKeyValue[] keys; // per candidate
    int version;
    boolean deleted;

    Doc(String id, int sample, long createdMillis, JsonNode[] hot, int candidates) {
      this.id = id;
      this.sample = sample;
      this.createdMillis = createdMillis;
      this.hot = hot;
      this.keys = new PartitionKeyValue[candidates];
    }
  }

  /** The documents by the values of one field. */
  private static final class ValueIndex {
    final Map<String, List<Integer>> byValue = new HashMap<>();
    final List<String> ranked = new ArrayList<>();

    void add(String value, int doc) {
      List<Integer> docs = byValue.get(value);
      if (docs == null) {
        docs = new ArrayList<>();
        byValue.put(value, docs);
        ranked.add(value);
      }
      docs.add(doc);
    }

    void rank() {
      ranked.sort(
          Comparator.<String>comparingInt(v -> -byValue.get(v).size())
              .thenComparing(Comparator.naturalOrder()));
    }
  }

  private final List<ObjectNode> sample;
  private final List<Candidate> candidates;
  private final List<Candidate.Reader> readers;
  private final String[] derivedProperty; // per candidate: the property a synthetic key lives in
  private final List<String[]> clockPaths = new ArrayList<>();
  private final List<DateTimeFormatter> clockFormats = new ArrayList<>();
  private final List<String> hotFields;
  private final List<String[]> hotSegments = new ArrayList<>();
  private final Map<String, ValueIndex> index = new LinkedHashMap<>();
  private final Map<String, String[]> segments = new HashMap<>();
  private final List<Doc> docs = new ArrayList<>();
  private final String idPrefix;
  private int visible;

  Documents(
      List<ObjectNode> sample,
      List<Candidate> candidates,
      Map<String, String> clockFields,
      List<String> hotFields,
      List<String> indexedFields,
      String idPrefix) {
    this.sample = sample;
    this.candidates = candidates;
    this.readers = new ArrayList<>();
    this.derivedProperty = new String[candidates.size()];
    for (int c = 0; c < candidates.size(); c++) {
      Candidate k = candidates.get(c);
      readers.add(k.reader());
      if (k.kind() == Candidate.Kind.SYNTHETIC || k.kind() == Candidate.Kind.BUCKETED) {
        derivedProperty[c] = k.definition().paths().get(0).substring(1);
      }
    }
    for (Map.Entry<String, String> f : new java.util.TreeMap<>(clockFields).entrySet()) {
      clockPaths.add(segmentsOf(f.getKey()));
      clockFormats.add(
          f.getValue().equals("epoch")
              ? null
              : DateTimeFormatter.ofPattern(f.getValue(), java.util.Locale.ROOT)
                  .withZone(ZoneOffset.UTC));
    }
    this.hotFields = List.copyOf(hotFields);
    for (String f : hotFields) {
      hotSegments.add(segmentsOf(f));
    }
    for (String f : indexedFields) {
      index.putIfAbsent(f, new ValueIndex());
    }
    this.idPrefix = idPrefix;
  }

  private String[] segmentsOf(String path) {
    return segments.computeIfAbsent(
        path, p -> PartitionKeyDefinition.segmentsOf(p).toArray(String[]::new));
  }

  int size() {
    return docs.size();
  }

  /** Documents that reads may choose: those created before the current second. */
  int visible() {
    return visible;
  }

  /** Makes every document created so far visible to reads. */
  void publish() {
    visible = docs.size();
  }

  /** Ranks every indexed field's values by their documents (after the preload). */
  void rank() {
    for (ValueIndex v : index.values()) {
      v.rank();
    }
  }

  Doc get(int i) {
    return docs.get(i);
  }

  /**
   * A new document drawn from the sample at {@code millis}, with {@code hot} values (per hot field,
   * or null), registered; its JSON is {@link #json}.
   */
  Doc create(Random random, long millis, JsonNode[] hot) {
    Doc d =
        new Doc(
            idPrefix + docs.size(), random.nextInt(sample.size()), millis, hot, candidates.size());
    ObjectNode json = json(d);
    for (int c = 0; c < candidates.size(); c++) {
      Candidate.Key k = readers.get(c).keyOf(json);
      if (k == null) {
        throw new IllegalArgumentException(
            "sample document "
                + d.sample
                + " has no value for candidate "
                + candidates.get(c).name()
                + ": every sample document must supply every candidate's fields");
      }
      d.keys[c] = k.value();
    }
    int i = docs.size();
    docs.add(d);
    for (Map.Entry<String, ValueIndex> e : index.entrySet()) {
      JsonNode v = Candidate.Reader.scalarAt(json, segmentsOf(e.getKey()));
      if (v != null) {
        e.getValue().add(text(v), i);
      }
    }
    return d;
  }

  /** The document as JSON, rebuilt from its sample: a new object the caller may keep. */
  ObjectNode json(Doc d) {
    ObjectNode n = sample.get(d.sample).deepCopy();
    n.put("id", d.id);
    for (int i = 0; i < clockPaths.size(); i++) {
      DateTimeFormatter f = clockFormats.get(i);
      set(
          n,
          clockPaths.get(i),
          f == null
              ? JsonNodeFactory.instance.numberNode(d.createdMillis / 1000)
              : JsonNodeFactory.instance.textNode(f.format(Instant.ofEpochMilli(d.createdMillis))));
    }
    if (d.hot != null) {
      for (int i = 0; i < d.hot.length; i++) {
        if (d.hot[i] != null) {
          set(n, hotSegments.get(i), d.hot[i]);
        }
      }
    }
    return n;
  }

  /** The document as candidate {@code c} stores it: with its synthetic key's property. */
  ObjectNode forCandidate(ObjectNode json, Doc d, int c) {
    if (derivedProperty[c] == null) {
      return json;
    }
    ObjectNode copy = json.deepCopy();
    copy.put(derivedProperty[c], d.keys[c].toJson().get(0).asText());
    return copy;
  }

  /** The value a document has at {@code path} (a field of its sample, a clock or hot field). */
  JsonNode valueAt(Doc d, String path) {
    for (int i = 0; i < hotFields.size(); i++) {
      if (d.hot != null && d.hot[i] != null && hotFields.get(i).equals(path)) {
        return d.hot[i];
      }
    }
    String[] s = segmentsOf(path);
    for (int i = 0; i < clockPaths.size(); i++) {
      if (java.util.Arrays.equals(clockPaths.get(i), s)) {
        DateTimeFormatter f = clockFormats.get(i);
        return f == null
            ? JsonNodeFactory.instance.numberNode(d.createdMillis / 1000)
            : JsonNodeFactory.instance.textNode(f.format(Instant.ofEpochMilli(d.createdMillis)));
      }
    }
    if (s.length == 1 && s[0].equals("id")) {
      return JsonNodeFactory.instance.textNode(d.id);
    }
    return Candidate.Reader.scalarAt(sample.get(d.sample), s);
  }

  /** Sets a new version of the fields a replace changes (a counter, or text with it). */
  void change(ObjectNode json, Doc d, List<String> changes) {
    for (String path : changes) {
      String[] s = segmentsOf(path);
      JsonNode old = Candidate.Reader.scalarAt(json, s);
      set(
          json,
          s,
          old != null && old.isNumber()
              ? JsonNodeFactory.instance.numberNode(old.asLong() + d.version)
              : JsonNodeFactory.instance.textNode("v" + d.version));
    }
  }

  private static void set(ObjectNode n, String[] path, JsonNode value) {
    ObjectNode at = n;
    for (int i = 0; i < path.length - 1; i++) {
      JsonNode next = at.get(path[i]);
      at = next instanceof ObjectNode o ? o : at.putObject(path[i]);
    }
    at.set(path[path.length - 1], value);
  }

  static String text(JsonNode v) {
    return v.isTextual() ? v.textValue() : v.toString();
  }

  /**
   * A visible document chosen by {@code access} (its field: {@code access.by()}), or -1 when there
   * is none to choose.
   */
  int choose(Random random, Access access) {
    if (visible == 0) {
      return -1;
    }
    ValueIndex v = access.by() == null ? null : index.get(access.by());
    if (v == null || access.distribution() == Access.Distribution.DATA || v.ranked.isEmpty()) {
      return random.nextInt(visible);
    }
    String value =
        switch (access.distribution()) {
          case UNIFORM -> v.ranked.get(random.nextInt(v.ranked.size()));
          case ZIPF -> v.ranked.get(zipfRank(random, v.ranked.size(), access.exponent()));
          case HOT -> {
            if (random.nextDouble() >= access.share()) {
              yield null;
            }
            if (access.values() != null) {
              yield text(access.values().get(random.nextInt(access.values().size())));
            }
            int top = Math.max(1, (int) Math.ceil(access.top() * v.ranked.size()));
            yield v.ranked.get(random.nextInt(top));
          }
          case FIXED -> text(access.value());
          case DATA -> null;
        };
    int d = value == null ? -1 : pick(random, v.byValue.get(value));
    return d >= 0 ? d : random.nextInt(visible);
  }

  /** A visible document whose {@code field} is {@code value}, or -1. */
  int chooseWith(Random random, String field, JsonNode value) {
    ValueIndex v = index.get(field);
    return v == null ? -1 : pick(random, v.byValue.get(text(value)));
  }

  private int pick(Random random, List<Integer> candidatesOfValue) {
    if (candidatesOfValue == null) {
      return -1;
    }
    // only the visible ones: the list is in creation order, so they are a prefix
    int n = candidatesOfValue.size();
    while (n > 0 && candidatesOfValue.get(n - 1) >= visible) {
      n--;
    }
    return n == 0 ? -1 : candidatesOfValue.get(random.nextInt(n));
  }

  /** A rank in [0, n) with Zipf exponent s, by the continuous inverse distribution function. */
  static int zipfRank(Random random, int n, double s) {
    double u = random.nextDouble();
    double r;
    if (Math.abs(s - 1) < 1e-9) {
      r = Math.exp(u * Math.log(n + 1.0));
    } else {
      double a = Math.pow(n + 1.0, 1 - s);
      r = Math.pow(1 + u * (a - 1), 1 / (1 - s));
    }
    return (int) Math.min(n - 1, Math.max(0, Math.floor(r) - 1));
  }
}
