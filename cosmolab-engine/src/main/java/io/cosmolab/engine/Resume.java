package io.cosmolab.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.document.JsonTrees;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.query.CompiledQuery;
import io.cosmolab.query.ast.Query;
import io.cosmolab.query.exec.Executor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.zip.CRC32;

/**
 * Where a query page starts, and the continuation tokens that say so: the one codec of query
 * continuations. A first page starts at {@link #START}; a later page after a position in the scan
 * (streaming queries, and those streaming but for TOP or OFFSET), after an ORDER BY's sort keys, a
 * range of partial aggregates, or a number of result rows (every other query).
 */
/*
 * Token format. A token is text, base64url-encoded without padding (so it is legal header text and
 * opaque to clients); fields are separated by ':'.
 *
 *   token    = base64url( position | sortkey | offset | partial )
 *
 *   position = "v2" ":" binding ":" k [ "." n ] ":" epk ":" id
 *     binding  CRC-32 (hex) of the container's RID, the query text and parameters; not the scope,
 *              since a child range of a split must accept its parent's token. While OFFSET is
 *              still skipping rows (a page that ran out of time first), followed by "." and
 *              offset's binding (the scope): each child of a split would skip the rest of the
 *              offset in its own rows, so another scope answers 400 (run the query again) [A]
 *     k        rows already returned from the document at (epk, id) — a JOIN makes several — or
 *              "*" for all of them (a page that ran out of time after the document): the next page
 *              starts after it
 *     n        a query with TOP or OFFSET ... LIMIT: the rows its bounds have counted so far (those
 *              OFFSET skipped and those returned), at most OFFSET + LIMIT; absent for 0 and for
 *              every other query
 *     epk, id  the last document a page returned rows from; id comes last, as it may hold ':'
 *
 *   sortkey  = "v3" ":" identity ":" binding ":" n ":" i ":" order ":" keys
 *     identity, binding  as offset's
 *     n        result rows already returned (what TOP and LIMIT still allow)
 *     i        the last row's index among its document's rows (a JOIN makes several)
 *     order    the RID document part of the last row's document (ORDER BY's tie-breaker)
 *     keys     the last row's sort keys, as JSON: [{"v": key} or {} for undefined, ...]; last, as
 *              it may hold ':'
 *
 *   offset   = "v1" ":" identity ":" binding ":" n
 *     identity CRC-32 (hex) of the container's RID and the query written back without its WHERE
 *              clause (identity())
 *     binding  CRC-32 (hex) of the container's RID, the text, parameters and scope (partition
 *              key, range id, EPK range)
 *     n        result rows already returned
 *
 *   partial  = "v4" ":" binding ":" n ":" from-epk ":" until-epk ":" f ":" from-id until-id
 *     binding  as position's (a split's children accept their parent's token); with n > 0
 *              followed by "." and offset's binding (the scope): a child groups its part of the
 *              range otherwise, so skipping n of its rows would lose some; it answers 400 (run
 *              the query again) [A]
 *     n        result rows of the range already returned
 *     from     the last document earlier pages aggregated ("-" and "" for none: from the start)
 *     until    the last document of a range cut at the page time, whose rows the pages are still
 *              returning ("-" and "" for none: to the end)
 *     f        the length of from-id in chars; the ids come last, as they may hold ':'
 *
 *   Every token names its container's RID in its CRCs, so a token of one container is a 400 on
 *   another (or on a container of the same name made again), not a position in someone else's
 *   documents.
 *
 * What a token resumes (parse()):
 *
 *   - a streaming query (isStreaming) resumes a position token of the same text and parameters.
 *     The position keeps its meaning on any range: after a split the SDKs send the parent's token
 *     to each child, and each child returns exactly the rows after the position in its own range.
 *     The page reads from that document on (it scans no earlier document) and skips the k rows of
 *     it that were returned. A streaming query with TOP or OFFSET ... LIMIT (and no ORDER BY)
 *     streams too: the page runs it without its bounds and counts them on from n, so OFFSET's rows
 *     are read once and TOP ends the last page without reading ahead. On a split's children each
 *     child counts on from n: a client that merges partitions applies TOP across them (the SDKs'
 *     plans do), and a partition key's rows are in one child.
 *   - an ORDER BY query whose every row keeps its own keys (Executor.resumesBySortKey: no GROUP BY,
 *     aggregate, DISTINCT or RANK) resumes a sort-key token: it runs again and keeps only the rows
 *     that sort after the position, so a page holds its own rows in the heap, not every earlier
 *     page's too, and a write that sorts before the position shifts nothing (the service's
 *     continuation holds the last row's ORDER BY items and RID as well). On another scope (a split)
 *     it starts over, as an offset does.
 *   - an aggregating query (isAggregating: aggregates, GROUP BY or DISTINCT, otherwise streaming)
 *     whose page ran out of time returns the aggregates (or distinct rows) of the documents it
 *     read, a partial result the SDKs combine as they do a partition's pages (the service's backend
 *     pages do the same: the docs' pagination page, "the query execution's time was too long"; a
 *     later page may repeat a distinct value, which the SDKs drop), and resumes a partial token:
 *     the next page aggregates the documents after `from` (up to `until`, skipping n rows, when the
 *     cut range had more rows than one page holds).
 *   - any other query resumes an offset token of the same query: it runs again and skips n rows.
 *     The same query with another filter or scope starts from its beginning: the SDKs resume an
 *     ORDER BY query by sending the token with a filter added (gateway-protocol §7.6), and send a
 *     split range's token to its children. Assumption [H]: writes between pages can shift rows.
 *   - a token of another query is a 400, as on the service: starting over would hand the client
 *     rows it has already. A token this server did not issue is a 400 "Invalid Continuation Token".
 */
