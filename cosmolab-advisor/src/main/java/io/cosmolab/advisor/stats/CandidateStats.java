package io.cosmolab.advisor.stats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
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
 *   <li>the heaviest keys by documents and by bytes: frequent-items sketches (1,024 counters), fed
 *       from a table that sums each key's documents and bytes over a window of up to {@value
 *       #SLOTS} distinct keys. A key seen only once in a window is not passed on: near-unique keys
 *       (ids, timestamps) then cost the sketches almost nothing. Each window that drops keys widens
 *       every key's upper bound by one document and by the largest document dropped, so the bounds
 *       stay deterministic: the true weight of every key lies between {@link Heavy#lowerBound()}
 *       and {@link Heavy#upperBound()}, and estimates are within {@link #maximumError()} of it;
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

  /** Documents and bytes per EPK bucket, side by side: bucket b at 2b and 2b + 1. */
  private final long[] bucketLoad = new long[2 * BUCKETS];

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
   * Distinct keys per window. Dropping single sightings widens the bounds by one document per
   * window: against the sketches' own error (about 3.5 / 1,024 of all documents) that is about 10 %
   * more, whatever the input size.
   */
  private static final int SLOTS = 3072;

  /**
   * The window: open addressing over the keys' 64-bit text hashes, at most three quarters full, in
   * one primitive array of two longs per slot, so twenty candidates' windows (64 KB each) stay in a
   * core's cache. A key's text is kept from its second document on: keys seen once, most of a
   * near-unique candidate's, leave nothing for the collector to copy.
   */
  private static final int CAPACITY = 4096;

  /**
   * A slot's first long: the key's hash with its low bits replaced by the key's EPK bucket; 0 marks
   * an empty slot. Two keys whose hashes agree in the other 52 bits would share a slot: about
   * 2<sup>-52</sup> per pair, the same kind of assumption as the hash itself.
   */
  private static final long BUCKET_BITS = 0xFFFL;

  /** A slot's second long: documents in the low 24 bits, bytes in the high 40. */
  private static final int BYTES_SHIFT = 24;

  private static final long DOCUMENTS_MASK = (1L << BYTES_SHIFT) - 1;
  private static final long MOST_BYTES = (1L << (64 - BYTES_SHIFT)) - 1;

  static {
    if (BUCKETS > BUCKET_BITS + 1) {
      throw new AssertionError("EPK buckets must fit in a slot's " + BUCKET_BITS + " mask");
    }
  }

  /** Slot s's key (tag and bucket) at 2s and its counts at 2s + 1: one cache line holds four. */
  private final long[] window = new long[2 * CAPACITY];

  private final String[] slotText = new String[CAPACITY];
  private int used;
  private long lastHash;

  /**
   * Windows (and hand-ons for a report) that dropped keys seen once: each key's count may be short
   * by one per window.
   */
  private long droppedWindows;

  /** Over those windows, the sum of the largest document dropped from each. */
  private long droppedBytesBound;

  // the bytes of the largest key a window saw once and dropped: all there is when every key is
  // unique to its document, and nothing reaches the sketches
  private long largestDroppedBytes;

  /** Counts one document of {@code sizeBytes}. */
  public void add(ObjectNode document, int sizeBytes) {
    add(document, sizeBytes, reader.hashOf(document));
  }

  /**
   * The hash of a document's key under this candidate (0 when it has none): the first of {@link
   * #add(ObjectNode, int, long)}'s inputs, for callers that interleave many candidates.
   */
  public long keyHash(ObjectNode document) {
    return reader.hashOf(document);
  }

  /**
   * Reads the window slot where {@code hash} would be looked up, and returns what it read. A caller
   * that touches every candidate's slot before adding to any lets the cache misses of twenty
   * windows overlap instead of queueing one after another.
   */
  public long touch(long hash) {
    return window[2 * home(hash)];
  }

  /** Counts one document of {@code sizeBytes} whose key hash is {@code hash} ({@link #keyHash}). */
  public void add(ObjectNode document, int sizeBytes, long hash) {
    documents++;
    bytes += sizeBytes;
    if (hash == 0) {
      missing++;
      return;
    }
    bytesWithKey += sizeBytes;
    int slot = slotOf(hash);
    int at = 2 * slot;
    String text = slotText[slot];
    if (window[at] == 0) { // first seen in this window
      Candidate.Key key = reader.keyOf(document);
      text = key.text();
      for (int i = 0; i < levels.length; i++) {
        countLevel(levels[i], key.value().components().get(i));
      }
      distinct.update(hash); // a repeated key adds nothing to the HLL
      if (used == SLOTS) {
        closeWindow();
        slot = slotOf(hash);
        at = 2 * slot;
      }
      used++;
      window[at] = tagOf(hash) | bucketOf(key);
    } else if (text == null) { // seen twice: now the text is worth keeping
      text = reader.keyOf(document).text();
      slotText[slot] = text;
    } else if ((window[at + 1] & DOCUMENTS_MASK) == DOCUMENTS_MASK
        || (window[at + 1] >>> BYTES_SHIFT) > MOST_BYTES - sizeBytes) {
      flush(slot); // the packed counts would overflow: hand them on now
    }
    window[at + 1] += 1 + ((long) sizeBytes << BYTES_SHIFT);
    arrive(text, hash == lastHash);
    lastHash = hash;
    int bucket = (int) (window[at] & BUCKET_BITS);
    latestBucket = bucket;
    bucketLoad[2 * bucket]++;
    bucketLoad[2 * bucket + 1] += sizeBytes;
  }

  /** The slot holding {@code hash}, or the empty one where it goes. */
  private int slotOf(long hash) {
    long tag = tagOf(hash);
    int i = home(hash);
    while (window[2 * i] != 0 && (window[2 * i] & ~BUCKET_BITS) != tag) {
      i = (i + 1) & (CAPACITY - 1);
    }
    return i;
  }

  /** The slot where the search for {@code hash} starts. */
  private static int home(long hash) {
    return (int) hash & (CAPACITY - 1);
  }

  /** The bits of {@code hash} a slot keeps: never 0, which marks an empty slot. */
  private static long tagOf(long hash) {
    long tag = hash & ~BUCKET_BITS;
    return tag == 0 ? ~BUCKET_BITS : tag;
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

  /** Hands the window's sums on (see {@link #handOn()}) and empties it. */
  private void closeWindow() {
    handOn();
    java.util.Arrays.fill(window, 0);
    java.util.Arrays.fill(slotText, null);
    used = 0;
    lastHash = 0;
  }

  /**
   * Hands every key's sums in the window to the sketches, except keys with one document since the
   * last hand-on: those are dropped, and the bounds widened to cover them (one document, and the
   * largest dropped document's bytes). The slots stay, with their counts at zero.
   */
  private void handOn() {
    long largestDropped = -1;
    for (int i = 0; i < CAPACITY; i++) {
      long counts = window[2 * i + 1];
      if ((counts & DOCUMENTS_MASK) == 1) {
        largestDropped = Math.max(largestDropped, counts >>> BYTES_SHIFT);
        window[2 * i + 1] = 0;
      } else if (counts != 0) {
        flush(i);
      }
    }
    if (largestDropped >= 0) {
      droppedWindows++;
      droppedBytesBound += largestDropped;
      largestDroppedBytes = Math.max(largestDroppedBytes, largestDropped);
    }
  }

  /** Hands one slot's sums to the sketches. */
  private void flush(int slot) {
    long counts = window[2 * slot + 1];
    if (counts != 0) {
      byDocuments.update(slotText[slot], counts & DOCUMENTS_MASK);
      byBytes.update(slotText[slot], counts >>> BYTES_SHIFT);
      window[2 * slot + 1] = 0;
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
    return perBucket(0);
  }

  /** Bytes per EPK bucket (a copy). */
  public double[] bytesPerBucket() {
    return perBucket(1);
  }

  /** One column of {@link #bucketLoad}: 0 documents, 1 bytes. */
  private double[] perBucket(int column) {
    double[] out = new double[BUCKETS];
    for (int i = 0; i < BUCKETS; i++) {
      out[i] = bucketLoad[2 * i + column];
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

  /**
   * Distinct key values, estimated by the sketch; never more than the documents that have a value
   * (over a sample of all-distinct values the sketch's estimate can overshoot the count: 20,062 for
   * 20,000 documents).
   */
  public double distinctEstimate() {
    return Math.min(distinct.getEstimate(), (double) (documents - missing));
  }

  public double distinctLowerBound() {
    return Math.min(distinct.getLowerBound(2), (double) (documents - missing));
  }

  public double distinctUpperBound() {
    return Math.min(distinct.getUpperBound(2), (double) (documents - missing));
  }

  /**
   * A key and its estimated weight (documents or bytes), with deterministic bounds: the sketch's,
   * the upper one widened by what closed windows dropped.
   */
  public record Heavy(String key, long estimate, long lowerBound, long upperBound) {}

  public List<Heavy> heaviestByDocuments(int n) {
    handOn(); // the sketches then hold every document; adding may go on afterwards
    return heaviest(byDocuments, droppedWindows, n);
  }

  public List<Heavy> heaviestByBytes(int n) {
    handOn();
    return heaviest(byBytes, droppedBytesBound, n);
  }

  /**
   * The bytes of the largest key that was seen in one document of its window and so never reached
   * the sketches (0 if none). When {@link #heaviestByBytes} is empty, every key was such a key, and
   * this is the largest.
   */
  public long largestSingleDocumentKeyBytes() {
    handOn();
    return largestDroppedBytes;
  }

  /**
   * The largest error of any weight estimate, in documents or bytes (0 while fewer keys than
   * counters were seen and no window closed).
   */
  public long maximumError() {
    handOn();
    return Math.max(
        byDocuments.getMaximumError() + droppedWindows,
        byBytes.getMaximumError() + droppedBytesBound);
  }

  private static List<Heavy> heaviest(ItemsSketch<String> sketch, long dropped, int n) {
    List<Heavy> out = new ArrayList<>();
    for (ItemsSketch.Row<String> r : sketch.getFrequentItems(ErrorType.NO_FALSE_NEGATIVES)) {
      if (out.size() == n) {
        break;
      }
      out.add(
          new Heavy(r.getItem(), r.getEstimate(), r.getLowerBound(), r.getUpperBound() + dropped));
    }
    return out;
  }

  /**
   * Documents and bytes per physical partition of a layout given by its bounds in fractional
   * buckets ({@code Layouts.Layout#bounds}), in layout order.
   */
  public List<long[]> perPartition(double[] bounds) {
    double[] d = EpkBuckets.sum(documentsPerBucket(), bounds);
    double[] b = EpkBuckets.sum(bytesPerBucket(), bounds);
    List<long[]> out = new ArrayList<>();
    for (int p = 0; p < d.length; p++) {
      out.add(new long[] {Math.round(d[p]), Math.round(b[p])});
    }
    return out;
  }
}
