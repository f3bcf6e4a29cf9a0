package io.cosmolab.engine;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.changefeed.ChangeFeedMode;
import io.cosmolab.engine.changefeed.ChangeFeedPage;
import io.cosmolab.engine.changefeed.ChangeFeedRequest;
import io.cosmolab.engine.changefeed.ChangeFeedStart;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.partitioning.PartitionKeyComponent;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.store.ChangeRecord;
import io.cosmolab.engine.store.ContainerStore;
import io.cosmolab.engine.store.StoredDocument;
import io.cosmolab.engine.throughput.PartitionBudget.Admission;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Reads a container's change feed from its change log: latest version (each document once, at its
 * newest LSN, no deletes) or all versions and deletes, over any EPK range, charged to the
 * partitions that served it.
 *
 * <p>Readers take no lock: they read the log only up to the container's committed position, so a
 * continuation never skips a write still being committed. A continuation is a position in the
 * container-wide log, so one taken before a split keeps working on the children. What the items
 * show ({@code _lsn}, {@code metadata.lsn}, {@code previousImageLSN}) and the page's {@link
 * ChangeFeedPage#partitionLsn} are LSNs in the physical partitions' own numbering, as on the
 * service, whose change-feed estimators subtract one from the other.
 */
final class ChangeFeedReader {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final Container container;
  private final CosmosEngine engine;
  private final ContainerStore store;
  private final TimeToLive ttl;

  ChangeFeedReader(Container container, CosmosEngine engine, ContainerStore store, TimeToLive ttl) {
    this.container = container;
    this.engine = engine;
    this.store = store;
    this.ttl = ttl;
  }

  /**
   * Reads a page of the change feed.
   *
   * @throws CosmosException 429 when any partition of the range is throttled (enforce mode)
   */
  ChangeFeedPage read(ChangeFeedRequest request) {
    long now = engine.clock().millis();
    container.expireDue(now);
    String exactEpk = null;
    EpkRange range = request.range();
    if (request.partitionKey() != null) {
      EffectivePartitionKey.KeyScope key =
          EffectivePartitionKey.scopeOf(container.partitionKey(), request.partitionKey());
      exactEpk = key.exactEpk();
      range = range.intersect(key.range());
      if (range == null) {
        return new ChangeFeedPage(List.of(), startLsn(request.start()), 1, 0);
      }
    }
    List<PartitionKeyRange> ranges = container.routing().overlapping(range);
    Admission[] admissions = new Admission[ranges.size()];
    for (int i = 0; i < ranges.size(); i++) {
      admissions[i] = container.admit(ranges.get(i), ranges.get(i).range().min(), now);
    }
    long upTo = container.lsn();
    long after = startLsn(request.start());
    checkRetention(request, after);
    List<ObjectNode> items = new ArrayList<>();
    double[] perRange = new double[ranges.size()];
    long continuation = after;
    boolean full = false;
    // the transactions the page has records of: a page keeps a transaction's records together,
    // past its item count if need be ([D] the .NET SDK's ChangeFeedRequestOptions.PageSizeHint:
    // "transaction scope is preserved"). A transaction's records share their logical partition
    // and their partition's LSN (WritePath).
    java.util.Set<String> transactions = new java.util.HashSet<>();
    // a transaction's records are next to each other in the log unless it is split (see
    // SplitTransactions): then the page whose positions cover its first run takes the records of
    // its later runs too (below), and the pages after pass over them
    SplitTransactions splits = container.splitTransactions();
    boolean anySplit = !splits.isEmpty();
    Iterator<ChangeRecord> it = store.changesAfter(after);
    while (it.hasNext()) {
      ChangeRecord c = it.next();
      if (c.lsn() > upTo) {
        break;
      }
      boolean wanted = isRead(c, range, exactEpk);
      if (wanted && anySplit) {
        long[] blocks = splits.blocksFromLater(c.lsn());
        if (blocks != null && blocks[0] <= after) {
          continuation = c.lsn(); // came with its first run, on the page that covered it
          continue;
        }
      }
      if (wanted) {
        String transaction = c.epk() + '\u0000' + c.rangeLsn();
        if (items.size() >= request.maxItems() && !transactions.contains(transaction)) {
          full = true; // c stays unread: the next page starts at it
          break;
        }
        transactions.add(transaction);
      }
      continuation = c.lsn(); // records outside the range are passed over, whether or not full
      if (!wanted) {
        continue;
      }
      addItem(c, request, now, items, perRange, ranges);
    }
    if (!full) {
      continuation = Math.max(continuation, upTo); // caught up: everything to upTo was seen
    }
    if (anySplit) {
      for (long[] blocks : splits.withFirstRunIn(after, continuation)) {
        takeLaterRuns(blocks, continuation, range, exactEpk, request, now, items, perRange, ranges);
      }
    }
    double reads = 0;
    for (double r : perRange) {
      reads += r;
    }
    double total = engine.costs().feed(reads);
    perRange[0] += total - reads; // the minimum charge of a page, if any, goes to the first range
    for (int i = 0; i < ranges.size(); i++) {
      container.spendQuery(ranges.get(i), admissions[i], perRange[i], now);
    }
    // read after the log: at or above the LSN of every item on the page
    return new ChangeFeedPage(items, continuation, total, container.lsnOver(ranges));
  }