final class Resume {
  /** The first page. */
  static final Resume START = new Resume(0, null, null, 0, null);

  private final int offset;
  private final String epk;
  private final String id;
  private final int rowsOfDocument;
  private final Executor.After after;
  // a partial token's: the position's document was aggregated already (it is not read again), and
  // the range ends at (untilEpk, untilId) when not null
  private final boolean positionDone;
  private final String untilEpk;
  private final String untilId;
  // a position token's: rows of the stream a TOP or OFFSET has counted (skipped or returned)
  private final long counted;

  private Resume(int offset, String epk, String id, int rowsOfDocument, Executor.After after) {
    this(offset, epk, id, rowsOfDocument, after, false, null, null, 0);
  }

  private Resume(
      int offset,
      String epk,
      String id,
      int rowsOfDocument,
      Executor.After after,
      boolean positionDone,
      String untilEpk,
      String untilId,
      long counted) {
    this.offset = offset;
    this.epk = epk;
    this.id = id;
    this.rowsOfDocument = rowsOfDocument;
    this.after = after;
    this.positionDone = positionDone;
    this.untilEpk = untilEpk;
    this.untilId = untilId;
    this.counted = counted;
  }

  /**
   * True when the query aggregates the documents of a scan (aggregates, GROUP BY, or an unordered
   * DISTINCT) and does nothing after (no ORDER BY, TOP or OFFSET), so its rows over a part of the
   * scan are a partial result a client can combine: a page of it may end at the page time. For
   * DISTINCT that is the service's own contract: it "only guarantees distinct items within a
   * request", and the SDKs remove the values an earlier page returned ([D] a Cosmos DB engineer on
   * azure-cosmos-dotnet-v2#720; the SDKs' unordered distinct stage keeps every value seen).
   */
  static boolean isAggregating(Query q) {
    return readsInDocumentOrderAfterDistinct(q)
        && (!q.groupBy().isEmpty() || Executor.hasAggregate(q) || q.distinct());
  }

  /** True when the query's rows come out in document order, one document at a time. */
  static boolean isStreaming(Query q) {
    return readsInDocumentOrder(q) && q.groupBy().isEmpty() && !Executor.hasAggregate(q);
  }

  /**
   * True when the query would be streaming ({@link #isStreaming}) but for its TOP or OFFSET ...
   * LIMIT: its pages run it without them and count them on (QueryRunner; a script's pages by count,
   * ScriptSession), reading only up to the row that reaches the bound.
   */
  static boolean streamsButForBounds(CompiledQuery q) {
    return (q.ast().top() != null || q.ast().offset() != null)
        && isStreaming(q.withoutRowBounds().ast());
  }

