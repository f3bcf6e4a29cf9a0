package io.cosmolab.gateway.resources;

import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.gateway.auth.ResourceTokens;
import io.cosmolab.gateway.wire.TraceLine;

/**
 * Which requests a transport may serve on its network event loop instead of handing them to a
 * worker thread and back: a point read of a document, signed with the master key, on an engine
 * whose point reads never wait ({@link CosmosEngine#pointReadsNeverWait}, the in-memory store).
 */
/*
 * Why only these. A loop serves many connections; a request that waits there (for a lock another
 * thread holds, or for I/O) stalls all of them. On its way a master-signed point read on the
 * in-memory store takes no lock and does no I/O: the translation of the request, the signature
 * check (a per-thread MAC), the name lookups (concurrent maps), the replica check and the LSN (the
 * layout's atomic snapshot), the read (the store's concurrent map, the lock-free budget, the
 * metrics' inbox: PointReadsNeverWaitTest) and the request meters (per-thread cells). Anything
 * else may wait and goes to the workers: a write takes its partition's lock and may sync to disk; a
 * query or a feed may build an index; a resource token's check reads the users' permissions; the
 * trace line writes to stderr; the RocksDB store reads from disk.
 *
 * The hand-off is most of a point read's time on a small host (docs/benchmarks.md, "Direct mode"
 * and "The gateway under concurrency"), and point reads are most of what an application sends.
 *
 * Immutable.
 */
public final class LoopPolicy {
  /** Every request goes to the workers. */
  public static final LoopPolicy NEVER = new LoopPolicy(false);

  private final boolean pointReads;

  private LoopPolicy(boolean pointReads) {
    this.pointReads = pointReads;
  }

  /** The policy for {@code engine}: point reads on the loop when they never wait. */
  public static LoopPolicy of(CosmosEngine engine) {
    return engine.pointReadsNeverWait() ? new LoopPolicy(true) : NEVER;
  }

  /**
   * Whether a request may run on the loop.
   *
   * @param documentPointRead whether it reads one document by id (GET {@code
   *     dbs/{db}/colls/{coll}/docs/{id}}, or its direct-mode frame)
   * @param authorization its {@code authorization} header or token, as sent (null: none; the
   *     protocol answers 401 at once unless authentication is off)
   */
  public boolean servesOnLoop(boolean documentPointRead, String authorization) {
    return pointReads
        && documentPointRead
        && !TraceLine.ENABLED
        && !ResourceTokens.isResourceToken(authorization);
  }

  /**
   * Whether an HTTP request target names one document and nothing else ({@code
   * /dbs/{db}/colls/{coll}/docs/{id}}, no query): a point read when its method is GET.
   */
  public static boolean isDocumentPath(String uri) {
    if (uri.indexOf('?') >= 0 || uri.indexOf('#') >= 0) {
      return false;
    }
    int from = uri.startsWith("/") ? 1 : 0;
    int end = uri.endsWith("/") ? uri.length() - 1 : uri.length();
    String[] expected = {"dbs", null, "colls", null, "docs", null};
    int segment = 0;
    while (from <= end) {
      int slash = uri.indexOf('/', from);
      int stop = slash < 0 || slash > end ? end : slash;
      if (segment == expected.length || stop == from) {
        return false;
      }
      String name = expected[segment];
      if (name != null && !uri.regionMatches(true, from, name, 0, stop - from)) {
        return false;
      }
      if (name != null && stop - from != name.length()) {
        return false;
      }
      segment++;
      from = stop + 1;
    }
    return segment == expected.length;
  }
}
