package io.cosmolab.engine;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.engine.document.DocumentShape;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.query.QueryMetrics;
import io.cosmolab.engine.query.QueryPage;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.resource.ResourceIds;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.routing.RoutingMap;
import io.cosmolab.engine.store.StoredDocument;
import io.cosmolab.engine.throughput.PartitionBudget.Admission;
import io.cosmolab.query.CompiledQuery;
import io.cosmolab.query.QueryException;
import io.cosmolab.query.exec.Executor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.zip.CRC32;

/**
 * Runs a query on a container: finds the physical partitions in scope, loads their documents, runs
 * the query once over all of them — so ORDER BY, aggregates, GROUP BY, DISTINCT, TOP and
 * OFFSET/LIMIT come out complete, as a client that sends the raw query expects — pages the result,
 * and charges each partition it touched.
 */
/*
 * Charges ([D] partitioning-model §2.3): each targeted partition pays the per-partition base
 * (2.5 RU), the documents it loaded (10 RU per MB), and a point read per row it returned, by the
 * row's size (a computed row is shared by the partitions in proportion to what they loaded).
 * Loading is charged on the first page only, because later pages resume a result the first page
 * computed (on the service, later pages pay for their own slice of the work; the totals agree).
 *
 * Continuations: an opaque token "v1:<crc of the query but its WHERE>:<crc of text, parameters
 * and scope>:<offset>". The same query with another filter or scope starts from its beginning:
 * the SDKs resume ORDER BY queries by sending the token with a filter added (gateway-protocol
 * §7.6), and send a split range's token to its children. A token of another query, or not ours,
 * fails with 400, as on the service. Assumption [H]: pages are offsets into a
 * result recomputed per page, so writes between pages can shift rows.
 *
 * ORDER BY ties are broken by the document part of the RID, ascending with an ascending first
 * key and descending otherwise, which the SDKs' resume logic relies on (§7.6).
 */
final class QueryRunner {
  private final Container container;
  private final CosmosEngine engine;

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

  /**
   * The gateway's query plan ({@code PartitionedQueryExecutionInfo}, version 2): the planner's
   * queryInfo, and the EPK ranges the query needs — narrowed to point ranges (full keys) or prefix
   * ranges (hierarchical prefixes) when the WHERE clause fixes the partition key with {@code =} or
   * {@code IN}, the whole key space otherwise.
   */
  com.fasterxml.jackson.databind.node.ObjectNode plan(
      String text, java.util.Map<String, JsonNode> parameters) {
    CompiledQuery query = compile(text, parameters);
    com.fasterxml.jackson.databind.node.ObjectNode out =
        com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    out.put("partitionedQueryExecutionInfoVersion", 2);
    try {
      out.set("queryInfo", io.cosmolab.query.plan.QueryPlanner.queryInfo(query));
    } catch (QueryException e) {
      throw asCosmos(e);
    }
    com.fasterxml.jackson.databind.node.ArrayNode ranges = out.putArray("queryRanges");
    for (String[] r : queryRanges(query)) {
      com.fasterxml.jackson.databind.node.ObjectNode range = ranges.addObject();
      range.put("min", r[0]);
      range.put("max", r[1]);
      range.put("isMinInclusive", true);
      range.put("isMaxInclusive", r[2] != null);
    }
    out.putNull("hybridSearchQueryInfo");
    return out;
  }

