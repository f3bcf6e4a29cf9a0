package io.cosmolab.engine.metrics;

import io.cosmolab.engine.query.QueryMetrics;

/**
 * Records the queries a container answers, second by second: how many, how many were
 * cross-partition, and the one with the highest retrieved-to-output document ratio (a fan-out or a
 * synthetic-key read path), for the alert rules.
 */
/*
 * How and why.
 *
 * A ring of WINDOW one-second slots, tagged with their epoch second and reset when the ring comes
 * round, as in PartitionMetrics: memory is fixed and seconds come from the injected clock. A query
 * is counted once, on its first page (a continuation is the same query going on). It is
 * cross-partition when it was not confined to one physical partition by its own scope: it visited
 * more than one, or it is one leg of a client-side fan-out (scoped by a range id or an EPK range,
 * without a partition key, in a container of more than one partition) — the SDKs split a
 * cross-partition query into such legs, so each leg counts as one cross-partition query. [H]
 *
 * Concurrency: every method synchronizes on this object; queries are far rarer than point
 * operations, and nothing here is on the write path of documents.
 */
public final class QueryStats {
  /** Seconds of history kept. */
  public static final int WINDOW_SECONDS = PartitionMetrics.WINDOW_SECONDS;

  private static final int MAX_TEXT = 300;

  private final long[] tags = new long[WINDOW_SECONDS];
  private final long[] queries = new long[WINDOW_SECONDS];
  private final long[] crossPartition = new long[WINDOW_SECONDS];
  private final double[] worstRatio = new double[WINDOW_SECONDS];
  private final long[] worstRetrieved = new long[WINDOW_SECONDS];
  private final long[] worstOutput = new long[WINDOW_SECONDS];
  private final String[] worstText = new String[WINDOW_SECONDS];
  private long totalQueries;
  private long totalCrossPartition;

  public QueryStats() {
    java.util.Arrays.fill(tags, Long.MIN_VALUE);
  }

  /** The queries of a span of seconds, and the worst fan-out among them. */
  public record Window(
      long queries,
      long crossPartition,
      double worstRatio,
      long worstRetrieved,
      long worstOutput,
      String worstText,
      long worstSecond) {
    /** Cross-partition queries as a share of all; 0 without queries. */
    public double crossPartitionShare() {
      return queries == 0 ? 0 : (double) crossPartition / queries;
    }
  }

  /**
   * The first page of a query (callers skip continuations).
   *
   * @param text the query text
   * @param scoped true when the request named a physical partition or an EPK range
   * @param keyed true when the request named a partition key
   * @param physicalPartitions the container's physical partitions now
   * @param metrics the work of the page
   */
  public synchronized void record(
      long nowMillis,
      String text,
      boolean scoped,
      boolean keyed,
      int physicalPartitions,
      QueryMetrics metrics) {
    long second = Math.floorDiv(nowMillis, 1000);
    int i = slot(second);
    queries[i]++;
    totalQueries++;
    boolean cross =
        metrics.partitionsTargeted() > 1 || (scoped && !keyed && physicalPartitions > 1);
    if (cross) {
      crossPartition[i]++;
      totalCrossPartition++;
    }
    long retrieved = metrics.documentsLoaded();
    long output = metrics.documentsReturned();
    double ratio = (double) retrieved / Math.max(1, output);
    if (ratio > worstRatio[i]) {
      worstRatio[i] = ratio;
      worstRetrieved[i] = retrieved;
      worstOutput[i] = output;
      worstText[i] = text.length() <= MAX_TEXT ? text : text.substring(0, MAX_TEXT) + "…";
    }
  }

  private int slot(long second) {
    int i = (int) Math.floorMod(second, (long) WINDOW_SECONDS);
    if (tags[i] != second) {
      tags[i] = second;
      queries[i] = 0;
      crossPartition[i] = 0;
      worstRatio[i] = 0;
      worstRetrieved[i] = 0;
      worstOutput[i] = 0;
      worstText[i] = null;
    }
    return i;
  }

  /** The seconds {@code [fromSecond, toSecond)}; seconds outside the kept window count nothing. */
  public synchronized Window window(long fromSecond, long toSecond) {
    long q = 0;
    long cross = 0;
    double worst = 0;
    long worstR = 0;
    long worstO = 0;
    String text = null;
    long at = 0;
    for (long sec = Math.max(fromSecond, toSecond - WINDOW_SECONDS); sec < toSecond; sec++) {
      int i = (int) Math.floorMod(sec, (long) WINDOW_SECONDS);
      if (tags[i] != sec) {
        continue;
      }
      q += queries[i];
      cross += crossPartition[i];
      if (worstRatio[i] > worst) {
        worst = worstRatio[i];
        worstR = worstRetrieved[i];
        worstO = worstOutput[i];
        text = worstText[i];
        at = sec;
      }
    }
    return new Window(q, cross, worst, worstR, worstO, text, at);
  }

  /** {queries, cross-partition queries} since the container exists. */
  public synchronized long[] totals() {
    return new long[] {totalQueries, totalCrossPartition};
  }
}