  /**
   * True when the query reads the container's documents in the scan's order and nothing reorders or
   * trims what it makes (no ORDER BY, DISTINCT, TOP or OFFSET; FROM the container, not a subquery):
   * its rows, or its aggregates, are those of the documents read so far.
   */
  private static boolean readsInDocumentOrder(Query q) {
    return !q.distinct() && readsInDocumentOrderAfterDistinct(q);
  }

  /** {@link #readsInDocumentOrder}, DISTINCT aside. */
  private static boolean readsInDocumentOrderAfterDistinct(Query q) {
    return q.orderBy().isEmpty()
        && q.top() == null
        && q.offset() == null
        && !q.from().isEmpty()
        && !(q.from().get(0).collection() instanceof Query.Collection.Subquery);
  }

  /**
   * What makes two texts the same query for a continuation: everything but the WHERE clause, as
   * written back from the AST (so spacing and case of keywords do not count).
   */
  static String identity(Query q, String container) {
    Query withoutFilter =
        new Query(
            q.distinct(),
            q.top(),
            q.select(),
            q.from(),
            null,
            q.groupBy(),
            q.orderBy(),
            q.offset(),
            q.limit());
    return crc(container + '\u0000' + io.cosmolab.query.plan.SqlWriter.write(withoutFilter));
  }

  /**
   * Where the page of {@code request} starts.
   *
   * @throws CosmosException 400 for a token this server did not issue, or issued for another query
   */
  static Resume parse(QueryRequest request, String container, Query q, boolean streaming) {
    String token = request.continuation();
    if (token == null || token.isEmpty()) {
      return START;
    }
    String raw;
    try {
      raw = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw invalidToken(token);
    }
    if (raw.startsWith("v2:")) {
      String[] f = raw.split(":", 5);
      if (f.length != 5 || !isHex(f[3])) {
        throw invalidToken(token);
      }
      int dot = f[2].indexOf('.');
      String rows = dot < 0 ? f[2] : f[2].substring(0, dot);
      long counted = dot < 0 ? 0 : count(f[2].substring(dot + 1), token, Long.MAX_VALUE);
      boolean whole = rows.equals("*");
      int k = whole ? 0 : (int) count(rows, token, Integer.MAX_VALUE);
      int scoped = f[1].indexOf('.');
      String binding = scoped < 0 ? f[1] : f[1].substring(0, scoped);
      if (!streaming || !binding.equals(queryBinding(request, container))) {
        throw tokenOfAnotherQuery();
      }
      if (scoped >= 0 && !f[1].substring(scoped + 1).equals(scopeBinding(request, container))) {
        throw CosmosError.BAD_REQUEST.exception(
            "The continuation token specified in the request resumes an OFFSET that was still"
                + " skipping rows on the scope it was issued for (a partition key range), and the"
                + " scope has changed, as in a split: run the query again");
      }
      return new Resume(0, f[3], f[4], k, null, whole, null, null, counted);
    }
    if (raw.startsWith("v4:")) {
      String[] f = raw.split(":", 7);
      if (f.length != 7) {
        throw invalidToken(token);
      }
      int n = (int) count(f[2], token, Integer.MAX_VALUE);
      int fromLength = (int) count(f[5], token, f[6].length());
      String fromEpk = f[3].equals("-") ? null : f[3];
      String untilEpk = f[4].equals("-") ? null : f[4];
      if ((fromEpk != null && !isHex(fromEpk)) || (untilEpk != null && !isHex(untilEpk))) {
        throw invalidToken(token);
      }
      String expected = queryBinding(request, container);
      String binding = n == 0 ? f[1] : f[1].substring(0, Math.max(0, f[1].indexOf('.')));
      if (!isAggregating(q) || !binding.equals(expected)) {
        throw tokenOfAnotherQuery();
      }
      String fromId = fromEpk == null ? null : f[6].substring(0, fromLength);
      if (n > 0 && !f[1].equals(expected + "." + scopeBinding(request, container))) {
        if (q.groupBy().isEmpty() && !Executor.hasAggregate(q)) {
          // a DISTINCT's range on another scope (a split's child): read on from the range's
          // start, repeating what it returned, which a DISTINCT page may (isAggregating)
          return new Resume(0, fromEpk, fromId, 0, null, true, null, null, 0);
        }
        // rows n+1... of a range's groups: only the scope that grouped them can skip n of them
        throw CosmosError.BAD_REQUEST.exception(
            "The continuation token specified in the request resumes the rows of an aggregate"
                + " query's range on the scope it was issued for (a partition key range), and the"
                + " scope has changed, as in a split: run the query again");
      }
      String untilId = untilEpk == null ? null : f[6].substring(fromLength);
      return new Resume(n, fromEpk, fromId, 0, null, true, untilEpk, untilId, 0);
    }
    if (raw.startsWith("v3:")) {
      String[] f = raw.split(":", 7);
      if (f.length != 7) {
        throw invalidToken(token);
      }
      long n = count(f[3], token, Long.MAX_VALUE); // rows returned: After's count is a long
      int index = (int) count(f[4], token, Integer.MAX_VALUE);
      long order;
      java.util.List<JsonNode> keys;
      try {
        order = Long.parseLong(f[5]);
        keys = sortKeys(f[6]);
      } catch (NumberFormatException | IOException e) {
        throw invalidToken(token);
      }
      if (keys == null) {
        throw invalidToken(token);
      }
      if (!f[1].equals(identity(q, container))
          || !Executor.resumesBySortKey(q)
          || keys.size() != q.orderBy().size()) {
        throw tokenOfAnotherQuery();
      }
      // the same query with a filter added, or over another scope (a split's child), starts over,
      // as an offset does
      return f[2].equals(scopeBinding(request, container))
          ? new Resume(0, null, null, 0, new Executor.After(keys, order, index, n))
          : START;
    }
    if (raw.startsWith("v1:")) {
      String[] f = raw.split(":", -1);
      if (f.length != 4) {
        throw invalidToken(token);
      }
      int n = (int) count(f[3], token, Integer.MAX_VALUE);
      if (!f[1].equals(identity(q, container))) {
        throw tokenOfAnotherQuery();
      }
      // the same query with a filter added (the SDKs' ORDER BY resume), over a child of the range
      // that issued the token (a split), or an offset where a streaming query needs a position:
      // start over, which those callers expect
      return streaming || !f[2].equals(scopeBinding(request, container))
          ? START
          : new Resume(n, null, null, 0, null);
    }
    throw invalidToken(token);
  }

