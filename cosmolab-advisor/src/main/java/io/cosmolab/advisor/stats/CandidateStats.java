package io.cosmolab.advisor.stats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.routing.RoutingMap;
import java.util.ArrayList;
import java.util.List;
import org.apache.datasketches.frequencies.ErrorType;
import org.apache.datasketches.frequencies.ItemsSketch;
import org.apache.datasketches.hll.HllSketch;

/**
 * One candidate's statistics over a document stream, in bounded memory whatever the input size:
 *
 * <ul>
 *   <li>distinct key values: an HLL sketch (lgK 12: about 1.6 % relative error at 2 σ);
 *   <li>the heaviest keys by documents and by bytes: frequent-items sketches (1,024 counters;
 *       estimates within {@link #maximumError()} of the truth);
 *   <li>storage and documents per EPK bucket: the hash space cut into {@link EpkBuckets} equal
 *       buckets, each key placed by the engine's own EPK hash. Any layout's per-partition load
 *       follows by summing the buckets inside each range.
 * </ul>
 */
public final class CandidateStats {
  private static final int BUCKETS = EpkBuckets.COUNT;

  private final Candidate candidate;
  private final PartitionKeyDefinition definition;
  private final Candidate.Reader reader;
  private final HllSketch distinct = new HllSketch(12);
  private final HllSketch[] levels;
  private final ItemsSketch<String> byDocuments = new ItemsSketch<>(1024);
  private final ItemsSketch<String> byBytes = new ItemsSketch<>(1024);
  private final long[] bucketDocuments = new long[BUCKETS];
  private final long[] bucketBytes = new long[BUCKETS];
  private long documents;
  private long bytes;
  private long missing;
  private String previous;
  private long changes;
  private long pairs;
  private long rising;
  private int latestBucket;
  private long bytesWithKey;

  public CandidateStats(Candidate candidate) {
    this.candidate = candidate;
    this.definition = candidate.definition();
    this.reader = candidate.reader();
    this.levels =
        new HllSketch
            [candidate.kind() == Candidate.Kind.HIERARCHICAL ? candidate.paths().size() : 0];
    for (int i = 0; i < levels.length; i++) {
      levels[i] = new HllSketch(10);
    }
  }

  /** Distinct values of each level of a hierarchical key alone (empty for other kinds). */
  public double[] distinctPerLevel() {
    double[] out = new double[levels.length];
    for (int i = 0; i < levels.length; i++) {
      out[i] = levels[i].getEstimate();
    }
    return out;
  }

  /**
   * A key seen recently: its text and bucket computed once, its documents and bytes summed here and
   * handed to the frequent-items sketches as one weighted update when the table is flushed.
   */
  private static final class Slot {
    final String text;
    final int bucket;
    long documents;
    long bytes;

    Slot(String text, int bucket) {
      this.text = text;
      this.bucket = bucket;
    }
  }

  /** Keys pre-aggregated before they reach the sketches. */
  private static final int SLOTS = 4096;

  /** Below this share of documents whose key was already in the table, the table is dropped. */
  private static final double MIN_HITS = 0.5;

  private java.util.HashMap<Object, Slot> slots = new java.util.HashMap<>();
  private long hits;
  private long lookups;
  private Slot last;

  /** Counts one document of {@code sizeBytes}. */
  public void add(ObjectNode document, int sizeBytes) {
    documents++;
    bytes += sizeBytes;
    if (slots == null) {
      addDirectly(document, sizeBytes);
      return;
    }
    Object raw = reader.rawKeyOf(document);
    if (raw == null) {
      missing++;
      return;
    }
    bytesWithKey += sizeBytes;
    lookups++;
    Slot slot = slots.get(raw);
    if (slot == null) {
      Candidate.Key key = reader.keyOf(document);
      slot = new Slot(key.text(), bucketOf(key));
      for (int i = 0; i < levels.length; i++) {
        countLevel(levels[i], key.value().components().get(i));
      }
      distinct.update(slot.text); // a repeated key adds nothing to the HLL
      if (slots.size() == SLOTS) {
        flush();
        if (hits < MIN_HITS * lookups) { // mostly new keys: the table only costs
          slots = null;
        }
        hits = 0;
        lookups = 1;
      }
      if (slots != null) {
        slots.put(raw, slot);
      }
    } else {
      hits++;
    }
    slot.documents++;
    slot.bytes += sizeBytes;
    if (slots == null) {
      flush(slot);
    }
    arrive(slot.text, slot == last);
    last = slot;
    latestBucket = slot.bucket;
    bucketDocuments[slot.bucket]++;
    bucketBytes[slot.bucket] += sizeBytes;
  }

  /** The same, without the table: for keys that rarely repeat (ids, timestamps). */
  private void addDirectly(ObjectNode document, int sizeBytes) {
    Candidate.Key key = reader.keyOf(document);
    if (key == null) {
      missing++;
      return;
    }
    String text = key.text();
    bytesWithKey += sizeBytes;
    for (int i = 0; i < levels.length; i++) {
      countLevel(levels[i], key.value().components().get(i));
    }
    arrive(text, false);
    distinct.update(text);
    byDocuments.update(text);
    byBytes.update(text, sizeBytes);
    int b = bucketOf(key);
    latestBucket = b;
    bucketDocuments[b]++;
    bucketBytes[b] += sizeBytes;
  }

