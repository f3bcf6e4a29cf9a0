package io.cosmolab.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.store.ContainerStore;
import io.cosmolab.engine.store.StoredDocument;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Time to live of a container's documents, on the injected clock.
 *
 * <p>Rules (service documentation, "Time to Live"): with the container's {@code defaultTtl} unset,
 * nothing expires and items' {@code ttl} is ignored; with -1, only items that set a positive {@code
 * ttl} expire; with n > 0, items expire n seconds after their last write unless their own {@code
 * ttl} says otherwise (-1: never). An expired document is invisible at once to reads, queries and
 * the change feed, and is deleted (with a change record marked {@code timeToLiveExpired}) by the
 * engine's housekeeping after the next write, by a change-feed read, or by {@link
 * Container#expireNow()}.
 *
 * <p>Concurrency: the expiry queue is a monitor (writes to any partition add to it, those that
 * expire only); a new default is set while the container's layout is held exclusively (no write in
 * flight, so a write reads the default without the monitor); {@link #isExpired} is safe anywhere.
 * Taking a due entry from the queue does not delete the document: the container does that under the
 * document's partition lock, checking it is still that version.
 */
final class TimeToLive {
  private volatile Integer defaultSeconds;
  private final ContainerStore store;
  private final PriorityQueue<Entry> queue =
      new PriorityQueue<>(Comparator.comparingLong(Entry::at));
  private volatile long nextDue = Long.MAX_VALUE;

  /** A document version due to expire at {@code at} (epoch millis). */
  record Entry(long at, String epk, String id, long lsn) {}

  TimeToLive(Integer defaultSeconds, ContainerStore store) {
    this.defaultSeconds = defaultSeconds;
    this.store = store;
  }

  Integer defaultSeconds() {
    return defaultSeconds;
  }

  /** With no write in flight: a new default, applied to every stored document. */
  synchronized void setDefault(Integer seconds) {
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
    if (t == null) {
      return;
    }
    // null too: the service refuses it (serializers that write "ttl": null for an unset field
    // meet this in Azure, so they meet it here) [S: its message, quoted in MicrosoftDocs
    // azure-docs#107151]
    if (!t.isIntegralNumber()
        || !t.canConvertToInt()
        || (t.intValue() != -1 && t.intValue() <= 0)) {
      throw CosmosError.BAD_REQUEST.exception(
          "The input ttl '%s' is invalid. Ensure to provide a nonzero positive integer less than"
              + " or equal to '2147483647', or '-1' which means never expire.",
          t.isTextual() ? t.textValue() : t.toString());
    }
  }

  /**
   * Remembers when a new version expires. A version that never does (time to live off, the default,
   * or an item's -1) takes no lock: every write of every partition comes here.
   */
  void track(StoredDocument d) {
    long at = expiresAt(d);
    if (at == Long.MAX_VALUE) {
      return;
    }
    synchronized (this) {
      queue.add(new Entry(at, d.epk(), d.id(), d.lsn()));
      if (at < nextDue) {
        nextDue = at;
      }
    }
  }

  boolean hasDue(long now) {
    return now >= nextDue;
  }

  /** Takes the entries whose time has come; the caller deletes what is still that version. */
  synchronized List<Entry> takeDue(long now) {
    if (now < nextDue) {
      return List.of();
    }
    List<Entry> due = new ArrayList<>();
    while (!queue.isEmpty() && queue.peek().at() <= now) {
      due.add(queue.poll());
    }
    refreshNextDue();
    return due;
  }

  /** Whether {@code d} is the version an entry was taken for, and has expired. */
  boolean stillDue(Entry e, StoredDocument d, long now) {
    return d != null && d.lsn() == e.lsn() && isExpired(d, now);
  }

  private void refreshNextDue() {
    nextDue = queue.isEmpty() ? Long.MAX_VALUE : queue.peek().at();
  }
}
