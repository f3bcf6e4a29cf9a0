package io.cosmolab.advisor.stats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What kind of values each candidate path holds, from the first {@value #SAMPLE} documents: what
 * the advisor can say about a key when no workload tells it how the key is read and written.
 *
 * <p>A path is judged by its name and its values, and the judgement is a guess [I]: a property
 * named like an identifier ({@code id}, {@code userId}, {@code tenant_key}) is an {@link
 * Kind#IDENTITY} whatever its values; otherwise one whose values are numbers with many distinct
 * values is a {@link Kind#MEASURE} (a price, an amount, a count: it changes, and queries seldom
 * filter by it exactly); date-time strings are {@link Kind#TIME}; booleans are a {@link Kind#FLAG};
 * anything else is {@link Kind#TEXT}. 90 % of the values seen must agree.
 */
public final class ValueKinds {
  /** Documents looked at. */
  public static final int SAMPLE = 10_000;

  private static final int DISTINCT_CAP = 1_000;

  /** {@code id}, {@code key}; camelCase {@code userId}, {@code skuCode}; snake {@code user_id}. */
  private static final Pattern ID_NAME =
      Pattern.compile(
          "(?i:_?(id|key|uuid|guid|sku))"
              + "|.*[a-z0-9](Id|ID|Key|Uuid|UUID|Guid|Code|Number|No)"
              + "|(?i:.*[_-](id|key|uuid|guid|code|number|no))");

  /** Names of properties that hold a state or a quantity: they change over a document's life. */
  private static final Pattern STATE_NAME =
      Pattern.compile(
          "(?i)(.*[a-z_-])?(status|state|stage|phase|price|amount|total|quantity|qty|count|balance"
              + "|score|rating|stock|version|updatedAt|modifiedAt|updated|modified)");

  /** A path's kind of value. */
  public enum Kind {
    IDENTITY,
    MEASURE,
    STATE,
    TIME,
    FLAG,
    TEXT
  }

  private static final class Tally {
    final String[] segments;
    long seen;
    long numbers;
    long booleans;
    long dateTimes;
    final Set<String> distinctNumbers = new HashSet<>();

    Tally(String path) {
      this.segments = PartitionKeyDefinition.segmentsOf(path).toArray(String[]::new);
    }
  }

  private final Map<String, Tally> paths = new LinkedHashMap<>();
  private long documents;

  public ValueKinds(List<Candidate> candidates) {
    for (Candidate c : candidates) {
      for (String p : c.paths()) {
        paths.computeIfAbsent(p, Tally::new);
      }
    }
  }

  /** Looks at one more document (nothing once {@value #SAMPLE} have been seen). */
  public void add(ObjectNode document) {
    if (documents++ >= SAMPLE) {
      return;
    }
    for (Tally t : paths.values()) {
      JsonNode v = Candidate.Reader.scalarAt(document, t.segments);
      if (v == null || v.isNull()) {
        continue;
      }
      t.seen++;
      if (v.isNumber()) {
        t.numbers++;
        if (t.distinctNumbers.size() < DISTINCT_CAP) {
          t.distinctNumbers.add(v.asText());
        }
      } else if (v.isBoolean()) {
        t.booleans++;
      } else if (v.isTextual() && isDateTime(v.textValue())) {
        t.dateTimes++;
      }
    }
  }

  /** The kind of {@code path}'s values (TEXT for a path never seen with a value). */
  public Kind kindOf(String path) {
    Tally t = paths.get(path);
    String name = lastSegment(path);
    if (ID_NAME.matcher(name).matches()) {
      return Kind.IDENTITY;
    }
    if (STATE_NAME.matcher(name).matches()) {
      return Kind.STATE;
    }
    if (t == null || t.seen == 0) {
      return Kind.TEXT;
    }
    double most = 0.9 * t.seen;
    if (t.numbers >= most) {
      return t.distinctNumbers.size() >= 20 ? Kind.MEASURE : Kind.TEXT;
    }
    if (t.booleans >= most) {
      return Kind.FLAG;
    }
    if (t.dateTimes >= most) {
      return Kind.TIME;
    }
    return Kind.TEXT;
  }

  /** Whether every one of {@code paths} holds date-times. */
  public boolean allTime(List<String> paths) {
    for (String p : paths) {
      if (kindOf(p) != Kind.TIME) {
        return false;
      }
    }
    return !paths.isEmpty();
  }

  /** The places of {@code yyyy-MM}'s digits. */
  private static final int[] DATE_DIGITS = {0, 1, 2, 3, 5, 6};

  /**
   * Whether {@code s} starts as an ISO-8601 date-time does, {@code yyyy-MM} (then anything on the
   * same line: {@code -dd}, {@code Thh:mm:ss.fffZ}, an offset). A loop, not a regex: it runs on
   * every string value of every candidate path of the sample.
   */
  static boolean isDateTime(String s) {
    if (s.length() < 7 || s.charAt(4) != '-') {
      return false;
    }
    for (int i : DATE_DIGITS) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    for (int i = 7; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029') {
        return false; // as the pattern's '.' would not match a line terminator
      }
    }
    return true;
  }

  private static String lastSegment(String path) {
    List<String> s = PartitionKeyDefinition.segmentsOf(path);
    return s.isEmpty() ? "" : s.get(s.size() - 1);
  }
}