  /** {min, max, maxInclusive-or-null}; point ranges are inclusive at both ends. */
  private List<String[]> queryRanges(CompiledQuery query) {
    io.cosmolab.engine.partitioning.PartitionKeyDefinition key = container.partitionKey();
    List<List<String>> paths = new ArrayList<>();
    for (String p : key.paths()) {
      paths.add(io.cosmolab.engine.partitioning.PartitionKeyDefinition.segmentsOf(p));
    }
    List<List<JsonNode>> fixed = io.cosmolab.query.plan.QueryPlanner.keyValues(query, paths);
    int levels = 0;
    while (levels < fixed.size() && fixed.get(levels) != null) {
      levels++;
    }
    List<String[]> out = new ArrayList<>();
    if (levels == 0 || (levels < paths.size() && !key.isHierarchical())) {
      out.add(new String[] {EpkRange.MIN, EpkRange.MAX, null});
      return out;
    }
    List<List<JsonNode>> combos = new ArrayList<>();
    combos.add(new ArrayList<>());
    for (int level = 0; level < levels; level++) {
      List<List<JsonNode>> next = new ArrayList<>();
      for (List<JsonNode> combo : combos) {
        for (JsonNode v : fixed.get(level)) {
          List<JsonNode> c = new ArrayList<>(combo);
          c.add(v);
          next.add(c);
        }
      }
      combos = next;
      if (combos.size() > 1000) {
        out.add(new String[] {EpkRange.MIN, EpkRange.MAX, null});
        return out;
      }
    }
    java.util.TreeMap<String, String[]> sorted = new java.util.TreeMap<>();
    for (List<JsonNode> combo : combos) {
      com.fasterxml.jackson.databind.node.ArrayNode keyJson =
          com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
      combo.forEach(keyJson::add);
      String epk =
          EffectivePartitionKey.of(
              key, io.cosmolab.engine.partitioning.PartitionKeyValue.fromJson(keyJson));
      sorted.put(
          epk,
          levels == paths.size()
              ? new String[] {epk, epk, "inclusive"}
              : new String[] {epk, epk + "FF", null});
    }
    out.addAll(sorted.values());
    return out;
  }

