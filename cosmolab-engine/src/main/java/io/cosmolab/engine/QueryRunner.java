package io.cosmolab.engine;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.engine.PageInput.Loaded;
import io.cosmolab.engine.PageInput.Walk;
import io.cosmolab.engine.document.DocumentShape;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.query.QueryMetrics;
import io.cosmolab.engine.query.QueryPage;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.routing.RoutingMap;
import io.cosmolab.engine.store.StoredDocument;
import io.cosmolab.engine.throughput.PartitionBudget.Admission;
import io.cosmolab.query.CompiledQuery;
import io.cosmolab.query.QueryException;
import io.cosmolab.query.exec.Executor;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Runs a query on a container: finds the physical partitions in scope, runs the query over all of
 * their documents — so ORDER BY, GROUP BY, TOP and OFFSET/LIMIT come out complete over the scope,
 * and aggregates and DISTINCT too unless the service's backend would serve the query (below: then
 * an aggregate page may end at the page time with a partial result, and a DISTINCT is distinct
 * within each page) — reads one page of its results, and charges each partition it touched for what
 * the page loaded.
 */
/*
 * Pages. The query is pulled (Executor.open): documents are loaded only as its results need them,
 * and a page stops after its rows and one more, which says whether there is a next page. Where the
 * next page starts is a continuation (Resume, which draws the token format):
 *
 *   - a streaming query (rows in document order: no ORDER BY, aggregate, GROUP BY, DISTINCT, TOP
 *     or OFFSET) resumes at the (EPK, id) of the last document it returned rows from. Page N loads
 *     the documents from there to its last row: the scan starts at the position, and partitions
 *     wholly before it are not targeted. One with TOP or OFFSET ... LIMIT streams the same: its
 *     pages run it without them and count them on from the token (Resume).
 *   - an ORDER BY whose rows keep their own keys (no GROUP BY, aggregate, DISTINCT or RANK) is run
 *     again from the sort keys, RID and JOIN index of the last row it returned: it keeps only the
 *     page + 1 rows after that position in a heap (TopK), over a stream of the scan, and a write
 *     that sorts before the position shifts no row.
 *   - an ORDER BY of the documents' property paths (JOINs may follow; not a JOIN's value), the
 *     first one indexed, reads the first path's index in sort order from the position's run of
 *     equal values (OrderedWalk; with several items, a composite index's, each run is loaded whole
 *     and sorted by the others), and the executor streams what it reads (no heap): the page loads
 *     its own rows' documents (or their runs') and stops. It keeps what it walked unless a write
 *     in its physical partitions meanwhile touched what it read (a mark before, the change log
 *     after: WalkMarks); otherwise it scans as above.
 *   - any other query is run again and skips the rows earlier pages returned (an ORDER BY RANK or
 *     over groups keeps the offset + page + 1 rows it can return in its heap); one without ORDER
 *     BY (a GROUP BY, an aggregate, a DISTINCT) is kept open by its page instead (QueryCursors),
 *     and its next page reads on from there when nothing it read has changed: the same page as run
 *     again, without grouping the whole input once per page.
 *
 * A page also ends when it has run for the engine's query page time (5 s, the service's bound;
 * CosmosEngine.Builder.queryPageTime), with the rows it has, possibly none, and a continuation,
 * where that continuation can resume from a position: a streaming page once it has read a document
 * past its resume position (it resumes after the last document it read), a walked ORDER BY once it
 * has a row (it resumes after that row), an aggregating query (aggregates, GROUP BY or an unordered
 * DISTINCT over a scan, Resume.isAggregating) that the service's backend would serve (a partition
 * key, range id or EPK range, or a single physical partition) once it has read a document: it
 * returns the aggregates of the documents it read, a partial result that the SDKs combine as they
 * combine a partition's pages (the rewritten query of the plan), and the next page aggregates the
 * documents after them. The input stops before its next document (PageInput's stopWhen), so every
 * row of the documents read has been made. Such a DISTINCT page also ends when it is full, at its
 * last row's document, without reading ahead (see readPage). Other shapes run on: their next page
 * would start over.
 *
 * Charges ([D] partitioning-model §2.3): each targeted partition pays the per-partition base
 * (2.5 RU), the documents the page loaded (10 RU per MB), and a point read per row it returned, by
 * the row's size (a computed row is shared by the partitions in proportion to what they loaded).
 * "Loaded by the page" is what the query read while it produced the page's rows: from the read of
 * the row after those earlier pages returned up to the page's last row, and, on the last page, the
 * tail its look-ahead read. So every document is paid once over all pages, and the pages of a query
 * together are charged one pass (QueryPagingChargeTest), whatever the shape:
 *
 *   - a streaming page pays for the documents between the previous page's last row and its own;
 *   - TOP or OFFSET/LIMIT without ORDER BY streams too: OFFSET's rows are paid for once, by the
 *     pages that read and skip them, and the page that reaches TOP reads no further;
 *   - a walked ORDER BY (above) pays per page for the documents it loaded after its position, as
 *     the service's index-served ORDER BY does; a page of such a query that scans instead (a write
 *     ran) pays for its rows' documents, so walked and scanned pages add up to one pass at most
 *     (less the documents a filter rejected on the scanned pages);
 *   - any other whole-input shape (ORDER BY over a scan, GROUP BY, aggregates, DISTINCT unless
 *     cut) reads everything for its first row, so its first page pays for the whole scan and later
 *     pages for their returned rows only. The later pages' CPU is real where they run the query
 *     again (an ORDER BY among them, or a kept query whose input changed) but not billed twice.
 *     An aggregating page cut at the page time, or a cut DISTINCT's full page, pays for what it
 *     read up to its last row, and so does the page after, which reads the documents after it (a
 *     range re-run to skip its rows pays only from the rows it returns).
 *
 * ORDER BY ties are broken by the document part of the RID, ascending with an ascending first
 * key and descending otherwise, which the SDKs' resume logic relies on (§7.6).
 */
