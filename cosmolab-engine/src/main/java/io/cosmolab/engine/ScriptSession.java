package io.cosmolab.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.document.DocumentCondition;
import io.cosmolab.engine.document.PatchOperation;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.script.ScriptHost;
import io.cosmolab.engine.script.ScriptLimits;
import io.cosmolab.engine.store.StoredDocument;
import io.cosmolab.query.CompiledQuery;
import io.cosmolab.query.QueryException;
import io.cosmolab.query.exec.Executor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One execution of a stored procedure or of a request's triggers, as the script sees it: the
 * request and response, and the collection's operations on the request's logical partition, all on
 * one {@link WritePath.Transaction}. Confined to the thread that holds the partition's lock.
 */
/*
 * Partition scope. Every operation addresses the request's logical partition: a document link
 * names only an id, which is looked up there; a document created, upserted or replaced must carry
 * that partition's key, else the operation fails with the service's 400 ("Requests originating
 * from scripts cannot reference partition keys other than the one for which client request was
 * submitted."). So a script can never write outside the transaction it runs in.
 *
 * Charges. Each operation is charged what the same point operation costs; a query or a
 * readDocuments page what a query of its documents costs in one partition. The engine adds the
 * script's time when it finishes (Container#scriptTimeCharge).
 */
final class ScriptSession implements ScriptHost {
  /** The message the service answers an operation on another logical partition with. */
  static final String OTHER_PARTITION =
      "Requests originating from scripts cannot reference partition keys other than the one for"
          + " which client request was submitted.";

  /** [A] queryDocuments' and readDocuments' default page size. */
  static final int DEFAULT_PAGE_SIZE = 100;

  private final Container container;
  private final WritePath.Transaction tx;
  private final Target scope;
  private final ScriptLimits limits;
  private final Map<String, String> headers;
  private final String operationType;
  private final StringBuilder log;
  private final long startedNanos;
  private JsonNode requestBody;
  private JsonNode responseBody;
  private int operations;
  private double charge;

  ScriptSession(
      Container container,
      WritePath.Transaction tx,
      Target scope,
      ScriptLimits limits,
      Map<String, String> headers,
      String operationType,
      JsonNode requestBody,
      boolean logging) {
    this.container = container;
    this.tx = tx;
    this.scope = scope;
    this.limits = limits;
    // header names are case-insensitive; a script may change a value (setValue), not add a name
    this.headers = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    if (headers != null) {
      this.headers.putAll(headers);
    }
    this.operationType = operationType;
    this.requestBody = requestBody;
    this.log = logging ? new StringBuilder() : null;
    this.startedNanos = System.nanoTime();
  }

  /** The RU of the operations so far. */
  double operationsCharge() {
    return charge;
  }

  /** Nanoseconds since the session started. */
  long elapsedNanos() {
    return System.nanoTime() - startedNanos;
  }

  /** The log lines, or null when logging was not asked for. */
  String logText() {
    return log == null ? null : log.toString();
  }

  @Override
  public String selfLink() {
    return container.selfLink();
  }

  @Override
  public String altLink() {
    return "dbs/" + container.database().id() + "/colls/" + container.id();
  }

  @Override
  public JsonNode requestBody() {
    return requestBody;
  }

  @Override
  public void setRequestBody(JsonNode body) {
    this.requestBody = body;
  }

  @Override
  public Map<String, String> requestHeaders() {
    return java.util.Collections.unmodifiableMap(headers);
  }

  @Override
  public void setRequestHeader(String name, String value) {
    if (name == null || !headers.containsKey(name)) {
      throw CosmosError.BAD_REQUEST.exception(
          "getRequest().setValue('%s', ...): the request has no such header, and setValue cannot"
              + " create one",
          name);
    }
    headers.put(name, value == null ? "" : value);
  }

  @Override
  public String operationType() {
    return operationType;
  }

  @Override
  public JsonNode responseBody() {
    return responseBody;
  }

  @Override
  public void setResponseBody(JsonNode body) {
    this.responseBody = body;
  }

  @Override
  public long maxResponseBodySize() {
    return io.cosmolab.engine.limits.Limits.MAX_RESPONSE_BYTES;
  }

  @Override
  public boolean isAccepted() {
    return operations < limits.acceptedOperations()
        && elapsedNanos() < limits.timeout().toNanos() * limits.acceptedFraction();
  }

  @Override
  public void log(String line) {
    if (log != null) {
      log.append(line).append('\n');
    }
  }

  @Override
  public ScriptLimits limits() {
    return limits;
  }

  // ------------------------------------------------------------------ collection operations

