package io.cosmolab.engine.testing;

import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.store.ChangeRecord;
import io.cosmolab.engine.store.ContainerStore;
import io.cosmolab.engine.store.DocumentStore;
import io.cosmolab.engine.store.InMemoryDocumentStore;
import io.cosmolab.engine.store.StoredDocument;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The in-memory store with an injected fault: a chosen read blocks until the test releases it, as a
 * read behind a held lock or a slow disk would. The stall ends by itself after 30 s, so a failing
 * test cannot hang the build.
 */
public final class StallingStore implements DocumentStore {
  private final DocumentStore inner = new InMemoryDocumentStore();
  private final CountDownLatch entered = new CountDownLatch(1);
  private final CountDownLatch released = new CountDownLatch(1);
  private volatile String stalledId;
  private final AtomicBoolean stallNextScan = new AtomicBoolean();
  private final AtomicBoolean stallNextScanLate = new AtomicBoolean();

  /** The in-memory store, with no fault until one is asked for. */
  public StallingStore() {}

  /** Every read of the document with this id stalls, until {@link #release}. */
  public void stallReadsOf(String id) {
    stalledId = id;
  }

  /** The next scan (a query's, a feed's) stalls, until {@link #release}. */
  public void stallNextScan() {
    stallNextScan.set(true);
  }

  /**
   * The next scan reads its whole range, then stalls until {@link #release}, then yields what it
   * read: versions that writes during the stall may have replaced, as a weakly consistent iterator
   * can.
   */
  public void stallNextScanAfterReading() {
    stallNextScanLate.set(true);
  }

  /** Waits until a read has stalled. */
  public boolean awaitStalled() throws InterruptedException {
    return entered.await(10, TimeUnit.SECONDS);
  }

  /** Lets the stalled reads go on, and the later ones pass. */
  public void release() {
    stalledId = null;
    released.countDown();
  }

  private void stall() {
    entered.countDown();
    try {
      if (!released.await(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the test never released the stalled read");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while stalled", e);
    }
  }

  @Override
  public ContainerStore open(String containerRid) {
    ContainerStore store = inner.open(containerRid);
    return new ContainerStore() {
      @Override
      public StoredDocument get(String epk, String id) {
        if (id.equals(stalledId)) {
          stall();
        }
        return store.get(epk, id);
      }

      @Override
      public List<StoredDocument> getAll(String epk, List<String> ids) {
        if (ids.contains(stalledId)) {
          stall();
        }
        return store.getAll(epk, ids);
      }

      @Override
      public Iterator<StoredDocument> scan(EpkRange range) {
        if (stallNextScan.compareAndSet(true, false)) {
          stall();
        }
        if (stallNextScanLate.compareAndSet(true, false)) {
          List<StoredDocument> read = new java.util.ArrayList<>();
          store.scan(range).forEachRemaining(read::add);
          stall();
          return read.iterator();
        }
        return store.scan(range);
      }

      @Override
      public Iterator<StoredDocument> scanFrom(EpkRange range, String fromEpk, String fromId) {
        if (stallNextScan.compareAndSet(true, false)) {
          stall();
        }
        return store.scanFrom(range, fromEpk, fromId);
      }

      @Override
      public Iterator<ChangeRecord> changesAfter(long lsn) {
        return store.changesAfter(lsn);
      }

      @Override
      public void commit(List<Write> writes) {
        store.commit(writes);
      }

      @Override
      public long documentCount() {
        return store.documentCount();
      }

      @Override
      public Marks marks() {
        return store.marks();
      }

      @Override
      public void saveMarks(Marks marks) {
        store.saveMarks(marks);
      }
    };
  }

  @Override
  public String loadCatalog() {
    return inner.loadCatalog();
  }

  @Override
  public void saveCatalog(String catalogJson, java.util.Collection<String> dropped) {
    inner.saveCatalog(catalogJson, dropped);
  }
}