  /** Counts one level's value by the value itself, without building its text. */
  private static void countLevel(
      HllSketch level, io.cosmolab.engine.partitioning.PartitionKeyComponent c) {
    if (c instanceof io.cosmolab.engine.partitioning.PartitionKeyComponent.Str s) {
      level.update(s.value());
    } else if (c instanceof io.cosmolab.engine.partitioning.PartitionKeyComponent.Num n) {
      level.update(n.value());
    } else {
      level.update(c.typeMarker()); // true, false, null: one value each
    }
  }

  /** Follows arrival order: does this key rise, fall or repeat against the previous one? */
  private void arrive(String text, boolean same) {
    if (previous != null) {
      pairs++;
      int c = same ? 0 : text.compareTo(previous);
      if (c != 0) {
        changes++;
        if (c > 0) {
          rising++;
        }
      }
    }
    previous = text;
  }

  /** Hands the table's sums to the sketches. */
  private void flush() {
    if (slots != null) {
      for (Slot s : slots.values()) {
        flush(s);
      }
      slots.clear();
      last = null;
    }
  }

  private void flush(Slot s) {
    if (s.documents > 0) {
      byDocuments.update(s.text, s.documents);
      byBytes.update(s.text, s.bytes);
      s.documents = 0;
      s.bytes = 0;
    }
  }

  /** A document's key under this candidate, or null, read with this stream's reader. */
  public Candidate.Key keyOf(JsonNode document) {
    return reader.keyOf(document);
  }

  /** The bucket of a key's EPK under this candidate's definition. */
  public int bucketOf(Candidate.Key key) {
    return EpkBuckets.ofLeadingBits(EffectivePartitionKey.leadingBits(definition, key.value()));
  }

  /** The bucket of the last document's key: where a time-based key's next writes go. */
  public int latestBucket() {
    return latestBucket;
  }

  /** Documents per EPK bucket (a copy). */
  public double[] documentsPerBucket() {
    double[] out = new double[BUCKETS];
    for (int i = 0; i < BUCKETS; i++) {
      out[i] = bucketDocuments[i];
    }
    return out;
  }

  public Candidate candidate() {
    return candidate;
  }

  public long documents() {
    return documents;
  }

  public long bytes() {
    return bytes;
  }

  /** Bytes of the documents that have the key. */
  public long bytesWithKey() {
    return bytesWithKey;
  }

  /** Documents that cannot supply the key. */
  public long missing() {
    return missing;
  }

  /**
   * How much the key follows arrival order: among consecutive documents whose keys differ, the
   * share where the key rises. About 0.5 for keys unrelated to time; near 1 for a timestamp, a date
   * or a sequence, where every new write goes to the newest key. Keys compare as their JSON text,
   * which orders ISO dates and same-width numbers correctly.
   */
  public double monotonicity() {
    return changes == 0 ? 0.5 : rising / (double) changes;
  }

  /**
   * The mean number of consecutive documents that share a key value: 1 when every write goes to
   * another key, large when writes arrive in bursts per key (a date, an hour, a batch id).
   */
  public double meanRun() {
    return (pairs + 1) / (double) (changes + 1);
  }

  public double distinctEstimate() {
    return distinct.getEstimate();
  }

  public double distinctLowerBound() {
    return distinct.getLowerBound(2);
  }

  public double distinctUpperBound() {
    return distinct.getUpperBound(2);
  }

  /** Flushes the table so the sketches hold every document; adding may go on afterwards. */
  private void settle() {
    if (slots != null && !slots.isEmpty()) {
      java.util.HashMap<Object, Slot> kept = slots;
      for (Slot s : kept.values()) {
        flush(s);
      }
    }
  }

  /** A key and its estimated weight (documents or bytes), with the sketch's bounds. */
  public record Heavy(String key, long estimate, long lowerBound, long upperBound) {}

  public List<Heavy> heaviestByDocuments(int n) {
    settle();
    return heaviest(byDocuments, n);
  }

  public List<Heavy> heaviestByBytes(int n) {
    settle();
    return heaviest(byBytes, n);
  }

  /** The largest error of any weight estimate (0 while fewer keys than counters were seen). */
  public long maximumError() {
    settle();
    return Math.max(byDocuments.getMaximumError(), byBytes.getMaximumError());
  }

  private static List<Heavy> heaviest(ItemsSketch<String> sketch, int n) {
    List<Heavy> out = new ArrayList<>();
    for (ItemsSketch.Row<String> r : sketch.getFrequentItems(ErrorType.NO_FALSE_NEGATIVES)) {
      if (out.size() == n) {
        break;
      }
      out.add(new Heavy(r.getItem(), r.getEstimate(), r.getLowerBound(), r.getUpperBound()));
    }
    return out;
  }

  /** Documents and bytes per physical partition of {@code layout}, in layout order. */
  public List<long[]> perPartition(RoutingMap layout) {
    int[] bounds = EpkBuckets.bounds(layout);
    List<long[]> out = new ArrayList<>();
    for (int p = 0; p + 1 < bounds.length; p++) {
      long d = 0;
      long b = 0;
      for (int i = bounds[p]; i < bounds[p + 1]; i++) {
        d += bucketDocuments[i];
        b += bucketBytes[i];
      }
      out.add(new long[] {d, b});
    }
    return out;
  }
}