  /** Whether the page reads {@code c}: in its EPK range, and of its key if it names one. */
  private static boolean isRead(ChangeRecord c, EpkRange range, String exactEpk) {
    return range.contains(c.epk()) && (exactEpk == null || exactEpk.equals(c.epk()));
  }

  /** Adds the feed's item of {@code c}, if it has one, and charges its partition for it. */
  private void addItem(
      ChangeRecord c,
      ChangeFeedRequest request,
      long now,
      List<ObjectNode> items,
      double[] perRange,
      List<PartitionKeyRange> ranges) {
    ObjectNode item = feedItem(c, request.mode(), now);
    if (item != null) {
      items.add(item);
      perRange[PartitionKeyRange.indexOfOwner(ranges, c.epk())] +=
          engine.costs().pointRead(c.sizeBytes(), false);
    }
  }

  /**
   * Adds the records of a split transaction's later runs ({@code blocks}, {start, end} pairs, its
   * first run first) that lie past the page's {@code continuation}, and are in the range read: past
   * the page's item count, as the rest of a transaction is. The page's positions covered the first
   * run, so no page after it reads these (they are passed over by position, whether or not the log
   * still holds the first run's records, which retention may drop between two pages).
   */
  private void takeLaterRuns(
      long[] blocks,
      long continuation,
      EpkRange range,
      String exactEpk,
      ChangeFeedRequest request,
      long now,
      List<ObjectNode> items,
      double[] perRange,
      List<PartitionKeyRange> ranges) {
    for (int i = 2; i < blocks.length; i += 2) {
      if (blocks[i + 1] <= continuation) {
        continue; // read in its place on this page
      }
      Iterator<ChangeRecord> run = store.changesAfter(Math.max(blocks[i] - 1, continuation));
      while (run.hasNext()) {
        ChangeRecord c = run.next();
        if (c.lsn() > blocks[i + 1]) {
          break;
        }
        if (isRead(c, range, exactEpk)) {
          addItem(c, request, now, items, perRange, ranges);
        }
      }
    }
  }

  /** An all-versions reader resuming below the retention horizon may have lost history: 400. */
  private void checkRetention(ChangeFeedRequest request, long after) {
    Integer policy = container.changeFeedRetentionMinutes();
    if (request.mode() == ChangeFeedMode.ALL_VERSIONS_AND_DELETES
        && policy != null
        && policy == 0) {
      throw CosmosError.BAD_REQUEST.exception(
          "container '%s' has a latest-version change feed policy (retentionDuration 0): the"
              + " all-versions-and-deletes feed needs a policy that keeps history, such as"
              + " ChangeFeedPolicy.createAllVersionsAndDeletesPolicy(Duration.ofMinutes(10))",
          container.id());
    }
    ChangeLogRetention retention = container.retention();
    long horizon = retention.horizon();
    if (request.mode() == ChangeFeedMode.ALL_VERSIONS_AND_DELETES && after < horizon) {
      throw CosmosError.BAD_REQUEST.exception(
          "the all-versions-and-deletes change feed keeps %s of history (at most %d LSNs), and"
              + " this continuation (LSN %d) is below LSN %d, before which versions and deletes"
              + " may be gone. Start again from now, or read the latest-version feed, which keeps every"
              + " document's newest version.",
          retention.retention().window(), retention.retention().maxHistory(), after, horizon);
    }
  }