final class QueryRunner {
  private final Container container;
  private final CosmosEngine engine;

  // whether the client of the page being read has gone (Container.query)
  private java.util.function.BooleanSupplier abandoned = () -> false;

  QueryRunner(Container container, CosmosEngine engine) {
    this.container = container;
    this.engine = engine;
  }

  /** Compiles query text, mapping its errors to the service's 400. */
  static CompiledQuery compile(String text, java.util.Map<String, JsonNode> parameters) {
    try {
      return CompiledQuery.compile(text, parameters);
    } catch (QueryException e) {
      throw asCosmos(e);
    }
  }

  static CosmosException asCosmos(QueryException e) {
    return io.cosmolab.engine.query.QueryErrors.asCosmos(e);
  }

  /** How many documents a page reads between two looks at whether its client has gone. */
  static final int ABANDON_CHECK_EVERY = 64;

  QueryPage run(QueryRequest request, java.util.function.BooleanSupplier abandoned) {
    this.abandoned = abandoned;
    long started = System.nanoTime(); // durations for the query metrics, not points in time
    CompiledQuery written = compile(request.text(), request.parameters());
    long compiled = System.nanoTime();
    // ORDER BY a computed property is checked as its path (indexed or not), then runs its
    // expression
    List<String> compositeOrderBy =
        OrderByPaths.check(written.ast(), container.indexingPolicy(), container.reads()::indexes);
    // predicates and the index metrics read the query before a computed property's expression
    // replaces it (a filter on one is served by its index, when the policy names it)
    CompiledQuery searched = written.withSearchPolicy(container.searchPolicy());
    CompiledQuery bounded = searched.withComputedProperties(container.computedProperties());
    // a query whose rows come in document order but for its TOP or OFFSET ... LIMIT streams: its
    // pages run it without them and count them on (Resume), instead of running it again per page
    // to skip what earlier pages returned
    // (an offset token of such a query, from a server before this paging, still resumes by count)
    boolean streamsBounded =
        Resume.streamsButForBounds(bounded) && !Resume.isOffsetToken(request.continuation());
    CompiledQuery query = streamsBounded ? bounded.withoutRowBounds() : bounded;
    Executor.RowBounds streamBounds = streamsBounded ? rowBounds(bounded) : Executor.RowBounds.NONE;
    long rewritten = System.nanoTime();
    RoutingMap map = container.routing();
    EpkRange scope = request.range() == null ? EpkRange.FULL : request.range();
    String exactEpk = null;
    if (request.partitionKey() != null) {
      EffectivePartitionKey.KeyScope key =
          EffectivePartitionKey.scopeOf(container.partitionKey(), request.partitionKey());
      scope = PageInput.intersect(scope, key.range());
      exactEpk = key.exactEpk();
    }
    if (request.partitionKeyRangeId() != null) {
      scope =
          PageInput.intersect(
              scope, container.requireRangeNamed(map, request.partitionKeyRangeId()).range());
    }
    boolean streaming = Resume.isStreaming(query.ast());
    boolean bySortKey = !streaming && Executor.resumesBySortKey(query.ast());
    Resume resume = Resume.parse(request, container.rid(), query.ast(), streaming);
    if (resume.counted() > 0
        && (streamBounds.none() || resume.counted() > streamBounds.skip() + streamBounds.take())) {
      throw Resume.invalidToken(request.continuation()); // counts no query's rows this one has
    }
    List<PartitionKeyRange> targets = new ArrayList<>();
    for (PartitionKeyRange r :
        scope == null ? List.<PartitionKeyRange>of() : map.overlapping(scope)) {
      if (!resume.isPast(r.range())) { // a partition wholly before the position has no rows left
        targets.add(r);
      }
    }
    long now = engine.clock().millis();
    Admission[] admissions = new Admission[targets.size()];
    for (int i = 0; i < targets.size(); i++) {
      admissions[i] = container.admit(targets.get(i), targets.get(i).range().min(), now);
    }
    List<io.cosmolab.query.plan.IndexPredicate> predicates =
        io.cosmolab.query.plan.IndexPredicate.of(searched);
    List<io.cosmolab.query.plan.IndexPredicate> served = container.reads().served(predicates);
    // an ORDER BY of indexed paths reads the first one's index in its order, from the position on,
    // and keeps the page unless a write in its partitions since the mark touched what it read
    // (OrderedWalk); else it scans. The mark comes before the candidates are looked up, so a
    // write that changed them is one the page checks.
    List<List<String>> walkPaths =
        bySortKey && !targets.isEmpty()
            ? OrderByPaths.walkable(query.ast(), container.reads()::indexes)
            : null;
    WalkMarks.QuietMark quiet = walkPaths == null ? null : container.walkMarks().mark(targets);
    // a query that later pages would run again is kept open for its next page (QueryCursors), and
    // such a page takes it when nothing it read can have changed since: the query as the page
    // before left it, with the documents an index served it
    QueryCursors.Stamp stamp =
        keepsOpen(query, resume, streaming || bySortKey)
            ? QueryCursors.Stamp.of(container, targets, served)
            : null;
    QueryCursors.Kept kept =
        stamp != null && resume.offset() > 0
            ? engine
                .queryCursors()
                .take(QueryCursors.Key.of(container.rid(), request, request.continuation()), stamp)
            : null;
    long planned = System.nanoTime();
    java.util.Set<io.cosmolab.engine.index.ContainerIndex.DocRef> candidates =
        kept != null || targets.isEmpty() || served.isEmpty()
            ? null
            : container.reads().candidates(served);
    long lookedUp = System.nanoTime();
    boolean indexServed = kept != null ? kept.input().servedByIndex() : candidates != null;
    // a query that can walk is charged as a walk would be, whether a page walks or not: the pages
    // of one query may do either, and must add up to one pass
    boolean chargeLikeAWalk = walkPaths != null;
    // a query an index serves (a filter on an indexed path, an ORDER BY on one) never sees a
    // version written with the Exclude directive, whether a page walks, looks up or falls back to
    // a scan: the same query gives the same rows, page after page
    boolean indexedOnly = !served.isEmpty() || walkPaths != null;
    EpkRange inScope = scope;
    String exact = exactEpk;
    java.util.function.Function<Walk, PageRead> reader =
        walk ->
            read(
                request,
                query,
                targets,
                inScope,
                exact,
                resume,
                candidates,
                walk,
                // a walk of several items loads its runs whole: it pays for its rows' documents,
                // as a page served by the service's composite index would, or the pages of a key
                // with few values would each pay for their run; a walk under JOINs reads its
                // position's document again, which the page before paid for
                chargeLikeAWalk && (walk == null || walk.paths().size() > 1 || walk.joins()),
                indexedOnly,
                streamBounds,
                walk == null ? stamp : null,
                walk == null ? kept : null,
                now);
    PageRead read = null;
    if (quiet != null) {
      List<Boolean> ascending =
          query.ast().orderBy().stream()
              .map(io.cosmolab.query.ast.Query.OrderItem::ascending)
              .toList();
      Iterator<io.cosmolab.engine.index.ContainerIndex.Run> runs =
          container
              .reads()
              .ordered(
                  walkPaths.get(0),
                  ascending.get(0),
                  resume.after() == null,
                  resume.after() == null ? null : resume.after().keys().get(0));
      if (runs != null) {
        try {
          read = reader.apply(new Walk(runs, walkPaths, ascending, query.ast().from().size() > 1));
          List<io.cosmolab.engine.store.ChangeRecord> since =
              container.walkMarks().writesSince(quiet, targets, inScope);
          if (!read.input().abandoned()
              && (since == null || !read.input().walked().untouchedBy(since))) {
            read = null; // a write may have moved a document behind the walk: scan
          }
        } catch (OrderedWalk.RunTooLarge e) {
          read = null; // loading the first item's run whole would cost more than the scan
        }
      }
    }
    if (read == null) {
      read = reader.apply(null);
    }
    long executed = System.nanoTime();
    PageInput input = read.input();
    List<JsonNode> page = read.rows();
    double[] returned = read.returned();
    double shared = read.shared();
    long returnedBytes = read.returnedBytes();
    Loaded start = read.start();
    Loaded end = read.end();
    String next = read.next();
    ContainerScripts.UdfCalls udfs = read.udfs();
    // A computed row (ORDER BY, aggregates, DISTINCT ...) is shared by the partitions in
    // proportion to the bytes they loaded [I].
    Loaded all = input.loaded();
    long allBytes = all.total();
    for (int i = 0; i < targets.size(); i++) {
      returned[i] +=
          allBytes == 0 ? (i == 0 ? shared : 0) : shared * all.bytes[i] / (double) allBytes;
    }
    double total = 0;
    long loadedTotal = 0;
    for (int i = 0; i < targets.size(); i++) {
      long loaded = end.bytes[i] - start.bytes[i];
      loadedTotal += loaded;
      double charge = engine.costs().query(1, loaded, returned[i]);
      if (i == 0) {
        charge += engine.costs().udfCalls(udfs.calls()); // [A] the calls' time, to the first
      }
      container.spendQuery(targets.get(i), admissions[i], charge, now);
      total += charge;
    }
    if (targets.isEmpty()) {
      total = engine.costs().query(0, 0, 0);
    }
    if (input.abandoned()) {
      throw new io.cosmolab.engine.error.CosmosException(
          io.cosmolab.engine.error.CosmosError.REQUEST_ABANDONED,
          String.format(
              "the client closed its connection: the query stopped after reading %d documents",
              input.documentsOfPage()),
          0,
          Math.round(total * 100) / 100.0);
    }
    long documents = end.documents - start.documents;
    List<io.cosmolab.query.plan.IndexPredicate> usedIndexes = indexServed ? served : List.of();
    QueryMetrics metrics =
        new QueryMetrics(
            targets.size(),
            documents,
            loadedTotal,
            page.size(),
            returnedBytes,
            indexServed ? documents : 0,
            // worked out only for a request that asks for index metrics (about a tenth of an
            // indexed point query's time when made for every page)
            () ->
                io.cosmolab.engine.query.IndexUtilization.of(
                    predicates,
                    usedIndexes,
                    container.reads()::indexes,
                    container.reads()::served,
                    compositeOrderBy),
            new QueryMetrics.Times(
                compiled - started,
                rewritten - compiled,
                planned - rewritten,
                lookedUp - planned,
                executed - lookedUp));
    if (read.keep() != null) {
      // kept once this page is done with its input: whoever takes it reads on from here
      input.leave();
      engine.queryCursors().keep(QueryCursors.Key.of(container.rid(), request, next), read.keep());
    }
    return new QueryPage(page, next, Math.round(total * 100) / 100.0, metrics);
  }