  QueryPage run(QueryRequest request) {
    CompiledQuery query = compile(request.text(), request.parameters());
    checkOrderByIsIndexed(query.ast());
    RoutingMap map = container.routing();
    EpkRange scope = request.range() == null ? EpkRange.FULL : request.range();
    String exactEpk = null;
    if (request.partitionKey() != null) {
      EffectivePartitionKey.KeyScope key =
          EffectivePartitionKey.scopeOf(container.partitionKey(), request.partitionKey());
      scope = intersect(scope, key.range());
      exactEpk = key.exactEpk();
    }
    if (request.partitionKeyRangeId() != null) {
      scope = intersect(scope, map.require(request.partitionKeyRangeId()).range());
    }
    List<PartitionKeyRange> targets = scope == null ? List.of() : map.overlapping(scope);
    long now = engine.clock().millis();
    Admission[] admissions = new Admission[targets.size()];
    for (int i = 0; i < targets.size(); i++) {
      admissions[i] = container.admit(targets.get(i), targets.get(i).range().min(), now);
    }

    // A streaming query resumes from a position, which survives splits (see Resume below).
    boolean streaming = Resume.isStreaming(query.ast());
    Resume resume =
        streaming
            ? Resume.parse(
                request.continuation(), Resume.binding(request), Resume.identity(query.ast()))
            : null;
    List<StoredDocument> sources = streaming ? new ArrayList<>() : null;
    List<Executor.Input> hits = new ArrayList<>();
    Iterable<Executor.Input> inputs = hits;
    long[] bytesLoaded = new long[targets.size()];
    long[] documentsLoaded = new long[1];
    java.util.Set<io.cosmolab.engine.index.ContainerIndex.DocRef> candidates =
        targets.isEmpty()
            ? null
            : container.indexCandidates(io.cosmolab.query.plan.IndexPredicate.of(query));
    long indexHits = 0;
    boolean ordered = !query.ast().orderBy().isEmpty();
    if (candidates != null) {
      // an index served a filter: load only its hits, in (EPK, id) order as a scan would
      List<io.cosmolab.engine.index.ContainerIndex.DocRef> sorted = new ArrayList<>(candidates);
      sorted.sort(
          java.util.Comparator.comparing(io.cosmolab.engine.index.ContainerIndex.DocRef::epk)
              .thenComparing(
                  io.cosmolab.engine.index.ContainerIndex.DocRef::id,
                  io.cosmolab.engine.store.Utf8Order.COMPARATOR));
      List<io.cosmolab.engine.index.ContainerIndex.DocRef> wanted = new ArrayList<>();
      for (io.cosmolab.engine.index.ContainerIndex.DocRef ref : sorted) {
        if (scope.contains(ref.epk())
            && (exactEpk == null || exactEpk.equals(ref.epk()))
            && (resume == null || !resume.isBefore(ref.epk(), ref.id()))) {
          wanted.add(ref);
        }
      }
      for (StoredDocument d : container.liveDocuments(wanted, now)) {
        indexHits++;
        bytesLoaded[PartitionKeyRange.indexOfOwner(targets, d.epk())] += d.sizeBytes();
        documentsLoaded[0]++;
        hits.add(input(d, ordered, sources));
      }
    } else {
      // a scan streams its documents into the query: no list of every input is built
      inputs =
          scan(targets, scope, exactEpk, ordered, bytesLoaded, documentsLoaded, resume, sources);
    }
    List<JsonNode> rows;
    List<Executor.Output> traced = null;
    int offset;
    int end;
    int[] rowBytes;
    String next;
    try {
      if (streaming) {
        traced = query.executeTraced(inputs, engine.clock().instant());
        offset = resume == null ? 0 : resume.rowsToSkip(traced, sources);
        rows = new ArrayList<>(traced.size());
        for (Executor.Output o : traced) {
          rows.add(o.value());
        }
        rowBytes = pageSizes(rows, offset, request.pageSize());
        end = offset + rowBytes.length;
        next = end < traced.size() ? Resume.after(traced, sources, end, request) : null;
      } else {
        rows = query.execute(inputs, engine.clock().instant());
        String binding = binding(request);
        String identity = Resume.identity(query.ast());
        offset = offset(request.continuation(), identity, binding);
        rowBytes = pageSizes(rows, offset, request.pageSize());
        end = offset + rowBytes.length;
        next = end < rows.size() ? token(identity, binding, end) : null;
      }
    } catch (QueryException e) {
      throw asCosmos(e);
    }
    List<JsonNode> page = new ArrayList<>(Math.max(0, end - offset));
    // Each partition pays for the rows it returns: a streamed row's document says which one; a
    // computed row (ORDER BY, aggregates, DISTINCT ...) is shared by the partitions in proportion
    // to the bytes they loaded [I].
    double[] returned = new double[Math.max(1, targets.size())];
    double shared = 0;
    long returnedBytes = 0;
    for (int i = offset; i < end; i++) {
      JsonNode row = rows.get(i).deepCopy(); // rows may be stored documents: never hand them out
      returnedBytes += rowBytes[i - offset];
      double read = engine.costs().pointRead(rowBytes[i - offset], false);
      if (traced != null) {
        String epk = sources.get((int) traced.get(i).order()).epk();
        returned[PartitionKeyRange.indexOfOwner(targets, epk)] += read;
      } else {
        shared += read;
      }
      page.add(row);
    }
    long loadedBytes = 0;
    for (long b : bytesLoaded) {
      loadedBytes += b;
    }
    for (int i = 0; i < targets.size(); i++) {
      returned[i] +=
          loadedBytes == 0 ? (i == 0 ? shared : 0) : shared * bytesLoaded[i] / (double) loadedBytes;
    }
    // A streaming page reloads from its position, so it pays for what it loads; a recomputed
    // result pays for its loading on the first page only.
    boolean chargeLoading = streaming || offset == 0;

    double total = 0;
    long loadedTotal = 0;
    for (int i = 0; i < targets.size(); i++) {
      long loaded = chargeLoading ? bytesLoaded[i] : 0;
      loadedTotal += loaded;
      double charge = engine.costs().query(1, loaded, returned[i]);
      container.spendQuery(targets.get(i), admissions[i], charge, now);
      total += charge;
    }
    if (targets.isEmpty()) {
      total = engine.costs().query(0, 0, 0);
    }
    QueryMetrics metrics =
        new QueryMetrics(
            targets.size(),
            chargeLoading ? documentsLoaded[0] : 0,
            loadedTotal,
            page.size(),
            returnedBytes,
            chargeLoading ? indexHits : 0);
    return new QueryPage(page, next, Math.round(total * 100) / 100.0, metrics);
  }