  /**
   * The token of an aggregating query's next page: after the document (fromEpk, fromId) (null: from
   * the start), up to the document (untilEpk, untilId) (null: to the end), {@code rows} of that
   * range's rows returned.
   */
  static String partial(
      QueryRequest request,
      String container,
      String fromEpk,
      String fromId,
      String untilEpk,
      String untilId,
      int rows) {
    String from = fromEpk == null ? "" : fromId;
    return encode(
        "v4:"
            // a position alone holds on a split's children; rows of a range's groups do not
            + queryBinding(request, container)
            + (rows == 0 ? "" : "." + scopeBinding(request, container))
            + ":"
            + rows
            + ":"
            + (fromEpk == null ? "-" : fromEpk)
            + ":"
            + (untilEpk == null ? "-" : untilEpk)
            + ":"
            + from.length()
            + ":"
            + from
            + (untilEpk == null ? "" : untilId));
  }

  /** The EPK of the last document of a partial token's range (null unless {@link #isBounded}). */
  String untilEpk() {
    return untilEpk;
  }

  /** The id of the last document of a partial token's range (null unless {@link #isBounded}). */
  String untilId() {
    return untilId;
  }

  /** The token of the page after {@code rows} result rows (queries that are not streaming). */
  static String afterRows(QueryRequest request, String container, Query q, int rows) {
    return encode(
        "v1:" + identity(q, container) + ":" + scopeBinding(request, container) + ":" + rows);
  }

  /**
   * The most a sort-key token's keys may take. Tokens travel in a header (the SDKs' own limits are
   * a few KB); keys longer than this (a long text sorted on) resume by count instead.
   */
  static final int MAX_SORT_KEY_BYTES = 2048;

