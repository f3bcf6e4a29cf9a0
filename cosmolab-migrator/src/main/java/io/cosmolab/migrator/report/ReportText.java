package io.cosmolab.migrator.report;

import io.cosmolab.migrator.ChangeFeedMode;
import io.cosmolab.migrator.MigrationState;
import io.cosmolab.migrator.RangeProgress;
import io.cosmolab.migrator.VerifyReport;
import java.util.Locale;

/** The state, the ranges, a comparison and a report as terminal text. */
public final class ReportText {
  private ReportText() {}

  static String render(MigrationReport r) {
    StringBuilder b = new StringBuilder();
    MigrationState s = r.state();
    b.append(s.source()).append(" -> ").append(s.target()).append(" by ").append(s.partitionKey());
    b.append('\n').append(line(s)).append(ranges(s)).append('\n');
    if (r.verify() != null) {
      b.append(verify(r.verify()));
      b.append(
          String.format(
              Locale.ROOT,
              "  read %,d of %,d partitions, %,d documents, %,.1f RU%n",
              r.verify().partitionsRead(),
              r.verify().partitions(),
              r.verify().documentsRead(),
              r.verifyRequestUnits()));
    }
    if (r.command().equals("cutover")) {
      b.append(r.safe() ? "SAFE: " : "NOT SAFE: ").append(r.verdict()).append('\n');
    } else {
      b.append(r.safe() ? "verdict: equal" : "verdict: different").append('\n');
    }
    return b.toString();
  }

  /** The state in one line: where the run is, its rates, and its totals. */
  public static String line(MigrationState s) {
    String where;
    if (s.phase() == MigrationState.Phase.COPYING) {
      double eta = s.copyEtaSeconds();
      where =
          String.format(
              Locale.ROOT,
              "copying: copied %,d%s%s",
              s.copied(),
              s.sourceDocuments() > 0
                  ? String.format(
                      Locale.ROOT,
                      " of ~%,d (%.0f%%)",
                      s.sourceDocuments(),
                      100.0 * copyFraction(s))
                  : "",
              eta >= 0 ? String.format(Locale.ROOT, ", ETA %s", duration(eta)) : "");
    } else {
      where = String.format(Locale.ROOT, "catching up: copied %,d", s.copied());
    }
    return String.format(
        Locale.ROOT,
        "%s, skipped %,d, applied %,d (%,d deletes%s), lag %.1f s%s; %,.0f docs/s, %,.0f RU/s;"
            + " %,d 429s, %,.0f RU in all; %s feed%s",
        where,
        s.skipped(),
        s.applied(),
        s.deleted(),
        s.changeFeedMode() == ChangeFeedMode.LATEST_VERSION
            ? String.format(Locale.ROOT, ", %,d removed by reconciliation", s.removed())
            : "",
        s.lagSeconds(),
        s.lagDocuments() >= 0 ? String.format(Locale.ROOT, " and %,d docs", s.lagDocuments()) : "",
        s.documentsPerSecond(),
        s.ruPerSecond(),
        s.throttled(),
        s.requestUnits(),
        s.changeFeedMode(),
        s.ready() ? " - ready" : "");
  }

  /**
   * One line per source feed range (its position in the feed, its counts and its lag), then the
   * incremental verification's line once it has run.
   */
  public static String ranges(MigrationState s) {
    StringBuilder b = new StringBuilder();
    for (RangeProgress r : s.ranges()) {
      b.append(
          String.format(
              Locale.ROOT,
              "%n  range %-24s %s copied %,d, applied %,d%s",
              r.label(),
              r.split() ? "split; " : "at " + (r.position() == null ? "?" : r.position()) + ";",
              r.copied(),
              r.applied(),
              r.split() || r.lagDocuments() < 0
                  ? ""
                  : String.format(Locale.ROOT, ", lag %,d docs", r.lagDocuments())));
    }
    if (s.verifiedAtMillis() > 0 || !s.changed().isEmpty()) {
      b.append(
          String.format(
              Locale.ROOT,
              "%n  verified %,d partitions, %,d differ (%,d documents), %,d changed since",
              s.verifiedPartitions(),
              s.differingPartitions(),
              s.differences(),
              s.changed().size()));
    }
    return b.toString();
  }

  /** A comparison: its counts, then every difference, one a line. */
  public static String verify(VerifyReport v) {
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            Locale.ROOT,
            "verify: %,d logical partitions, %,d differ; source %,d documents, target %,d%s%n",
            v.partitions(),
            v.differingPartitions(),
            v.sourceDocuments(),
            v.targetDocuments(),
            v.pending() > 0
                ? String.format(Locale.ROOT, "; %,d changed, not verified yet", v.pending())
                : ""));
    for (VerifyReport.Difference d : v.differences()) {
      b.append("  ").append(d.kind()).append(' ').append(d.partitionKey()).append(' ');
      b.append(d.id()).append('\n');
    }
    return b.toString();
  }

  /** The share of the source's documents the copy has written. */
  public static double copyFraction(MigrationState s) {
    return Math.min(1, (s.copied() + s.skipped()) / (double) Math.max(1, s.sourceDocuments()));
  }

  /** Seconds as "12 s", "3 min 04 s" or "2 h 05 min". */
  public static String duration(double seconds) {
    long t = Math.round(seconds);
    return t < 60
        ? t + " s"
        : t < 3600
            ? String.format(Locale.ROOT, "%d min %02d s", t / 60, t % 60)
            : String.format(Locale.ROOT, "%d h %02d min", t / 3600, t / 60 % 60);
  }
}