  @Override
  public JsonNode create(JsonNode document, boolean disableAutomaticIdGeneration) {
    ObjectNode doc = withId(document, disableAutomaticIdGeneration);
    Target t = inScope(doc);
    return spent(tx.create(t, tx.prepared(t, doc))).document();
  }

  @Override
  public JsonNode upsert(JsonNode document, boolean disableAutomaticIdGeneration, String ifMatch) {
    ObjectNode doc = withId(document, disableAutomaticIdGeneration);
    Target t = inScope(doc);
    return spent(tx.upsert(t, tx.prepared(t, doc), ifMatch)).document();
  }

  @Override
  public JsonNode read(String link, String ifNoneMatch) {
    ItemResponse r = spent(tx.read(scope.withId(idOf(link)), ifNoneMatch));
    return r.document();
  }

  @Override
  public JsonNode replace(String link, JsonNode document, String ifMatch) {
    ObjectNode doc = object(document);
    Target t = scope.withId(idOf(link));
    try {
      t.checkBodyMatches(container.partitionKey(), doc);
    } catch (CosmosException e) {
      throw e.error() == CosmosError.PARTITION_KEY_MISMATCH
          ? CosmosError.BAD_REQUEST.exception(OTHER_PARTITION)
          : e;
    }
    return spent(tx.replace(t, tx.prepared(t, doc), ifMatch)).document();
  }

  @Override
  public void delete(String link, String ifMatch) {
    spent(tx.delete(scope.withId(idOf(link)), ifMatch));
  }

  @Override
  public JsonNode patch(String link, JsonNode operations, String filterPredicate, String ifMatch) {
    if (operations == null || !operations.isArray()) {
      throw CosmosError.BAD_REQUEST.exception(
          "patchDocument needs an array of operations, e.g. [{op: 'set', path: '/a', value: 1}],"
              + " was %s",
          operations);
    }
    List<PatchOperation> ops = new ArrayList<>();
    for (JsonNode o : operations) {
      ops.add(
          new PatchOperation(
              PatchOperation.Type.fromWireName(o.path("op").asText(null)),
              o.path("path").asText(null),
              o.get("value"),
              o.path("from").asText(null)));
    }
    Container.checkPatchSize(ops);
    DocumentCondition condition =
        filterPredicate == null || filterPredicate.isBlank()
            ? null
            : container.condition(filterPredicate);
    return spent(tx.patch(scope.withId(idOf(link)), ops, condition, ifMatch)).document();
  }

  @Override
  public Page query(String sql, JsonNode parameters, int pageSize, String continuation) {
    Map<String, JsonNode> params = new LinkedHashMap<>();
    if (parameters != null && parameters.isArray()) {
      for (JsonNode p : parameters) {
        params.put(p.path("name").asText(), p.get("value"));
      }
    }
    CompiledQuery q;
    try {
      q = CompiledQuery.compile(sql, params);
    } catch (QueryException e) {
      throw QueryRunner.asCosmos(e);
    }
    List<StoredDocument> docs = tx.logicalPartition(scope.epk());
    List<Executor.Input> inputs = new ArrayList<>(docs.size());
    for (int i = 0; i < docs.size(); i++) {
      inputs.add(new Executor.Input(docs.get(i).body(), i));
    }
    int from = offset(continuation);
    int size = pageSize <= 0 ? DEFAULT_PAGE_SIZE : pageSize;
    boolean streaming = Resume.isStreaming(q.ast());
    // streaming but for TOP or OFFSET ... LIMIT: its rows come in document order too, and the
    // executor stops reading at TOP's last row
    boolean streamsBounded = Resume.streamsButForBounds(q);
    Executor.RowBounds bounds = QueryRunner.rowBounds(q);
    // a streaming query stops after the page and one more row, which says whether one follows
    List<JsonNode> rows = new ArrayList<>();
    List<Long> orders = new ArrayList<>();
    try (ContainerScripts.UdfCalls udfs = container.userFunctions()) {
      Executor.Cursor c =
          q.open(
              inputs,
              container.engineClock().instant(),
              streaming || streamsBounded ? -1 : (long) from + size + 1,
              udfs);
      for (Executor.Output o = c.next(); o != null; o = c.next()) {
        rows.add(o.value().deepCopy());
        orders.add(o.order());
        if ((streaming || streamsBounded) && rows.size() > from + size) {
          break;
        }
      }
    } catch (QueryException e) {
      throw QueryRunner.asCosmos(e);
    }
    int to = Math.min(rows.size(), from + size);
    boolean more = rows.size() > to;
    // charged for what this page read, as a query page is (QueryRunner): a streaming page for the
    // documents from the one after the previous page's last row to its own last row (the last
    // page, to the end, or to TOP's last row, where the executor stopped); any other shape reads
    // everything for its first page
    long bytes = 0;
    if (streaming || streamsBounded) {
      int first =
          from == 0 ? 0 : from <= orders.size() ? (int) (orders.get(from - 1) + 1) : docs.size();
      boolean boundReached = streamsBounded && bounds.reached(bounds.skip() + rows.size());
      int last =
          more
              ? (int) (long) orders.get(to - 1)
              : boundReached
                  ? (rows.isEmpty() ? -1 : (int) (long) orders.get(rows.size() - 1))
                  : docs.size() - 1;
      for (int i = first; i <= last && i < docs.size(); i++) {
        bytes += docs.get(i).sizeBytes();
      }
    } else if (from == 0) {
      for (StoredDocument d : docs) {
        bytes += d.sizeBytes();
      }
    }
    operations++;
    List<JsonNode> page = from >= to ? List.of() : rows.subList(from, to);
    charge += container.engineCosts().query(1, bytes, page.size());
    return new Page(List.copyOf(page), more ? Integer.toString(to) : null);
  }