  /**
   * The token of the page after the row at {@code after} (queries that {@link
   * Executor#resumesBySortKey resume by sort key}); an offset token after the rows returned when
   * its keys are longer than {@link #MAX_SORT_KEY_BYTES}.
   */
  static String afterSortKey(
      QueryRequest request, String container, Query q, Executor.After after) {
    ArrayNode keys = JsonNodeFactory.instance.arrayNode();
    for (JsonNode k : after.keys()) {
      ObjectNode wrapped = keys.addObject();
      if (k != null) {
        wrapped.set("v", k);
      }
    }
    byte[] written = JsonTrees.write(keys);
    if (written.length > MAX_SORT_KEY_BYTES) {
      return afterRows(
          request, container, q, (int) Math.min(Integer.MAX_VALUE, after.rowsReturned()));
    }
    return encode(
        "v3:"
            + identity(q, container)
            + ":"
            + scopeBinding(request, container)
            + ":"
            + after.rowsReturned()
            + ":"
            + after.index()
            + ":"
            + after.order()
            + ":"
            + new String(written, StandardCharsets.UTF_8));
  }

  /** The sort keys of a token ({@link #afterSortKey}), or null when they are not that shape. */
  private static java.util.List<JsonNode> sortKeys(String json) throws IOException {
    JsonNode keys = JsonTrees.readStrict(json);
    if (!keys.isArray()) {
      return null;
    }
    java.util.List<JsonNode> out = new java.util.ArrayList<>(keys.size());
    for (JsonNode k : keys) {
      if (!k.isObject() || k.size() > 1 || (k.size() == 1 && !k.has("v"))) {
        return null;
      }
      out.add(k.get("v"));
    }
    return out;
  }

  /**
   * The token of the page after every row of the document at (epk, id) (streaming): the next page
   * starts after it, and does not read it again. {@code counted}: the rows a TOP or OFFSET has
   * counted so far (0 for a query without them).
   */
  static String afterWholeDocument(
      QueryRequest request,
      String container,
      String epk,
      String id,
      long counted,
      boolean skipping) {
    return position(request, container, "*", epk, id, counted, skipping);
  }

  /**
   * The token of the page after {@code k} rows of the document at (epk, id) (streaming); {@code
   * counted} as {@link #afterWholeDocument}'s.
   */
  static String afterDocument(
      QueryRequest request, String container, int k, String epk, String id, long counted) {
    return position(request, container, Integer.toString(k), epk, id, counted, false);
  }

  /**
   * A position token: {@code rows} of the document at (epk, id) returned, a count or "*"; bound to
   * the request's scope while OFFSET is {@code skipping}.
   */
  private static String position(
      QueryRequest request,
      String container,
      String rows,
      String epk,
      String id,
      long counted,
      boolean skipping) {
    return encode(
        "v2:"
            + queryBinding(request, container)
            + (skipping ? "." + scopeBinding(request, container) : "")
            + ":"
            + rows
            + (counted == 0 ? "" : "." + counted)
            + ":"
            + epk
            + ":"
            + id);
  }

  /** Result rows earlier pages returned (offset tokens); 0 for a position or the first page. */
  int offset() {
    return offset;
  }

  /** The sort-key position an ORDER BY page resumes after, or null. */
  Executor.After after() {
    return after;
  }

  /** True when the page resumes after a document position. */
  boolean isPosition() {
    return epk != null;
  }

  /** The EPK of the position's document (null unless {@link #isPosition}). */
  String positionEpk() {
    return epk;
  }

  /** The id of the position's document (null unless {@link #isPosition}). */
  String positionId() {
    return id;
  }

  /**
   * Rows of the stream that a TOP or OFFSET counted on earlier pages (skipped or returned); 0 for a
   * first page, or a query without them.
   */
  long counted() {
    return counted;
  }

  /** Rows of the position's document that earlier pages returned. */
  int rowsOfDocument() {
    return rowsOfDocument;
  }

  /** True when (epk, id) is the position's document. */
  boolean isDocument(String docEpk, String docId) {
    return epk != null && epk.equals(docEpk) && id.equals(docId);
  }