  /** What reading one page found: its rows, where the next starts, what it loaded and returned. */
  @SuppressWarnings(
      "ArrayRecordComponent") // a private carrier; its array is filled once, read once
  private record PageRead(
      PageInput input,
      List<JsonNode> rows,
      double[] returned,
      double shared,
      long returnedBytes,
      Loaded start,
      Loaded end,
      String next,
      ContainerScripts.UdfCalls udfs,
      QueryCursors.Kept keep) {}

  /**
   * Reads one page: its rows and the one after, walking the index when {@code walk} is given. With
   * {@code chargeLikeAWalk}, an ORDER BY page is charged for its rows' documents only, as a walk of
   * one item would have loaded them (less the documents a filter rejected between them): a scanned
   * page, not for the whole scan on its first page; a walk of several items, not for the whole runs
   * it loaded.
   */
  private PageRead read(
      QueryRequest request,
      CompiledQuery query,
      List<PartitionKeyRange> targets,
      EpkRange scope,
      String exactEpk,
      Resume resume,
      java.util.Set<io.cosmolab.engine.index.ContainerIndex.DocRef> candidates,
      Walk walk,
      boolean chargeLikeAWalk,
      boolean indexedOnly,
      Executor.RowBounds bounds,
      QueryCursors.Stamp stamp,
      QueryCursors.Kept kept,
      long now) {
    boolean streaming = Resume.isStreaming(query.ast());
    boolean bySortKey = !streaming && Executor.resumesBySortKey(query.ast());
    boolean aggregating = Resume.isAggregating(query.ast());
    // cut at the page time: the aggregates of what it read are a partial result (Resume.partial),
    // for a request the service's backend would serve: one with a scope (a partition key, range id
    // or EPK range: the SDKs' plan-driven requests), or one that reaches a single physical
    // partition. A request without scope over several is run whole: the gateway refuses it over
    // HTTP for the plan (gateway-protocol §7.5), and the engine's own callers get one answer; one
    // that reaches a single partition is served as the backend serves it, to the engine's callers
    // too (partial aggregates at the page time; a DISTINCT distinct within each page).
    // A page that skips rows earlier pages returned is not cut: it must group what they grouped.
    boolean cutsAggregates =
        aggregating
            && !resume.isBounded()
            && resume.offset() == 0
            && (request.partitionKey() != null
                || request.partitionKeyRangeId() != null
                || request.range() != null
                || targets.size() == 1
                || QueryPlans.partitionsReached(
                            container.routing(), QueryPlans.queryRanges(container, query))
                        .size()
                    == 1);
    PageInput input =
        kept != null
            ? kept.input()
            : new PageInput(
                container,
                abandoned,
                targets,
                scope,
                exactEpk,
                resume,
                streaming,
                !query.ast().orderBy().isEmpty(),
                candidates,
                walk,
                chargeLikeAWalk,
                indexedOnly,
                now);
    if (kept != null) {
      input.resumeFor(abandoned);
    }
    int pageSize = request.pageSize();
    ContainerScripts.UdfCalls udfs = container.userFunctions();
    List<JsonNode> page = new ArrayList<>();
    boolean walkedBySortKey = bySortKey && walk != null;
    if (streaming || walkedBySortKey || cutsAggregates) {
      // the page's time bound: it may end early where its continuation can resume (see read's doc)
      long started = System.nanoTime();
      long bound = engine.queryPageTime().toNanos();
      input.stopWhen(
          () ->
              System.nanoTime() - started > bound
                  && ((streaming || cutsAggregates) ? input.pastResume() : !page.isEmpty()));
    }
    List<Long> rowRids = new ArrayList<>(); // an ORDER BY's rows' inputs: their RID parts
    double[] returned = new double[Math.max(1, targets.size())];
    double shared = 0;
    long returnedBytes = 0;
    Loaded start;
    Loaded end;
    String next;
    // the document of the last row earlier pages returned: paid for by them, though under JOINs
    // its later rows may be this page's
    Long paidBefore;
    QueryCursors.Kept toKeep = null; // this page's query, for the next page
    try {
      Executor.Cursor rows;
      Executor.Output row;
      Loaded before;
      int skipped = 0;
      // a streaming TOP or OFFSET's rows counted so far: those OFFSET skipped, then those returned
      long counted = resume.counted();
      paidBefore = resume.after() == null ? null : resume.after().order();
      if (kept != null) {
        // the query as the page before left it: its next row is this page's first, and what was
        // loaded after the page before's last row is this page's to pay, as if run again
        rows = kept.rows();
        row = kept.next();
        before = kept.paidUntil();
        skipped = resume.offset();
      } else {
        // a page that is not streaming runs its query again and needs only its rows and one more
        rows =
            query.open(
                input,
                engine.clock().instant(),
                streaming ? -1 : (long) resume.offset() + pageSize + 1,
                udfs,
                resume.after(),
                input.walks());
        // skip what earlier pages returned; the work of reading it is theirs
        before = input.loaded();
        // a TOP 0 or LIMIT 0 reads nothing
        row = bounds.reached(resume.counted()) ? null : rows.next();
        if (resume.after() != null && !input.walks()) {
          before = input.loaded(); // re-read to find the rows after the position: the first page's
        }
        while (row != null
            && (streaming
                ? skipped < resume.rowsOfDocument() && input.isResumeDocument(row)
                : skipped < resume.offset())) {
          skipped++;
          paidBefore = row.order();
          before = input.loaded();
          row = rows.next();
        }
      }
      start = before;
      end = start;
      StoredDocument last = null;
      int rowsOfLast = skipped;
      Executor.After position = null; // a sort-key query's last row so far
      // an offset token (issued before sort-key tokens, or for keys too long for one) counts too
      long returnedBefore =
          resume.after() == null ? resume.offset() : resume.after().rowsReturned();
      boolean cutsDistinct = cutsAggregates && query.ast().distinct();
      StoredDocument lastRowDocument = null; // a cut DISTINCT's: the document of its last row
      boolean distinctFull = false;
      // (a bound reached before the first row leaves none: row is null; after it, the loop ends)
      while (row != null && page.size() < pageSize) {
        if (counted < bounds.skip()) {
          // OFFSET's rows: read, and paid for, by this page; returned by none
          counted++;
          StoredDocument d = input.documentOf(row);
          rowsOfLast = isSameDocument(last, d, resume) ? rowsOfLast + 1 : 1;
          last = d;
          end = input.loaded();
          row = rows.next();
          continue;
        }
        int size = DocumentShape.sizeOf(row.value());
        if (!page.isEmpty() && returnedBytes + size > MAX_PAGE_BYTES) {
          break; // the service ends a page near 4 MB, whatever the item count
        }
        returnedBytes += size;
        page.add(row.value().deepCopy()); // rows may be stored documents: never hand them out
        double read = engine.costs().pointRead(size, false);
        if (streaming) {
          StoredDocument d = input.documentOf(row);
          returned[PartitionKeyRange.indexOfOwner(targets, d.epk())] += read;
          rowsOfLast = isSameDocument(last, d, resume) ? rowsOfLast + 1 : 1;
          last = d;
          counted++;
        } else {
          shared += read;
          if (bySortKey) {
            position = Executor.After.of(row, returnedBefore + page.size());
          }
          rowRids.add(row.order());
        }
        end = input.loaded();
        if (bounds.reached(counted)) {
          break; // TOP or LIMIT reached: the last page, without reading a row ahead
        }
        if (cutsDistinct) {
          lastRowDocument = input.last(); // scans and JOINs read no further than the row
          if (page.size() >= pageSize) {
            distinctFull = true;
            break; // no look-ahead (below)
          }
        }
        row = rows.next(); // the next page's first row, if there is one
      }
      boolean boundReached = bounds.reached(counted);
      if (boundReached) {
        row = null; // the rows TOP or LIMIT allow are all returned (or TOP 0): no next page
      }
      long countedForToken = bounds.none() ? 0 : counted;
      // A DISTINCT emits a row as it first meets a value, so its page fills before it has read
      // everything, and it ends there, as the service's backend page does with its item count
      // (distinct within a page: Resume.isAggregating). It reads no row ahead to learn whether
      // there is a next page: finding the next new value can take the rest of the scope, which
      // the next page would read again. So its last page may be empty. The next page reads the
      // documents after the last row's; where a document makes several rows (a JOIN, FROM x IN
      // ...), it runs the page's range again and skips its rows, as for a range of groups, since
      // the rest of that document's rows are not known.
      distinctFull |= cutsDistinct && row != null && !resume.isBounded() && !input.stopped();
      if (distinctFull && lastRowDocument != null && rowPerDocument(query.ast())) {
        next =
            Resume.partial(
                request,
                container.rid(),
                lastRowDocument.epk(),
                lastRowDocument.id(),
                null,
                null,
                0);
      } else if (aggregating
          && (input.stopped() || resume.isBounded() || resume.isPosition() || distinctFull)) {
        // a range's aggregates: the rows of what the page read when it ran out of time, or of a
        // range an earlier page cut
        end = input.loaded();
        next =
            nextOfPartial(
                request, resume, input, input.stopped() || distinctFull, row != null, page.size());
      } else if (row == null && input.stopped() && !boundReached) {
        // out of time: resume after the last document read (a streaming page, which returned all
        // its rows: the next page starts after it) or after the last row
        end = input.loaded();
        StoredDocument read = input.last();
        next =
            streaming
                ? Resume.afterWholeDocument(
                    request,
                    container.rid(),
                    read.epk(),
                    read.id(),
                    countedForToken,
                    counted < bounds.skip())
                : Resume.afterSortKey(request, container.rid(), query.ast(), position);
      } else if (row == null
          && (page.size() < pageSize
              || boundReached
              || !(streaming || bySortKey)
              // an ORDER BY's TOP or LIMIT (the executor applies it) met on this page: the last
              || (position != null && position.rowsReturned() >= rowBounds(query).take()))) {
        end = input.loaded(); // the last page pays for the tail its look-ahead read
        next = null;
      } else {
        // A full page has a next page even when its look-ahead found nothing (row == null): the
        // service's backend stops at the item count without looking further, so it answers a
        // continuation and the page after it is empty (the JavaScript SDK's query.spec: 4 items
        // in pages of 2 come in 3 pages; an application that never met an empty last page here
        // would meet it on Azure). This page paid for what its look-ahead read; a streaming next
        // page starts after the last document read, and a sort-key page pays for its rows' own
        // documents, so neither pays for it again. [A] A query resumed by a count of rows (GROUP
        // BY, aggregates, DISTINCT) ends without one: its next page would run it again and pay
        // for the tail twice.
        if (row == null) {
          end = input.loaded();
        }
        next =
            streaming
                ? row == null
                    ? Resume.afterWholeDocument(
                        request,
                        container.rid(),
                        input.last().epk(),
                        input.last().id(),
                        countedForToken,
                        false)
                    : Resume.afterDocument(
                        request,
                        container.rid(),
                        rowsOfLast,
                        last.epk(),
                        last.id(),
                        countedForToken)
                : bySortKey
                    ? Resume.afterSortKey(request, container.rid(), query.ast(), position)
                    : Resume.afterRows(
                        request, container.rid(), query.ast(), resume.offset() + page.size());
        if (stamp != null && !input.stopped() && !input.abandoned()) {
          toKeep =
              new QueryCursors.Kept(
                  rows,
                  row,
                  input,
                  end,
                  stamp,
                  rows.bytesHeld() + input.candidateCount() * QueryCursors.CANDIDATE_BYTES,
                  engine.clock().millis());
        }
      }
    } catch (QueryException e) {
      throw asCosmos(e);
    } finally {
      udfs.close(); // the page's rows are made: its functions' globals go
    }
    if (chargeLikeAWalk) {
      start = new Loaded(new long[targets.size()], 0);
      end = input.loadedBy(rowRids, paidBefore);
    }
    return new PageRead(
        input, page, returned, shared, returnedBytes, start, end, next, udfs, toKeep);
  }

