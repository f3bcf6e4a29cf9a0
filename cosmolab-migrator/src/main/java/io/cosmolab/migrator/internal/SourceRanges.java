package io.cosmolab.migrator.internal;

import com.azure.cosmos.CosmosContainer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.migrator.RangeProgress;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Progress per source feed range: each range's position and what was copied and applied from it.
 *
 * <p>Why the position stays one SDK continuation. The Java SDK's change-feed continuation over the
 * whole container is already a checkpoint per feed range: base64url of
 *
 * <pre>
 * {"V":1, "Rid":"…", "Mode":"…", "StartFrom":{…},
 *  "Continuation":{"V":1, "Rid":"…", "Range":{"min":"","max":"FF"},
 *                  "Continuation":[{"token":"\"41\"", "range":{"min":"","max":"7F"}},
 *                                  {"token":"\"57\"", "range":{"min":"7F","max":"FF"}}]}}
 * </pre>
 *
 * one (EPK range, token) per range, which the SDK advances range by range (breadth first: each page
 * comes from the range at the head of the list, which then goes to the back) and splits itself on a
 * 410 (a split: the parent's entry is replaced by its children's, each starting at the parent's
 * token; {@code FeedRangeCompositeContinuationImpl.handleFeedRangeGone}). Saving one SDK
 * continuation per range instead would need a feed iterator per range and would repeat that split
 * handling here; the composite gives the same per-range resume point in one string that is saved
 * atomically with the counts. So the state keeps the composite as the position, and {@link
 * RangeProgress} shows what it holds per range ({@link #positions}), with the counts this class
 * adds: each copied document and each applied record is counted in the range that holds its
 * effective partition key (hashed by the engine, bit-exact with the SDK, under the source's key
 * definition).
 *
 * <p>When the ranges change (a split or merge seen in a new continuation), the ranges that are gone
 * keep their counts, marked {@code split}, and the new ones count from zero. Reading the composite
 * is reading the SDK's format, not a documented contract [A]: if it cannot be read, progress is
 * kept as one range over the whole key space, and the run goes on (the position itself is never
 * interpreted by the migrator, only handed back to the SDK).
 *
 * <p>Lag in documents (in LSNs: a transaction's writes share one): the session token of a page read
 * from one physical partition carries that partition's current LSN (cosmolab as the service: issue
 * 14 item 10), and every record carries its own LSN in that numbering ({@code metadata.lsn}, or
 * {@code _lsn} in the latest-version feed); the difference is what the partition holds beyond the
 * page, as the SDK's change-feed estimator computes it. Ranges are pure values; this class holds
 * only the source's key definition, read once, and is confined to the run's thread.
 */
public final class SourceRanges {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A range and its token, as the SDK's continuation holds them. */
  public record Position(String min, String max, String token) {}

  private final CosmosContainer source;
  private final Sdk sdk;
  private PartitionKeyDefinition definition;

  public SourceRanges(CosmosContainer source, Sdk sdk) {
    this.source = source;
    this.sdk = sdk;
  }

  /**
   * The ranges and tokens inside an SDK change-feed continuation, sorted by their lower bound; an
   * empty list when it is not in the form drawn above.
   */
  public static List<Position> positions(String continuation) {
    if (continuation == null) {
      return List.of();
    }
    try {
      JsonNode state = JSON.readTree(Base64.getUrlDecoder().decode(continuation));
      JsonNode tokens = state.path("Continuation").path("Continuation");
      List<Position> out = new ArrayList<>();
      for (JsonNode t : tokens) {
        JsonNode r = t.path("range");
        if (!r.path("min").isTextual() || !r.path("max").isTextual()) {
          return List.of();
        }
        out.add(
            new Position(
                r.get("min").textValue().toUpperCase(Locale.ROOT),
                r.get("max").textValue().toUpperCase(Locale.ROOT),
                t.path("token").isNull() ? null : t.path("token").asText(null)));
      }
      out.sort(Comparator.comparing(Position::min));
      return List.copyOf(out);
    } catch (IOException | IllegalArgumentException e) {
      return List.of();
    }
  }

  /**
   * {@code saved} aligned with the ranges of {@code continuation}: a range still there takes its
   * new position; one that is gone is marked split, its counts kept; a new one starts at zero.
   */
  public static List<RangeProgress> align(List<RangeProgress> saved, String continuation) {
    List<Position> now = positions(continuation);
    if (now.isEmpty()) {
      now = List.of(new Position("", "FF", null));
    }
    Map<String, Position> byRange = new HashMap<>();
    for (Position p : now) {
      byRange.put(p.min() + "," + p.max(), p);
    }
    List<RangeProgress> out = new ArrayList<>();
    Map<String, Boolean> kept = new HashMap<>();
    for (RangeProgress r : saved == null ? List.<RangeProgress>of() : saved) {
      Position p = r.split() ? null : byRange.get(r.min() + "," + r.max());
      if (p != null) {
        kept.put(r.min() + "," + r.max(), true);
        out.add(
            new RangeProgress(
                r.min(), r.max(), p.token(), r.copied(), r.applied(), r.lagDocuments(), false));
      } else {
        out.add(
            new RangeProgress(
                r.min(), r.max(), r.position(), r.copied(), r.applied(), r.lagDocuments(), true));
      }
    }
    for (Position p : now) {
      if (!kept.containsKey(p.min() + "," + p.max())) {
        out.add(new RangeProgress(p.min(), p.max(), p.token(), 0, 0, -1, false));
      }
    }
    out.sort(
        Comparator.comparing(RangeProgress::split)
            .thenComparing(RangeProgress::min)
            .thenComparing(RangeProgress::max));
    return List.copyOf(out);
  }

  /**
   * Counts {@code docs} (source documents, or for feed records the source document each is about:
   * see {@link #sourceDocumentOf}) in the open range that holds each one's effective key.
   */
  public List<RangeProgress> count(
      List<RangeProgress> ranges, List<? extends JsonNode> docs, boolean copied) {
    if (docs.isEmpty()) {
      return ranges;
    }
    long[] add = new long[ranges.size()];
    for (JsonNode d : docs) {
      int i = indexOf(ranges, epkOf(d));
      if (i >= 0) {
        add[i]++;
      }
    }
    List<RangeProgress> out = new ArrayList<>(ranges.size());
    for (int i = 0; i < ranges.size(); i++) {
      RangeProgress r = ranges.get(i);
      out.add(
          new RangeProgress(
              r.min(),
              r.max(),
              r.position(),
              r.copied() + (copied ? add[i] : 0),
              r.applied() + (copied ? 0 : add[i]),
              r.lagDocuments(),
              r.split()));
    }
    return List.copyOf(out);
  }

  /**
   * Sets the lag of the range a page came from (the range of its first record): the partition's LSN
   * in the page's session token less the page's newest record LSN; unchanged when either is
   * unknown.
   */
  public List<RangeProgress> lag(
      List<RangeProgress> ranges, List<JsonNode> records, String sessionToken, boolean latest) {
    long partitionLsn = sessionLsn(sessionToken);
    if (records.isEmpty() || partitionLsn < 0) {
      return ranges;
    }
    long newest = -1;
    for (JsonNode r : records) {
      newest =
          Math.max(newest, (latest ? r.path("_lsn") : r.path("metadata").path("lsn")).asLong(-1));
    }
    int i = indexOf(ranges, epkOf(sourceDocumentOf(records.get(0), latest)));
    if (newest < 0 || i < 0) {
      return ranges;
    }
    List<RangeProgress> out = new ArrayList<>(ranges);
    RangeProgress r = ranges.get(i);
    out.set(
        i,
        new RangeProgress(
            r.min(),
            r.max(),
            r.position(),
            r.copied(),
            r.applied(),
            Math.max(0, partitionLsn - newest),
            r.split()));
    return List.copyOf(out);
  }

  /** Every open range's lag set to 0: the feed had nothing new. */
  public static List<RangeProgress> drained(List<RangeProgress> ranges) {
    List<RangeProgress> out = new ArrayList<>(ranges.size());
    for (RangeProgress r : ranges) {
      out.add(
          r.split()
              ? r
              : new RangeProgress(
                  r.min(), r.max(), r.position(), r.copied(), r.applied(), 0, false));
    }
    return List.copyOf(out);
  }

  /** The open ranges' lag in documents summed; -1 when no range's is known. */
  public static long lagDocuments(List<RangeProgress> ranges) {
    long sum = 0;
    boolean known = false;
    for (RangeProgress r : ranges) {
      if (!r.split() && r.lagDocuments() >= 0) {
        sum += r.lagDocuments();
        known = true;
      }
    }
    return known ? sum : -1;
  }

  /**
   * The source document a feed record is about, for its key: the record itself (latest version),
   * else its current image, its previous one, or a stand-in holding the key the metadata names.
   */
  public JsonNode sourceDocumentOf(JsonNode record, boolean latest) {
    if (latest) {
      return record;
    }
    if (record.path("current").has("id")) {
      return record.get("current");
    }
    if (record.path("previous").has("id")) {
      return record.get("previous");
    }
    return JSON.createObjectNode().set(KEY_STAND_IN, record.path("metadata").path("partitionKey"));
  }

  /** Where {@link #sourceDocumentOf} puts a key it only knows from a record's metadata. */
  private static final String KEY_STAND_IN = "\u0000partitionKey";

  /** The partition's LSN in a session token ({@code rangeId:-1#lsn[#…]}), or -1. */
  static long sessionLsn(String token) {
    if (token == null || token.isEmpty() || token.indexOf(',') >= 0) {
      return -1; // none, or tokens of several partitions
    }
    String[] segments = token.substring(token.indexOf(':') + 1).split("#", -1);
    try {
      return Long.parseLong(segments.length >= 2 ? segments[1] : segments[0]);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private String epkOf(JsonNode doc) {
    if (definition == null) {
      definition =
          io.cosmolab.advisor.input.SdkForms.definition(
              sdk.call(() -> source.read(), r -> r.getRequestCharge())
                  .getProperties()
                  .getPartitionKeyDefinition());
    }
    JsonNode standIn = doc.get(KEY_STAND_IN);
    try {
      PartitionKeyValue value;
      if (standIn != null) {
        if (standIn.isMissingNode()) {
          return ""; // no key known: counted in the first range
        }
        value = PartitionKeyValue.fromJson(Changes.keyArray(standIn, definition.paths()));
      } else {
        value = definition.extract(doc);
      }
      return EffectivePartitionKey.of(definition, value);
    } catch (RuntimeException e) {
      return ""; // a key the engine cannot hash: counted in the first range, the run goes on
    }
  }

  private static int indexOf(List<RangeProgress> ranges, String epk) {
    int found = -1;
    for (int i = 0; i < ranges.size(); i++) {
      RangeProgress r = ranges.get(i);
      if (!r.split() && r.holds(epk)) {
        return i;
      }
      if (!r.split() && found < 0) {
        found = i;
      }
    }
    return found; // not held by any open range (should not happen): the first open one
  }
}