  @Override
  public Page readAll(int pageSize, String continuation) {
    List<StoredDocument> docs = tx.logicalPartition(scope.epk());
    int from = offset(continuation);
    int size = pageSize <= 0 ? DEFAULT_PAGE_SIZE : pageSize;
    int to = Math.min(docs.size(), from + size);
    List<JsonNode> page = new ArrayList<>();
    long bytes = 0;
    for (int i = from; i < to; i++) {
      page.add(docs.get(i).body().deepCopy());
      bytes += docs.get(i).sizeBytes();
    }
    operations++;
    charge += container.engineCosts().query(1, bytes, page.size());
    return new Page(page, to < docs.size() ? Integer.toString(to) : null);
  }

  /**
   * Where a page starts: the continuation is the offset of the next result, as decimal text. [A]
   * The service's token is opaque; scripts only hand it back.
   */
  private static int offset(String continuation) {
    if (continuation == null || continuation.isEmpty()) {
      return 0;
    }
    try {
      int from = Integer.parseInt(continuation);
      if (from >= 0) {
        return from;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw CosmosError.BAD_REQUEST.exception(
        "the continuation '%s' was not given by this query's earlier page", continuation);
  }

  // ------------------------------------------------------------------ helpers

  private ItemResponse spent(ItemResponse r) {
    operations++;
    charge += r.requestCharge();
    return r;
  }

  private static ObjectNode object(JsonNode document) {
    if (document == null || !document.isObject()) {
      throw CosmosError.BAD_REQUEST.exception("a document must be a JSON object, was %s", document);
    }
    return (ObjectNode) document.deepCopy();
  }

  private static ObjectNode withId(JsonNode document, boolean disableAutomaticIdGeneration) {
    ObjectNode doc = object(document);
    if (!doc.hasNonNull("id")) {
      if (disableAutomaticIdGeneration) {
        throw CosmosError.BAD_REQUEST.exception(
            "The input content is invalid because the required property 'id' is missing (and"
                + " disableAutomaticIdGeneration is set)");
      }
      doc.put("id", UUID.randomUUID().toString());
    }
    return doc;
  }

  /** The document's place, which must be the request's logical partition. */
  private Target inScope(ObjectNode doc) {
    Target t;
    try {
      t = Target.of(container.partitionKey(), null, doc);
    } catch (CosmosException e) {
      if (e.error() == CosmosError.PARTITION_KEY_MISMATCH) {
        throw CosmosError.BAD_REQUEST.exception(OTHER_PARTITION);
      }
      throw e;
    }
    if (!t.key().equals(scope.key())) {
      throw CosmosError.BAD_REQUEST.exception(OTHER_PARTITION);
    }
    return t;
  }

  /**
   * The id a document link names: {@code dbs/d/colls/c/docs/<id>}, a self link ending in the
   * document's RID, or a bare id.
   */
  private String idOf(String link) {
    if (link == null || link.isEmpty()) {
      throw CosmosError.BAD_REQUEST.exception("a document link is needed, was %s", link);
    }
    String s = link.endsWith("/") ? link.substring(0, link.length() - 1) : link;
    int at = s.lastIndexOf("/docs/");
    String last = at >= 0 ? s.substring(at + 6) : s;
    if (tx.current(scope.withId(last)) != null) {
      return last;
    }
    for (StoredDocument d : tx.logicalPartition(scope.epk())) {
      if (last.equals(d.body().path("_rid").asText())) {
        return d.id();
      }
    }
    return last; // the operation answers 404 naming it
  }
}
