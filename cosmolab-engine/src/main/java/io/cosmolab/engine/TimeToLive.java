package io.cosmolab.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.store.ContainerStore;
import io.cosmolab.engine.store.StoredDocument;
import java.util.Comparator;
import java.util.Iterator;
import java.util.PriorityQueue;

/**
 * Time to live of a container's documents, on the injected clock.
 *
 * <p>Rules (service documentation, "Time to Live"): with the container's {@code defaultTtl} unset,
 * nothing expires and items' {@code ttl} is ignored; with -1, only items that set a positive {@code
 * ttl} expire; with n > 0, items expire n seconds after their last write unless their own {@code
 * ttl} says otherwise (-1: never). An expired document is invisible at once to reads, queries and
 * the change feed, and is deleted (with a change record marked {@code timeToLiveExpired}) on the
 * next write, change-feed read or {@link Container#expireNow()}.
 *
 * <p>Concurrency: the expiry queue is guarded by the container's write lock; {@link #isExpired} is
 * safe without it.
 */
final class TimeToLive {
  private volatile Integer defaultSeconds;
  private final ContainerStore store;
  private final PriorityQueue<Entry> queue =
      new PriorityQueue<>(Comparator.comparingLong(Entry::at));
  private volatile long nextDue = Long.MAX_VALUE;

  private record Entry(long at, String epk, String id, long lsn) {}

  interface Expirer {
    void expire(StoredDocument document, long now);
  }

  TimeToLive(Integer defaultSeconds, ContainerStore store) {
    this.defaultSeconds = defaultSeconds;
    this.store = store;
  }

  Integer defaultSeconds() {
    return defaultSeconds;
  }

  /** Guarded by the write lock: a new default, applied to every stored document. */
  void setDefault(Integer seconds) {
    this.defaultSeconds = seconds;
    queue.clear();
    Iterator<StoredDocument> it = store.scan(EpkRange.FULL);
    while (it.hasNext()) {
      track(it.next());
    }
    refreshNextDue();
  }

  long expiresAt(StoredDocument d) {
    Integer def = defaultSeconds;
    if (def == null) {
      return Long.MAX_VALUE;
    }
    JsonNode itemTtl = d.body().get("ttl");
    long seconds = itemTtl != null && itemTtl.isIntegralNumber() ? itemTtl.longValue() : def;
    if (seconds == -1) {
      return Long.MAX_VALUE;
    }
    return d.timestampMillis() + seconds * 1000;
  }

  boolean isExpired(StoredDocument d, long now) {
    return defaultSeconds != null && now >= expiresAt(d);
  }

  /** Validates an item's {@code ttl}: absent, null, -1 or a positive whole number of seconds. */
  void checkItemTtl(ObjectNode document) {
    JsonNode t = document.get("ttl");
    if (t == null || t.isNull()) {
      return;
    }
    if (!t.isIntegralNumber()
        || !t.canConvertToInt()
        || (t.intValue() != -1 && t.intValue() <= 0)) {
      throw CosmosError.BAD_REQUEST.exception(
          "the document's ttl is %s; it must be -1 (never expire) or a positive whole number of"
              + " seconds",
          t);
    }
  }

  /** Guarded by the write lock: remembers when a new version expires. */
  void track(StoredDocument d) {
    long at = expiresAt(d);
    if (at != Long.MAX_VALUE) {
      queue.add(new Entry(at, d.epk(), d.id(), d.lsn()));
      if (at < nextDue) {
        nextDue = at;
      }
    }
  }

  boolean hasDue(long now) {
    return now >= nextDue;
  }

  /** Guarded by the write lock: deletes every document whose time has come. */
  int expireDue(long now, Expirer expirer) {
    if (now < nextDue) {
      return 0;
    }
    int n = 0;
    while (!queue.isEmpty() && queue.peek().at() <= now) {
      Entry e = queue.poll();
      StoredDocument current = store.get(e.epk(), e.id());
      if (current != null && current.lsn() == e.lsn() && isExpired(current, now)) {
        expirer.expire(current, now);
        n++;
      }
    }
    refreshNextDue();
    return n;
  }

  private void refreshNextDue() {
    nextDue = queue.isEmpty() ? Long.MAX_VALUE : queue.peek().at();
  }
}
