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

  static String binding(QueryRequest r) {
    CRC32 crc = new CRC32();
    crc.update((r.text() + '\u0000' + r.parameters()).getBytes(StandardCharsets.UTF_8));
    return Long.toHexString(crc.getValue());
  }

  /**
   * The position a token names, or null to start from the beginning (no token, or a token of
   * another query).
   *
   * @throws CosmosException 400 for a token this server did not issue
   */
  static Resume parse(String token, String binding) {
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
      return null; // a result-offset token of another query shape: start over
    }
    String[] parts = raw.split(":", 5);
    if (parts.length != 5 || !parts[0].equals("v2")) {
      throw QueryRunner.invalidToken(token);
    }
    if (!parts[1].equals(binding)) {
      return null;
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
    return c < 0 || (c == 0 && docId.compareTo(id) < 0);
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