  /**
   * The service serves ORDER BY from its indexes, so it refuses what they cannot serve [D]
   * ("Indexing policies"; the messages are the service's): an item that is not a property path, one
   * path the policy does not index, and two or more paths without a composite index listing them in
   * order with the same directions, or all reversed.
   */
  private void checkOrderByIsIndexed(io.cosmolab.query.ast.Query q) {
    if (q.orderBy().isEmpty() || q.from().isEmpty()) {
      return;
    }
    String root = q.from().get(0).alias();
    List<String> paths = new ArrayList<>();
    List<Boolean> ascending = new ArrayList<>();
    io.cosmolab.engine.index.IndexingPolicy policy = container.indexingPolicy();
    for (io.cosmolab.query.ast.Query.OrderItem item : q.orderBy()) {
      List<String> segments = io.cosmolab.query.plan.IndexPredicate.path(item.expression(), root);
      if (segments == null) {
        throw CosmosError.BAD_REQUEST.exception(
            "Unsupported ORDER BY clause. ORDER BY item expression %s could not be mapped to a"
                + " document path.",
            io.cosmolab.query.plan.SqlWriter.write(item.expression()));
      }
      if (q.orderBy().size() == 1 && !policy.isIndexed(segments)) {
        throw CosmosError.BAD_REQUEST.exception(
            "Order-by item requires a range index to be defined on the corresponding index path:"
                + " /%s is excluded by the container's indexing policy.",
            String.join("/", segments));
      }
      paths.add("/" + String.join("/", segments));
      ascending.add(item.ascending());
    }
    if (paths.size() > 1 && !policy.servesOrderBy(paths, ascending)) {
      StringBuilder wanted = new StringBuilder();
      for (int i = 0; i < paths.size(); i++) {
        wanted
            .append(i > 0 ? ", " : "")
            .append(paths.get(i))
            .append(ascending.get(i) ? " ASC" : " DESC");
      }
      throw CosmosError.BAD_REQUEST.exception(
          "The order by query does not have a corresponding composite index that it can be served"
              + " from. Add a composite index (%s) to the container's indexing policy.",
          wanted);
    }
  }

  /**
   * The documents of the targets in scope, in key order, as query inputs, counting what is loaded
   * per target while the query reads them.
   */
  private Iterable<Executor.Input> scan(
      List<PartitionKeyRange> targets,
      EpkRange scope,
      String exactEpk,
      boolean ordered,
      long[] bytesLoaded,
      long[] documentsLoaded,
      Resume resume,
      List<StoredDocument> sources) {
    return () ->
        new Iterator<>() {
          private int target = -1;
          private Iterator<StoredDocument> current = java.util.Collections.emptyIterator();
          private Executor.Input next = advance();

          private Executor.Input advance() {
            while (true) {
              while (current.hasNext()) {
                StoredDocument d = current.next();
                if ((exactEpk == null || exactEpk.equals(d.epk()))
                    && (resume == null || !resume.isBefore(d.epk(), d.id()))) {
                  bytesLoaded[target] += d.sizeBytes();
                  documentsLoaded[0]++;
                  return input(d, ordered, sources);
                }
              }
              if (++target >= targets.size()) {
                return null;
              }
              EpkRange part = intersect(scope, targets.get(target).range());
              if (resume != null) {
                part = resume.clip(part);
              }
              current = part == null ? java.util.Collections.emptyIterator() : container.scan(part);
            }
          }

          @Override
          public boolean hasNext() {
            return next != null;
          }

          @Override
          public Executor.Input next() {
            if (next == null) {
              throw new java.util.NoSuchElementException();
            }
            Executor.Input n = next;
            next = advance();
            return n;
          }
        };
  }