  /**
   * Whether a page of {@code query} may leave it open for the next (QueryCursors): a query that
   * later pages would run again to skip the rows earlier pages returned (no ORDER BY, not streaming
   * nor walked: a GROUP BY, an aggregate, a DISTINCT, with TOP or OFFSET or not), resumed by a
   * count of rows and not from a position, whose rows a run again makes the same over the same
   * documents (no user-defined function, whose calls belong to their page; no clock or RAND, which
   * each run reads anew), on a container without a time to live (an expiry changes what a query
   * reads without a write).
   */
  private boolean keepsOpen(CompiledQuery query, Resume resume, boolean resumesByPosition) {
    return !resumesByPosition
        && query.ast().orderBy().isEmpty()
        && !resume.isPosition()
        && !resume.isBounded()
        && resume.after() == null
        && container.defaultTimeToLive() == null
        && !query.dependsOnItsRun();
  }

  /**
   * The continuation of an aggregating page that ran out of time (or, a DISTINCT, out of room:
   * {@code cutHere}, at the last document it read) or read a range an earlier one cut: the rest of
   * the range's rows ({@code more}), or the documents after it, or none.
   */
  private String nextOfPartial(
      QueryRequest request,
      Resume resume,
      PageInput input,
      boolean cutHere,
      boolean more,
      int rows) {
    String untilEpk = null;
    String untilId = null;
    if (cutHere) {
      untilEpk = input.last().epk();
      untilId = input.last().id();
    } else if (resume.isBounded()) {
      untilEpk = resume.untilEpk();
      untilId = resume.untilId();
    }
    if (more) {
      return Resume.partial(
          request,
          container.rid(),
          resume.positionEpk(),
          resume.positionId(),
          untilEpk,
          untilId,
          resume.offset() + rows);
    }
    // the range's rows are all returned: the documents after it, if it was cut
    return untilEpk == null
        ? null
        : Resume.partial(request, container.rid(), untilEpk, untilId, null, null, 0);
  }