  private long startLsn(ChangeFeedStart start) {
    if (start instanceof ChangeFeedStart.Beginning) {
      return 0;
    }
    if (start instanceof ChangeFeedStart.Now) {
      return container.lsn();
    }
    if (start instanceof ChangeFeedStart.Continuation c) {
      if (c.lsn() < 0) {
        throw CosmosError.BAD_REQUEST.exception(
            "change feed continuation %d is not a valid LSN", c.lsn());
      }
      return c.lsn();
    }
    Instant time = ((ChangeFeedStart.PointInTime) start).time();
    long millis = time.toEpochMilli();
    long upTo = container.lsn();
    Iterator<ChangeRecord> it = store.changesAfter(0);
    long before = 0;
    while (it.hasNext()) {
      ChangeRecord c = it.next();
      if (c.lsn() > upTo || c.timestampMillis() >= millis) {
        return before;
      }
      before = c.lsn();
    }
    return before;
  }

  /**
   * A delete's key as the service writes it: an object from each key path's property name to its
   * value, every level of a hierarchical key [D: .NET ChangeFeedMetadata.PartitionKey; the Azure
   * Functions typing, "following the wire format"], named by {@link
   * PartitionKeyDefinition#propertyNameOf}; an undefined component is left out.
   */
  private ObjectNode keyByProperty(PartitionKeyValue key) {
    ObjectNode out = NODES.objectNode();
    List<String> paths = container.partitionKey().paths();
    for (int i = 0; i < paths.size() && i < key.size(); i++) {
      PartitionKeyComponent component = key.components().get(i);
      if (component instanceof PartitionKeyComponent.Undefined) {
        continue;
      }
      out.set(PartitionKeyDefinition.propertyNameOf(paths.get(i)), component.toJson());
    }
    return out;
  }

  private ObjectNode feedItem(ChangeRecord c, ChangeFeedMode mode, long now) {
    if (mode == ChangeFeedMode.LATEST_VERSION) {
      if (c.operation() == ChangeRecord.Operation.DELETE) {
        return null;
      }
      StoredDocument current = store.get(c.epk(), c.id());
      if (current == null || current.lsn() != c.lsn() || ttl.isExpired(current, now)) {
        return null; // superseded, deleted or expired: shown at its newest LSN, or not at all
      }
      ObjectNode doc = c.current().deepCopy();
      doc.put("_lsn", c.rangeLsn());
      return doc;
    }
    ObjectNode envelope = NODES.objectNode();
    if (c.current() != null) {
      ObjectNode cur = c.current().deepCopy();
      cur.put("_lsn", c.rangeLsn());
      envelope.set("current", cur);
    } else {
      envelope.set("current", NODES.objectNode());
    }
    // the service gives no previous image unless the container opted in (docs/engine.md)
    if (c.previous() != null && engine.changeFeedPreviousImages()) {
      envelope.set("previous", c.previous().deepCopy());
    }
    ObjectNode meta = envelope.putObject("metadata");
    meta.put("operationType", c.operation().wireName());
    meta.put("lsn", c.rangeLsn());
    meta.put("crts", c.timestampMillis() / 1000);
    if (c.previousLsn() > 0) {
      meta.put("previousImageLSN", c.previousLsn());
    }
    if (c.operation() == ChangeRecord.Operation.DELETE) {
      // on deletes only, as the service's records have it [D "Change feed modes"; the Java SDK's
      // ChangeFeedProcessorItemTest reads none on a create]
      meta.put("timeToLiveExpired", c.timeToLiveExpired());
      meta.put("id", c.id());
      meta.set("partitionKey", keyByProperty(c.partitionKey()));
    }
    return envelope;
  }
}
