package io.cosmolab.advisor.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.stats.CandidateStats;
import io.cosmolab.engine.document.DocumentShape;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.datasketches.hll.HllSketch;

/**
 * A uniform sample of the documents (reservoir sampling, seeded, so runs repeat), keeping of each
 * only what the workload model needs: the values of the fields operations address, and each
 * candidate's key and EPK bucket. Also counts each addressed field's distinct values over all
 * documents (HLL), which Zipf and uniform distributions need. Memory is bounded by {@link #SIZE}.
 */
public final class Reservoir {
  /** Documents kept. [I] 8,192 gives the heavy values exactly and the tail within a few percent. */
  public static final int SIZE = 8192;

  /**
   * One sampled document: its addressed fields' values, each candidate's key and EPK bucket, its
   * indexed terms (for the write charges), its size, and for hierarchical candidates its key's
   * value (null for the others), whose whole EPK says where inside one first-level value a storage
   * split falls: hashed when the layout needs it, for the documents kept, not for every one
   * offered.
   */
  @SuppressWarnings("ArrayRecordComponent") // internal rows, never compared
  public record Sampled(
      String[] fields,
      String[] keys,
      int[] buckets,
      int terms,
      int size,
      PartitionKeyValue[] hierarchicalKeys) {}

  private final List<String> fields;
  private final List<String[]> segments = new ArrayList<>();
  private final List<CandidateStats> candidates;
  private final HllSketch[] distinct;
  private final List<Sampled> sample = new ArrayList<>();
  private final Random random = new Random(0x5EED);
  private final boolean terms;
  private long seen;

  /**
   * @param fields the paths operations address ({@code /userId})
   * @param candidates the candidates, in the order their buckets are kept
   */
  public Reservoir(List<String> fields, List<CandidateStats> candidates) {
    this(fields, candidates, true);
  }

  /**
   * @param terms whether to count each sampled document's indexed terms ({@link #meanTerms}): the
   *     write charges need them, the layout model does not, and they walk the whole document
   */
  public Reservoir(List<String> fields, List<CandidateStats> candidates, boolean terms) {
    this.terms = terms;
    this.fields = List.copyOf(fields);
    this.candidates = List.copyOf(candidates);
    this.distinct = new HllSketch[fields.size()];
    for (int i = 0; i < distinct.length; i++) {
      distinct[i] = new HllSketch(12);
      segments.add(PartitionKeyDefinition.segmentsOf(fields.get(i)).toArray(String[]::new));
    }
  }

  /** Offers one document of {@code sizeBytes}. */
  public void offer(ObjectNode document, int sizeBytes) {
    seen++;
    String[] values = distinct.length == 0 ? null : distinctValues(document);
    int slot;
    if (sample.size() < SIZE) {
      slot = sample.size();
      sample.add(null);
    } else {
      long r = (long) (random.nextDouble() * seen);
      if (r >= SIZE) {
        return; // most documents: kept small, so the caller's loop stays as the JIT had it
      }
      slot = (int) r;
    }
    sample.set(slot, sampled(document, sizeBytes, values));
  }

  /** Counts the addressed fields' values in their HLLs, and returns them. */
  private String[] distinctValues(ObjectNode document) {
    String[] values = new String[distinct.length];
    for (int i = 0; i < distinct.length; i++) {
      values[i] = valueAt(document, segments.get(i));
      if (values[i] != null) {
        distinct[i].update(values[i]);
      }
    }
    return values;
  }

  /** What the sample keeps of a document. */
  private Sampled sampled(ObjectNode document, int sizeBytes, String[] values) {
    String[] keys = new String[candidates.size()];
    int[] buckets = new int[candidates.size()];
    PartitionKeyValue[] hierarchical = new PartitionKeyValue[candidates.size()];
    for (int c = 0; c < keys.length; c++) {
      CandidateStats s = candidates.get(c);
      Candidate.Key key = s.keyOf(document);
      keys[c] = key == null ? null : key.text();
      buckets[c] = key == null ? -1 : s.bucketOf(key);
      if (key != null && s.candidate().kind() == Candidate.Kind.HIERARCHICAL) {
        hierarchical[c] = key.value();
      }
    }
    return new Sampled(
        values == null ? new String[0] : values,
        keys,
        buckets,
        terms ? DocumentShape.indexedTerms(document) : 0,
        sizeBytes,
        hierarchical);
  }

  /** A scalar's text at a path, or null. Values compare as text: "42" and 42 are one value. */
  static String valueAt(JsonNode document, String[] segments) {
    JsonNode node = Candidate.Reader.scalarAt(document, segments);
    return node == null || node.isNull() ? null : node.asText();
  }

  /**
   * The mean indexed terms of the documents, estimated from the sample (exact while every document
   * is in it), rounded: counting them walks a whole document, which for every document cost a tenth
   * of a run.
   */
  public int meanTerms() {
    long sum = 0;
    for (Sampled s : sample) {
      sum += s.terms();
    }
    return sample.isEmpty() ? 0 : (int) Math.round(sum / (double) sample.size());
  }

  public List<Sampled> sample() {
    return sample;
  }

  /** The index of an addressed field, or -1. */
  public int fieldIndex(String path) {
    return fields.indexOf(path);
  }

  /** Distinct values of an addressed field over all documents, at least those sampled. */
  public double distinct(int field) {
    return distinct[field].getEstimate();
  }

  /** The index of a candidate, or -1. */
  public int candidateIndex(Candidate c) {
    for (int i = 0; i < candidates.size(); i++) {
      if (candidates.get(i).candidate().equals(c)) {
        return i;
      }
    }
    return -1;
  }
}
