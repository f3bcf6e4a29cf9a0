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
 * The documents of an ORDER BY page over one property path, in the query's order, read from the
 * path's index a run of equal values at a time: a page loads the runs its rows come from and the
 * one after, not the container. Ties are ordered by the RID's document part, ascending with an
 * ascending key and descending otherwise, as the executor orders them.
 */
/*
 * How and why. Before, every page of an ORDER BY ran the query over the whole scan and kept the
 * rows after its position in a heap: 100 pages of 100,000 documents read 10 million. The index
 * already holds every document by its value (and those with none or an array or object there), so
 * the walk starts at the run holding the position, loads each run's documents, puts them in order
 * (a run of one value by RID; the arrays and objects by value, then RID), drops those at or before
 * the position, and hands them on; the executor streams them (Executor.open with inOrder) and stops
 * pulling after the page's rows and one more.
 *
 * Writes. The runs are read one after another, so a write during the page that moved a document
 * from a run not yet reached to one already passed would hide it from the page, and one that moved
 * two documents of a batch could show one new and one old. So a page walks only while its physical
 * partitions are quiet (Container.quietMark): QueryRunner marks each one's LSN at a moment when
 * none has a write in progress (a write holds its partition's lock from its first read through its
 * index update) and, after the page, checks that none is locked and no LSN moved; otherwise the
 * page is read again by a scan, as before the walk existed. Writes to other partitions do not
 * matter: the walk reads only documents in the page's partitions. Within a quiet page the documents
 * and the index agree. Each document loaded is still checked against its run (a cheap guard), and
 * the executor checks the order of what it streams.
 *
 * Cost: a run is loaded whole, so a key with few distinct values (ORDER BY c.status) loads its
 * largest run on every page that reaches it. Runs ordered by RID would remove that; not done.
 */
final class OrderedWalk implements Iterator<StoredDocument> {
  /** Loads the live documents of one logical partition by id. */
  interface Loader {
    List<StoredDocument> load(String epk, List<String> ids);
  }

  private record Placed(StoredDocument document, JsonNode value, long rid) {}

  private final Iterator<ContainerIndex.Run> runs;
  private final List<String> path;
  private final Predicate<ContainerIndex.DocRef> wanted;
  private final Loader loader;
  private final Placed position; // the row an earlier page ended at, or null
  private final Comparator<Placed> order;
  private final ArrayDeque<StoredDocument> ready = new ArrayDeque<>();

  /**
   * @param runs the index's runs from the one holding the position ({@link ContainerIndex#ordered})
   * @param position the sort key and RID document part of the row an earlier page ended at, or null
   *     from the start
   */
  OrderedWalk(
      Iterator<ContainerIndex.Run> runs,
      List<String> path,
      boolean ascending,
      Predicate<ContainerIndex.DocRef> wanted,
      Loader loader,
      io.cosmolab.query.exec.Executor.After position) {
    this.runs = runs;
    this.path = path;
    this.wanted = wanted;
    this.loader = loader;
    this.position =
        position == null ? null : new Placed(null, position.keys().get(0), position.order());
    Comparator<Placed> byKey =
        Comparator.<Placed, JsonNode>comparing(Placed::value, Values.ORDER)
            .thenComparingLong(Placed::rid);
    this.order = ascending ? byKey : byKey.reversed();
  }

  @Override
  public boolean hasNext() {
    while (ready.isEmpty() && runs.hasNext()) {
      fill(runs.next());
    }
    return !ready.isEmpty();
  }

  @Override
  public StoredDocument next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return ready.poll();
  }

  /** Loads one run's documents in scope, and queues those after the position, in order. */
  private void fill(ContainerIndex.Run run) {
    Map<String, List<String>> byPartition = new TreeMap<>();
    for (ContainerIndex.DocRef ref : run.refs()) {
      if (wanted.test(ref)) {
        byPartition.computeIfAbsent(ref.epk(), k -> new ArrayList<>()).add(ref.id());
      }
    }
    List<Placed> placed = new ArrayList<>();
    for (Map.Entry<String, List<String>> e : byPartition.entrySet()) {
      for (StoredDocument d : loader.load(e.getKey(), e.getValue())) {
        JsonNode value = ContainerIndex.valueAt(d.body(), path);
        if (!run.holds(value)) {
          continue; // written meanwhile: its run now is another one
        }
        long rid = ResourceIds.documentPart(d.body().get("_rid").textValue());
        Placed p = new Placed(d, value, rid);
        if (position != null && order.compare(p, position) <= 0) {
          continue; // an earlier page's
        }
        placed.add(p);
      }
    }
    placed.sort(order);
    for (Placed p : placed) {
      ready.add(p.document());
    }
  }
}
