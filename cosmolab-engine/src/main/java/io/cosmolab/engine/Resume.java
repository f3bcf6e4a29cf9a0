package io.cosmolab.engine;

import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.store.StoredDocument;
import io.cosmolab.query.ast.Query;
import io.cosmolab.query.exec.Executor;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.zip.CRC32;

/**
 * Where a streaming query resumes: after a document's position in (EPK, id) order.
 *
 * <p>A streaming query — no ORDER BY, GROUP BY, aggregate, DISTINCT, TOP or OFFSET, over the
 * container itself — returns rows in the order it reads documents. Its continuation therefore names
 * a position rather than a row count, and a position keeps its meaning on any range: when a
 * partition splits, the SDKs send the parent's token to each child, and each child returns exactly
 * the rows after that position within its own range — nothing twice, nothing lost. Offsets into a
 * recomputed result (the other queries' tokens) cannot do that. A position also survives writes
 * between pages better than an offset.
 *
 * <pre>
 * token = base64url( "v2" ":" binding ":" k ":" epk ":" id )
 *   binding  CRC-32 of the query text and parameters (not the scope: a child range must accept it)
 *   k        rows already returned from the document at (epk, id) — a JOIN yields several
 *   epk, id  the position of the last document a page returned rows from (id last: it may hold ':')
 * </pre>
 */
final class Resume {
  private final String epk;
  private final String id;
  private final int rowsOfDocument;

  private Resume(String epk, String id, int rowsOfDocument) {
    this.epk = epk;
    this.id = id;
    this.rowsOfDocument = rowsOfDocument;
  }

  /** True when the query's rows come out in document order, one document at a time. */
  static boolean isStreaming(Query q) {
    if (!q.orderBy().isEmpty()
        || !q.groupBy().isEmpty()
        || q.distinct()
        || q.top() != null
        || q.offset() != null
        || q.from().isEmpty()
        || q.from().get(0).collection() instanceof Query.Collection.Subquery) {
      return false;
    }
    if (q.select() instanceof Query.Select.Value v) {
      return !Executor.containsAggregate(v.expression());
    }
    if (q.select() instanceof Query.Select.Items items) {
      for (Query.Select.Item i : items.items()) {
        if (Executor.containsAggregate(i.expression())) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * What makes two texts the same query for a continuation: everything but the WHERE clause, as
   * written back from the AST (so spacing and case of keywords do not count). The SDKs resume an
   * ORDER BY query by adding a filter to its WHERE and sending the token again, which must restart
   * that query; a token of any other query is refused, as the service refuses it, since restarting
   * would hand the client rows it already has.
   */
  static String identity(Query q) {
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
    CRC32 crc = new CRC32();
    crc.update(
        io.cosmolab.query.plan.SqlWriter.write(withoutFilter).getBytes(StandardCharsets.UTF_8));
    return Long.toHexString(crc.getValue());
  }

  /** The 400 for a token issued for a different query. */
  static CosmosException tokenOfAnotherQuery(String token) {
    return io.cosmolab.engine.error.CosmosError.BAD_REQUEST.exception(
        "The continuation token specified in the request is malformed: it was issued for a"
            + " different query (a continuation resumes only the query that returned it)");
  }

  static String binding(QueryRequest r) {
    CRC32 crc = new CRC32();
    crc.update((r.text() + '\u0000' + r.parameters()).getBytes(StandardCharsets.UTF_8));
    return Long.toHexString(crc.getValue());
  }

  /**
   * The position a token names, or null to start from the beginning (no token, or an offset token
   * of this query with another filter).
   *
   * @throws CosmosException 400 for a token this server did not issue, or issued for another query
   */
  static Resume parse(String token, String binding, String identity) {
    if (token == null || token.isEmpty()) {
      return null;
    }
    String raw;
    try {
      raw = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw QueryRunner.invalidToken(token);
    }
    if (raw.startsWith("v1:")) {
      // a result-offset token: of this query (perhaps with a filter added), start over
      String[] v1 = raw.split(":", -1);
      if (v1.length == 4 && v1[1].equals(identity)) {
        return null;
      }
      throw v1.length == 4 ? tokenOfAnotherQuery(token) : QueryRunner.invalidToken(token);
    }
    String[] parts = raw.split(":", 5);
    if (parts.length != 5 || !parts[0].equals("v2")) {
      throw QueryRunner.invalidToken(token);
    }
    if (!parts[1].equals(binding)) {
      throw tokenOfAnotherQuery(token);
    }
    try {
      int k = Integer.parseInt(parts[2]);
      if (k < 0) {
        throw QueryRunner.invalidToken(token);
      }
      return new Resume(parts[3], parts[4], k);
    } catch (NumberFormatException e) {
      throw QueryRunner.invalidToken(token);
    }
  }

  /** True when (epk, id) comes before the resume position: its rows were returned already. */
  boolean isBefore(String docEpk, String docId) {
    int c = docEpk.compareTo(epk);
    // ids in the stores' order (UTF-8 bytes), or paging skips or repeats ids above U+E000
    return c < 0 || (c == 0 && io.cosmolab.engine.store.Utf8Order.compare(docId, id) < 0);
  }

  /** The part of {@code range} at or after the position's EPK, or null if none is. */
  EpkRange clip(EpkRange range) {
    if (range == null || range.max().compareTo(epk) <= 0) {
      return null;
    }
    return range.min().compareTo(epk) >= 0 ? range : new EpkRange(epk, range.max());
  }

  /** How many leading rows came from the resume document and were returned already. */
  int rowsToSkip(List<Executor.Output> rows, List<StoredDocument> sources) {
    int skip = 0;
    while (skip < rows.size() && skip < rowsOfDocument) {
      StoredDocument d = sources.get((int) rows.get(skip).order());
      if (!d.epk().equals(epk) || !d.id().equals(id)) {
        break;
      }
      skip++;
    }
    return skip;
  }

  /** The token resuming after row {@code end - 1}. */
  static String after(
      List<Executor.Output> rows, List<StoredDocument> sources, int end, QueryRequest request) {
    long order = rows.get(end - 1).order();
    int k = 0;
    for (int i = end - 1; i >= 0 && rows.get(i).order() == order; i--) {
      k++;
    }
    StoredDocument d = sources.get((int) order);
    String raw = "v2:" + binding(request) + ":" + k + ":" + d.epk() + ":" + d.id();
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(raw.getBytes(StandardCharsets.UTF_8));
  }
}
