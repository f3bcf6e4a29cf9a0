package io.cosmolab.engine;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.engine.index.ContainerIndex;
import io.cosmolab.engine.resource.ResourceIds;
import io.cosmolab.engine.store.StoredDocument;
import io.cosmolab.query.exec.Values;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The documents of an ORDER BY page over property paths, in the query's order, read from the first
 * path's index a run of equal values at a time, and within a run by RID in growing chunks: a page
 * loads about the documents of its rows, not the container. Ties are ordered by the RID's document
 * part, ascending with an ascending first key and descending otherwise, as the executor orders
 * them. With several ORDER BY items (a composite index's), a run is loaded whole and sorted by the
 * later items: a page loads the runs of the first item's values that its rows reach.
 */
/*
 * How and why. Before, every page of an ORDER BY ran the query over the whole scan and kept the
 * rows after its position in a heap: 100 pages of 100,000 documents read 10 million. The index
 * already holds every document by its value (and those with none or an array or object there),
 * each entry by RID, so the walk starts at the run holding the position and, within it, after the
 * position's RID. It takes a run's next RIDs in order, up to 1,024 in one pass over the run's
 * entries (a hash map: an ordered map cost writes a quarter of their rate on a key of few values,
 * while a pass over RIDs costs a page far less than loading the documents did), loads their
 * documents a chunk at a time (16, then twice as many each time up to 1,024, so a page of 10 loads
 * 16 and a page of 1,000 no more than 1,008), and hands them on; the executor streams them
 * (Executor.open with inOrder) and stops pulling after the page's rows and one more. The arrays
 * and objects share one run whose values differ: it is loaded whole and sorted by value, then RID.
 *
 * Writes. The runs are read one after another, so a write during the page that moved a document
 * from a run not yet reached to one already passed would hide it from the page, and one that moved
 * two documents of a batch could show one new and one old. So QueryRunner marks, before the walk,
 * each of the page's physical partitions' LSN under its write lock (WalkMarks.mark: a write holds
 * that lock from its first read through its index update, so every write at or below the mark has
 * finished and every one above it starts later) and, after the walk, reads from the change log the
 * writes committed in those partitions since (WalkMarks.writesSince), each with the version it
 * replaced; only those in the query's scope count (a query of one logical partition reads none of
 * the others' documents, so their writes cannot tear its page). The page stands if none of them
 * took a document from, or changed one in, what the page read: the positions after the page's
 * position up to the last document it handed on (all after the position, when the walk ran out),
 * old version and new; and if the documents created there that it handed on are the oldest of those
 * created there (untouchedBy). Then the page is what was there at one moment of its walk, and
 * writes elsewhere in the order are for later pages. (Before creations were let through, the first
 * page of a feed of recent items, ORDER BY c.ts DESC under appends, always went to the scan.)
 * Otherwise, or when the writes cannot be known (a split or merge, a write holding its partition
 * past a wait, the change log's retention past the mark), the page is read again by a scan, as
 * before the walk existed. (The first version stood a page only when no LSN had moved, so a
 * partition written without pause never walked.) Each document loaded is still checked against its
 * run (a cheap guard), and the executor checks the order of what it streams.
 *
 * Cost: a key with few distinct values (ORDER BY c.status) costs a page what its rows load, as a
 * key with many does. Before the entries were kept by RID, a page loaded every run it reached
 * whole, so each page of such a key loaded its largest run.
 */
final class OrderedWalk implements Iterator<StoredDocument> {
  /** Loads the live documents of one logical partition by id. */
  interface Loader {
    List<StoredDocument> load(String epk, List<String> ids);
  }

  /** A document with its ORDER BY values (the first is the walked path's) and its RID part. */
  private record Placed(StoredDocument document, List<JsonNode> values, long rid) {
    JsonNode value() {
      return values.get(0);
    }
  }

  static final int FIRST_CHUNK = 16;
  static final int MAX_CHUNK = 1024;

  /**
   * Thrown by a walk of several ORDER BY items that reaches a run holding more documents than its
   * limit, the first or a later one: loading such a run whole costs a page more than a scan, and
   * holds all of it in memory. The page is then scanned from its start, and what the walk had
   * handed on is dropped with the walk.
   */
  static final class RunTooLarge extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RunTooLarge(int documents, int limit) {
      super("a run of " + documents + " documents, over " + limit, null, false, false);
    }
  }

  private final Iterator<ContainerIndex.Run> runs;
  private final List<List<String>> paths; // the ORDER BY items'; the first is walked
  private final Predicate<ContainerIndex.DocRef> wanted;
  private final Loader loader;
  private final Placed position; // the row an earlier page ended at, or null
  // whether the position's document is read again: under a JOIN it may have rows left, which the
  // executor finds past the position by their index among its rows
  private final boolean positionRead;
  private boolean cursorIncluded; // whether the cursor's own RID is still to take (positionRead)
  private final boolean ascending;
  private final Comparator<Placed> order;
  private final ArrayDeque<Placed> ready = new ArrayDeque<>();
  private ContainerIndex.Run run; // the run being read
  // the run's next documents in the walk's order, by the RID each was taken under (take())
  private final ArrayDeque<Map.Entry<Long, ContainerIndex.DocRef>> taken = new ArrayDeque<>();
  private long cursor; // the RID of the last document taken from the run
  private boolean fromCursor; // whether what the run has left starts after the cursor
  private boolean runLeft; // whether the run may hold documents not yet taken
  private int chunk; // how many of the run's documents the next load takes
  private Placed handed; // the last document handed on, or null
  private long[] handedRids = new long[16]; // the RID document parts of all handed on, in order
  private int handedCount;
  private boolean exhausted; // whether the walk ran out
  private final int wholeRunLimit; // with several items: the largest run worth loading whole

  /**
   * @param runs the index's runs from the one holding the position ({@link ContainerIndex#ordered})
   * @param position the sort key and RID document part of the row an earlier page ended at, or null
   *     from the start
   * @param wholeRunLimit with several ORDER BY items, the most documents a run may hold (else
   *     {@link RunTooLarge})
   * @param positionRead whether the position's own document is read again (a query with JOINs,
   *     whose rows of that document after the position belong to this page)
   */
  OrderedWalk(
      Iterator<ContainerIndex.Run> runs,
      List<List<String>> paths,
      List<Boolean> ascending,
      Predicate<ContainerIndex.DocRef> wanted,
      Loader loader,
      io.cosmolab.query.exec.Executor.After position,
      int wholeRunLimit,
      boolean positionRead) {
    this.runs = runs;
    this.positionRead = positionRead;
    this.wholeRunLimit = wholeRunLimit;
    this.paths = paths;
    this.wanted = wanted;
    this.loader = loader;
    this.ascending = ascending.get(0);
    this.position = position == null ? null : new Placed(null, position.keys(), position.order());
    // each value in its item's direction, then the RID in the first item's (the executor's order)
    Comparator<Placed> byKeys = null;
    for (int i = 0; i < paths.size(); i++) {
      int item = i;
      Comparator<Placed> byItem =
          Comparator.comparing((Placed p) -> p.values().get(item), Values.ORDER);
      byItem = ascending.get(i) ? byItem : byItem.reversed();
      byKeys = byKeys == null ? byItem : byKeys.thenComparing(byItem);
    }
    Comparator<Placed> byRid = Comparator.comparingLong(Placed::rid);
    this.order = byKeys.thenComparing(this.ascending ? byRid : byRid.reversed());
  }

  @Override
  public boolean hasNext() {
    while (ready.isEmpty()) {
      if (!taken.isEmpty() || runLeft) {
        load();
      } else if (runs.hasNext()) {
        start(runs.next());
      } else {
        exhausted = true;
        break;
      }
    }
    return !ready.isEmpty();
  }

  @Override
  public StoredDocument next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    handed = ready.poll();
    if (handedCount == handedRids.length) {
      handedRids = java.util.Arrays.copyOf(handedRids, handedCount * 2);
    }
    handedRids[handedCount++] = handed.rid();
    return handed.document();
  }

  /**
   * Whether the page is what the documents it read were at some moment of its walk, given {@code
   * writes} (committed in its partitions while it walked, oldest first). What it read: the
   * documents after the position up to the last one handed on, or all after the position when the
   * walk ran out. A write elsewhere in the order changes nothing the page read; the next page
   * starts from its position and sees it. Where the page read:
   *
   * <ul>
   *   <li>a document changed, deleted or moved (a write with a previous version there, or a new
   *       version of an existing document there) fails the page: the walk may hold either version;
   *   <li>documents created there (no previous version) let it stand when the ones it handed on are
   *       the oldest of them: the page is then what was there right after the last of those, before
   *       the next. The walk sees a creation if it was not past its place yet; so with appends to
   *       the top of a descending order (the newest first, a feed of recent items), a walk sees
   *       those before it started and none after, and the page stands.
   * </ul>
   *
   * A transaction (a batch, a stored procedure) counts as one creation: its records each have their
   * own position in the log, but no reader ever saw some of them and not the others, so a page
   * holding some of its documents and missing others fails. Records of one transaction share their
   * logical partition and their LSN in their physical partition (WritePath), and records of two
   * transactions do not.
   *
   * <p>The order is the change log's, which is each partition's commit order; across partitions the
   * page asks for one order too. That is stricter than the service, whose cross-partition query
   * reads each partition at its own moment, but not sound for a single moment of the whole
   * container: partitions make their writes visible on their own, so a page may be true of each
   * partition's moment and of no single one of all, as a page of the service's may.
   */
  boolean untouchedBy(List<io.cosmolab.engine.store.ChangeRecord> writes) {
    long[] seen = null;
    // the transaction of each record (see above): per logical partition, its last record's LSN in
    // its partition and transaction number
    Map<String, long[]> lastOf = new java.util.HashMap<>();
    long transactions = 0;
    long missedIn = -1; // the transaction of the first creation the walk did not hand on
    long handedIn = -1; // the transaction of the last creation it handed on
    for (io.cosmolab.engine.store.ChangeRecord w : writes) {
      long[] last = lastOf.get(w.epk());
      long transaction;
      if (last != null && last[0] == w.rangeLsn()) {
        transaction = last[1];
      } else {
        transaction = ++transactions;
      }
      lastOf.put(w.epk(), new long[] {w.rangeLsn(), transaction});
      boolean there = read(w.current());
      if (w.previous() != null) {
        if (there || read(w.previous())) {
          return false; // a change or a deletion where the page read
        }
        continue;
      }
      if (!there) {
        continue; // a creation elsewhere
      }
      if (seen == null) {
        seen = java.util.Arrays.copyOf(handedRids, handedCount);
        java.util.Arrays.sort(seen);
      }
      boolean handedOn =
          java.util.Arrays.binarySearch(seen, ResourceIds.documentPartOf(w.current())) >= 0;
      if (handedOn) {
        if (missedIn != -1) {
          return false; // it holds a creation and misses one before it (or of its transaction)
        }
        handedIn = transaction;
      } else {
        if (transaction == handedIn) {
          return false; // part of a transaction
        }
        if (missedIn == -1) {
          missedIn = transaction;
        }
      }
    }
    return true;
  }

  /** Whether a version with {@code body} (null: none) sits where the page read. */
  private boolean read(com.fasterxml.jackson.databind.node.ObjectNode body) {
    if (body == null) {
      return false;
    }
    Placed p = placed(null, body);
    if (beforePosition(p)) {
      return false; // an earlier page's place
    }
    return exhausted || handed == null || order.compare(p, handed) <= 0;
  }

  /** Whether {@code p} is an earlier page's: before the position, or at it unless read again. */
  private boolean beforePosition(Placed p) {
    if (position == null) {
      return false;
    }
    int c = order.compare(p, position);
    return c < 0 || (c == 0 && !positionRead);
  }

  private Placed placed(StoredDocument d, JsonNode body) {
    List<JsonNode> values = new ArrayList<>(paths.size());
    for (List<String> path : paths) {
      values.add(ContainerIndex.valueAt(body, path));
    }
    return new Placed(d, values, ResourceIds.documentPartOf(body));
  }

  /**
   * Starts reading a run: one of equal values (or of none) in the walk's RID order, after the
   * position's RID when it holds the position; whole when its documents are ordered by more than
   * the RID: the arrays and objects, as their values differ, and any run under an ORDER BY of
   * several items, as the later items order its documents.
   */
  private void start(ContainerIndex.Run next) {
    if (paths.size() > 1 && next.byRid().size() > wholeRunLimit) {
      throw new RunTooLarge(next.byRid().size(), wholeRunLimit);
    }
    run = next;
    taken.clear();
    if (next.kind() == ContainerIndex.Run.Kind.CONTAINERS || paths.size() > 1) {
      for (Map.Entry<Long, ContainerIndex.DocRef> e : next.byRid().entrySet()) {
        if (wanted.test(e.getValue())) {
          taken.add(Map.entry(e.getKey(), e.getValue()));
        }
      }
      chunk = Integer.MAX_VALUE;
      runLeft = false;
    } else {
      fromCursor = position != null && next.holds(position.value());
      cursor = fromCursor ? position.rid() : 0;
      cursorIncluded = fromCursor && positionRead;
      chunk = FIRST_CHUNK;
      runLeft = true;
    }
  }

  /**
   * Takes the run's next documents in scope, up to {@link #MAX_CHUNK}, in the walk's RID order
   * after the cursor: one pass over the run's entries that keeps the best so far in a heap.
   */
  private void take() {
    Comparator<Map.Entry<Long, ContainerIndex.DocRef>> walkOrder =
        ascending
            ? Map.Entry.comparingByKey()
            : Map.Entry.<Long, ContainerIndex.DocRef>comparingByKey().reversed();
    // the heap's head is the last in the walk's order of those kept
    java.util.PriorityQueue<Map.Entry<Long, ContainerIndex.DocRef>> best =
        new java.util.PriorityQueue<>(walkOrder.reversed());
    for (Map.Entry<Long, ContainerIndex.DocRef> e : run.byRid().entrySet()) {
      long rid = e.getKey();
      if (fromCursor
          && (ascending ? rid <= cursor : rid >= cursor)
          && !(rid == cursor && cursorIncluded)) {
        continue;
      }
      if (best.size() == MAX_CHUNK) {
        long last = best.peek().getKey();
        if (ascending ? rid >= last : rid <= last) {
          continue;
        }
      }
      if (wanted.test(e.getValue())) {
        best.add(Map.entry(rid, e.getValue()));
        if (best.size() > MAX_CHUNK) {
          best.poll();
        }
      }
    }
    runLeft = best.size() == MAX_CHUNK; // fewer: the pass found all that is left
    List<Map.Entry<Long, ContainerIndex.DocRef>> inOrder = new ArrayList<>(best);
    inOrder.sort(walkOrder);
    taken.addAll(inOrder);
    if (!inOrder.isEmpty()) {
      cursor = inOrder.get(inOrder.size() - 1).getKey();
      fromCursor = true;
      cursorIncluded = false;
    }
  }

  /**
   * Loads the run's next chunk of documents in scope, and queues those after the position, in
   * order.
   */
  private void load() {
    // by logical partition: each id with the RID it was taken under
    Map<String, Map<String, Long>> byPartition = new TreeMap<>();
    for (int n = 0; n < chunk; n++) {
      if (taken.isEmpty() && runLeft) {
        take();
      }
      Map.Entry<Long, ContainerIndex.DocRef> e = taken.poll();
      if (e == null) {
        break;
      }
      byPartition
          .computeIfAbsent(e.getValue().epk(), k -> new java.util.HashMap<>())
          .put(e.getValue().id(), e.getKey());
    }
    chunk = Math.min(chunk, MAX_CHUNK / 2) * 2;
    List<Placed> placed = new ArrayList<>();
    for (Map.Entry<String, Map<String, Long>> e : byPartition.entrySet()) {
      Map<String, Long> ridOf = e.getValue();
      for (StoredDocument d : loader.load(e.getKey(), new ArrayList<>(ridOf.keySet()))) {
        Placed p = placed(d, d.body());
        if (!run.holds(p.value())) {
          continue; // written meanwhile: its run now is another one
        }
        if (p.rid() != ridOf.get(d.id())) {
          continue; // deleted and created again meanwhile: its new RID sits elsewhere in the order
        }
        if (beforePosition(p)) {
          continue; // an earlier page's
        }
        placed.add(p);
      }
    }
    placed.sort(order);
    ready.addAll(placed);
  }
}