  /**
   * The query input for a document. A streaming query numbers its inputs and keeps their documents
   * in {@code sources}, so a row can be traced back to its position; otherwise the order is the
   * RID's document part, which matters only to ORDER BY ties.
   */
  private static Executor.Input input(
      StoredDocument d, boolean ordered, List<StoredDocument> sources) {
    if (sources != null) {
      sources.add(d);
      return new Executor.Input(d.body(), sources.size() - 1);
    }
    if (!ordered) {
      return new Executor.Input(d.body(), 0);
    }
    byte[] rid = ResourceIds.decode(d.body().get("_rid").textValue());
    return new Executor.Input(d.body(), ResourceIds.documentPart(rid));
  }

  private static EpkRange intersect(EpkRange a, EpkRange b) {
    return a == null || b == null ? null : a.intersect(b);
  }

  private static String binding(QueryRequest r) {
    CRC32 crc = new CRC32();
    String scope =
        r.text()
            + '\u0000'
            + r.parameters()
            + '\u0000'
            + r.partitionKey()
            + '\u0000'
            + r.partitionKeyRangeId()
            + '\u0000'
            + r.range();
    crc.update(scope.getBytes(StandardCharsets.UTF_8));
    return Long.toHexString(crc.getValue());
  }

  private static String token(String identity, String binding, int offset) {
    String raw = "v1:" + identity + ":" + binding + ":" + offset;
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(raw.getBytes(StandardCharsets.UTF_8));
  }

  private static int offset(String token, String identity, String binding) {
    if (token == null || token.isEmpty()) {
      return 0;
    }
    String raw;
    try {
      raw = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw invalidToken(token);
    }
    if (raw.startsWith("v2:")) {
      throw Resume.tokenOfAnotherQuery(token); // a position token: only streaming queries issue it
    }
    String[] parts = raw.split(":", -1);
    if (parts.length != 4 || !parts[0].equals("v1")) {
      throw invalidToken(token);
    }
    if (!parts[1].equals(identity)) {
      throw Resume.tokenOfAnotherQuery(token);
    }
    if (!parts[2].equals(binding)) {
      // the same query with a filter added (the SDKs' ORDER BY resume) or over a child of the
      // range that issued the token (a split): start over, which those callers expect
      return 0;
    }
    try {
      int offset = Integer.parseInt(parts[3]);
      if (offset < 0) {
        throw invalidToken(token);
      }
      return offset;
    } catch (NumberFormatException e) {
      throw invalidToken(token);
    }
  }

  /**
   * The most a page's rows may weigh: the service ends a page near 4 MB whatever the item count
   * asked for, and continues on the next. [D] concepts-limits: maximum response size 4 MB
   */
  static final long MAX_PAGE_BYTES = 4L * 1024 * 1024;

  /**
   * The sizes of the rows of the page that starts at {@code offset}, which also says where it ends:
   * after {@code pageSize} rows, or earlier once the rows reach {@link #MAX_PAGE_BYTES} (a page
   * always holds at least one row, as a single document can be up to 2 MB). Each row is sized once,
   * here; the charge and the metrics read these sizes.
   */
  private static int[] pageSizes(List<JsonNode> rows, int offset, int pageSize) {
    int end = (int) Math.min(rows.size(), (long) offset + pageSize);
    int[] sizes = new int[Math.max(0, end - offset)];
    long bytes = 0;
    for (int i = offset; i < end; i++) {
      int size = DocumentShape.sizeOf(rows.get(i));
      bytes += size;
      if (bytes > MAX_PAGE_BYTES && i > offset) {
        return java.util.Arrays.copyOf(sizes, i - offset);
      }
      sizes[i - offset] = size;
    }
    return sizes;
  }

  /** The 400 for a continuation token this server did not issue (shared with {@link Resume}). */
  static CosmosException invalidToken(String token) {
    return CosmosError.BAD_REQUEST.exception(
        "Invalid Continuation Token: '%s' was not issued by this server for a query",
        token.length() > 64 ? token.substring(0, 64) + "…" : token);
  }
}