  /**
   * True when (epk, id) comes before the position (or is the position's document, when a partial
   * token's pages aggregated it already): its rows were returned already.
   */
  boolean isBefore(String docEpk, String docId) {
    if (epk == null) {
      return false;
    }
    int c = compareKeys(docEpk, docId, epk, id);
    return c < 0 || (positionDone && c == 0);
  }

  /**
   * (epkA, idA) against (epkB, idB) in the stores' key order: EPK, then id as UTF-8 bytes (UTF-16
   * order would skip or repeat ids above U+E000 when paging).
   */
  private static int compareKeys(String epkA, String idA, String epkB, String idB) {
    int c = epkA.compareTo(epkB);
    return c != 0 ? c : io.cosmolab.engine.store.Utf8Order.compare(idA, idB);
  }

  /** True when a partial token's range ends before (epk, id): the page reads no further. */
  boolean isPastUntil(String docEpk, String docId) {
    return untilEpk != null && compareKeys(docEpk, docId, untilEpk, untilId) > 0;
  }

  /** True when a partial token bounds the page's range: the page re-reads it whole, uncut. */
  boolean isBounded() {
    return untilEpk != null;
  }

  /** True when every key of {@code range} comes before the position: its work is done. */
  boolean isPast(EpkRange range) {
    return epk != null && range.max().compareTo(epk) <= 0;
  }

  /** The part of {@code range} at or after the position's EPK, or null if none is. */
  EpkRange clip(EpkRange range) {
    if (range == null || epk == null) {
      return range;
    }
    if (range.max().compareTo(epk) <= 0) {
      return null;
    }
    return range.min().compareTo(epk) >= 0 ? range : new EpkRange(epk, range.max());
  }

  /**
   * True when {@code token} resumes by a count of rows returned (an offset token): a query that
   * pages by position now (a TOP or OFFSET without ORDER BY) took these from servers before it, and
   * resumes one by count.
   */
  static boolean isOffsetToken(String token) {
    if (token == null || token.isEmpty()) {
      return false;
    }
    try {
      byte[] raw = Base64.getUrlDecoder().decode(token);
      return raw.length > 3 && raw[0] == 'v' && raw[1] == '1' && raw[2] == ':';
    } catch (IllegalArgumentException e) {
      return false; // parse() says what is wrong with it
    }
  }

  /** The 400 for a token issued for a different query. */
  static CosmosException tokenOfAnotherQuery() {
    return CosmosError.BAD_REQUEST.exception(
        "The continuation token specified in the request is malformed: it was issued for a"
            + " different query (a continuation resumes only the query that returned it)");
  }

  /** The 400 for a continuation token this server did not issue. */
  static CosmosException invalidToken(String token) {
    return CosmosError.BAD_REQUEST.exception(
        "Invalid Continuation Token: '%s' was not issued by this server for a query",
        token.length() > 64 ? token.substring(0, 64) + "…" : token);
  }

  /** A count a token holds, from 0 to {@code max}; else the token is not one this server issued. */
  private static long count(String field, String token, long max) {
    try {
      long n = Long.parseLong(field);
      if (n < 0 || n > max) {
        throw invalidToken(token);
      }
      return n;
    } catch (NumberFormatException e) {
      throw invalidToken(token);
    }
  }

  private static boolean isHex(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'F'))) {
        return false;
      }
    }
    return true;
  }

  /** Binds a position token: the query text and parameters. */
  private static String queryBinding(QueryRequest r, String container) {
    return crc(container + '\u0000' + r.text() + '\u0000' + r.parameters());
  }

  /** Binds an offset token: the text, the parameters and the scope. */
  private static String scopeBinding(QueryRequest r, String container) {
    return crc(
        container
            + '\u0000'
            + r.text()
            + '\u0000'
            + r.parameters()
            + '\u0000'
            + r.partitionKey()
            + '\u0000'
            + r.partitionKeyRangeId()
            + '\u0000'
            + r.range());
  }

  private static String crc(String s) {
    CRC32 crc = new CRC32();
    crc.update(s.getBytes(StandardCharsets.UTF_8));
    return Long.toHexString(crc.getValue());
  }

  private static String encode(String raw) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(raw.getBytes(StandardCharsets.UTF_8));
  }
}