  /** Whether the query makes at most one row of a document: no JOIN, and no FROM x IN .... */
  private static boolean rowPerDocument(io.cosmolab.query.ast.Query q) {
    return q.from().size() == 1
        && q.from().get(0) instanceof io.cosmolab.query.ast.Query.FromSource.Aliased;
  }

  /**
   * Whether {@code d}, a streaming page's row's document, is the document of the row before it:
   * {@code last}, or on a page's first row the position's.
   */
  private static boolean isSameDocument(StoredDocument last, StoredDocument d, Resume resume) {
    return last == null ? resume.isDocument(d.epk(), d.id()) : sameDocument(last, d);
  }

  /** The query's TOP, OFFSET and LIMIT (a 400 when one is not a whole number). */
  static Executor.RowBounds rowBounds(CompiledQuery query) {
    try {
      return query.rowBounds();
    } catch (QueryException e) {
      throw asCosmos(e);
    }
  }

  /** Whether two stored versions are of one document (null is none). */
  private static boolean sameDocument(StoredDocument a, StoredDocument b) {
    return a != null && a.epk().equals(b.epk()) && a.id().equals(b.id());
  }

  /**
   * The most a page's rows may weigh: the service ends a page near its response limit whatever the
   * item count asked for, and continues on the next.
   */
  static final long MAX_PAGE_BYTES = io.cosmolab.engine.limits.Limits.MAX_RESPONSE_BYTES;
}
