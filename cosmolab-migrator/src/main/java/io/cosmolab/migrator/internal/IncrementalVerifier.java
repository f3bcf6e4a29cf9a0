package io.cosmolab.migrator.internal;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.SqlQuerySpec;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cosmolab.migrator.MigrationState;
import io.cosmolab.migrator.OnMissing;
import io.cosmolab.migrator.TargetKey;
import io.cosmolab.migrator.VerifyReport;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Verification during catch-up, on what is settled, and at the end on what changed since.
 *
 * <p>How. The run marks each logical partition of the target it writes while tailing (every change
 * of the source lands in the target partitions it moves a document into or out of, so a partition
 * the run has not written since it was verified holds what it held then, on both sides), with the
 * time of the write; the marks are saved in the state with the feed position, in one atomic write,
 * so a crash loses none (a replayed page marks again). A pass runs with the feed drained. The first
 * reads both containers whole (the copy wrote every partition); later ones read only the marked
 * partitions that have had no write for the settle interval: the target's by a query in that
 * partition, the source's by a query on the key's source values ({@link TargetKey#sourceQuery}),
 * each result kept only if it transforms to that partition. Beyond {@link #QUERY_LIMIT} partitions,
 * or where no query can be written (a computed key whose source values are not known), the pass
 * reads the whole container of that side instead, still comparing only those partitions. Each
 * partition read is compared (count and order-independent hash, then ids) and its result replaces
 * its entry in the ledger ({@code verify.json}); its mark is cleared. The final pass (cutover, the
 * source quiet) ignores the settle interval and also reads again every partition the ledger has as
 * differing.
 *
 * <p>What settled means here: a partition that changed within the settle interval may be changed
 * again by a write the feed has not shown yet; it waits. A source write that lands while a pass
 * reads can still make a partition look different (its feed record marks the partition again, so it
 * is read again later): a difference listed during catch-up may be a write in flight, and only the
 * final pass, with the writers stopped, decides. Writes made to the target by anyone but the
 * migrator are not marked: a partition verified once and not written by the run since is not read
 * again ({@code migrate verify} reads everything).
 *
 * <p>Confined to the run's thread.
 */
public final class IncrementalVerifier {
  /** Beyond this many partitions to read, a pass reads whole containers rather than querying. */
  static final int QUERY_LIMIT = 100;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final TargetKey key;
  private final OnMissing onMissing;
  private final Reads reads;
  private final CosmosContainer source;
  private final CosmosContainer target;
  private final StateStore store;

  public IncrementalVerifier(
      TargetKey key,
      OnMissing onMissing,
      Reads reads,
      CosmosContainer source,
      CosmosContainer target,
      StateStore store) {
    this.key = key;
    this.onMissing = onMissing;
    this.reads = reads;
    this.source = source;
    this.target = target;
    this.store = store;
  }

  /**
   * What a pass did: the report over every partition verified so far, and the marks left (those not
   * settled yet).
   */
  public record Pass(VerifyReport report, Map<String, MigrationState.Changed> changed) {}

  /** Whether a pass has something to read now. */
  public static boolean due(MigrationState s, long now, long settleMillis) {
    if (!s.fullyVerified()) {
      return true;
    }
    for (MigrationState.Changed c : s.changed().values()) {
      if (now - c.atMillis() >= settleMillis) {
        return true;
      }
    }
    return false;
  }

  /**
   * A pass: the first one reads everything, later ones the marked partitions settled for {@code
   * settleMillis} ({@code last}: every marked one, and those differing).
   */
  public Pass pass(MigrationState s, long now, long settleMillis, boolean last) {
    VerifyLedger ledger = store.loadLedger();
    Map<String, VerifyLedger.Entry> entries = new TreeMap<>(ledger.partitions());
    Map<String, MigrationState.Changed> still = new TreeMap<>(s.changed());
    Set<String> wanted = new TreeSet<>();
    for (Map.Entry<String, MigrationState.Changed> c : s.changed().entrySet()) {
      if (last || now - c.getValue().atMillis() >= settleMillis) {
        wanted.add(c.getKey());
      }
    }
    if (last) {
      entries.forEach(
          (p, e) -> {
            if (!e.equal()) {
              wanted.add(p);
            }
          });
    }
    Map<String, Map<String, Long>> expected = new TreeMap<>();
    Map<String, Map<String, Long>> actual = new TreeMap<>();
    Map<String, String> values = new HashMap<>();
    long read = 0;
    Set<String> compared;
    if (!s.fullyVerified() || wanted.size() > QUERY_LIMIT) {
      boolean all = !s.fullyVerified();
      read +=
          Verifier.digestSource(
              key, onMissing, reads.all(source), p -> all || wanted.contains(p), expected, values);
      read += Verifier.digestTarget(key, reads.all(target), p -> all || wanted.contains(p), actual);
      compared = new TreeSet<>(all ? expected.keySet() : wanted);
      if (all) {
        compared.addAll(actual.keySet());
        compared.addAll(entries.keySet());
        // a partition changed too recently waits, unless this is the last pass
        compared.removeIf(p -> still.containsKey(p) && !wanted.contains(p));
      }
    } else {
      compared = wanted;
      Set<String> scan = new TreeSet<>();
      for (String p : wanted) {
        read +=
            Verifier.digestTarget(
                key,
                reads.all(target, new SqlQuerySpec("SELECT * FROM c"), TargetKey.sdkKeyOfText(p)),
                p::equals,
                actual);
        SqlQuerySpec q = key.sourceQuery(p, sourceValues(p, still, entries), onMissing);
        if (q == null) {
          scan.add(p);
        } else {
          read +=
              Verifier.digestSource(
                  key, onMissing, reads.all(source, q), p::equals, expected, values);
        }
      }
      if (!scan.isEmpty()) {
        read +=
            Verifier.digestSource(
                key, onMissing, reads.all(source), scan::contains, expected, values);
      }
    }
    for (String p : compared) {
      Map<String, Long> e = expected.getOrDefault(p, Map.of());
      Map<String, Long> a = actual.getOrDefault(p, Map.of());
      still.remove(p);
      if (e.isEmpty() && a.isEmpty()) {
        entries.remove(p);
        continue;
      }
      String v = values.get(p);
      if (v == null) {
        v = sourceValuesText(p, s.changed(), entries);
      }
      entries.put(p, Verifier.compare(p, e, a, v, now));
    }
    store.saveLedger(new VerifyLedger(entries));
    return new Pass(report(entries, compared.size(), read, still.size()), still);
  }

  /** The report the ledger makes: every partition verified so far. */
  public static VerifyReport report(
      Map<String, VerifyLedger.Entry> entries, long partitionsRead, long read, long pending) {
    long differing = 0;
    long sourceDocs = 0;
    long targetDocs = 0;
    List<VerifyReport.Difference> differences = new ArrayList<>();
    for (VerifyLedger.Entry e : entries.values()) {
      sourceDocs += e.sourceDocuments();
      targetDocs += e.targetDocuments();
      if (!e.equal()) {
        differing++;
        differences.addAll(e.differences());
      }
    }
    return new VerifyReport(
        entries.size(),
        differing,
        sourceDocs,
        targetDocs,
        differences,
        partitionsRead,
        read,
        pending);
  }

  private static JsonNode sourceValues(
      String p,
      Map<String, MigrationState.Changed> changed,
      Map<String, VerifyLedger.Entry> entries) {
    String text = sourceValuesText(p, changed, entries);
    if (text == null) {
      return null;
    }
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      return null;
    }
  }

  private static String sourceValuesText(
      String p,
      Map<String, MigrationState.Changed> changed,
      Map<String, VerifyLedger.Entry> entries) {
    MigrationState.Changed c = changed.get(p);
    if (c != null && c.sourceValues() != null) {
      return c.sourceValues();
    }
    VerifyLedger.Entry e = entries.get(p);
    return e == null ? null : e.sourceValues();
  }
}
