package io.cosmolab.rehearsal.report;

import io.cosmolab.rehearsal.CandidateResult;
import io.cosmolab.rehearsal.RehearsalReport;
import java.util.Locale;

/** A report as a terminal shows it: one block per candidate, best first in the scenario's order. */
public final class TerminalSummary {
  private TerminalSummary() {}

  /** The summary text, lines ending in {@code \n}. */
  public static String render(RehearsalReport r) {
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            Locale.ROOT,
            "rehearsal %s: %s %s, throughput %s, scale 1:%s, seed %d%n",
            r.scenario(),
            clock(r.durationSeconds()),
            r.live()
                ? "live against " + r.against() + " (" + r.connection() + " mode)"
                : "of virtual time",
            r.throughput(),
            number(r.scale()),
            r.seed()));
    if (!r.description().isEmpty()) {
      b.append("  ").append(r.description()).append('\n');
    }
    b.append(
        String.format(
            Locale.ROOT,
            "%n%-22s %-11s %8s %9s %9s %10s %8s %10s %6s%n",
            "candidate",
            "verdict",
            "peak 429",
            "p99",
            "p99.9",
            "failed",
            "unused",
            "largest",
            "splits"));
    for (CandidateResult c : r.candidates()) {
      CandidateResult.Headline h = c.headline();
      b.append(
          String.format(
              Locale.ROOT,
              "%-22s %-11s %7.1f%% %9s %9s %10s %7.0f%% %10s %6d%n",
              c.candidate(),
              c.verdict(),
              h.peak429Share() * 100,
              millis(h.p99Millis()),
              millis(h.p999Millis()),
              String.format(Locale.ROOT, "%,d", h.failedRequests()),
              h.ruUnusedShareWhileThrottling() * 100,
              HtmlReport.bytes(h.largestLogicalPartitionBytes()),
              h.splits()));
    }
    for (CandidateResult c : r.candidates()) {
      b.append('\n').append(c.candidate()).append(": ").append(c.verdict()).append('\n');
      for (String reason : c.reasons()) {
        b.append("  - ").append(reason).append('\n');
      }
      b.append(
          String.format(
              Locale.ROOT,
              "  %-12s %12s %12s %10s %9s %9s %9s%n",
              "phase",
              "requests",
              "429s",
              "failed",
              "p50",
              "p99",
              "p99.9"));
      for (CandidateResult.PhaseStats p : c.phases()) {
        b.append(
            String.format(
                Locale.ROOT,
                "  %-12s %,12d %,12d %,10d %9s %9s %9s%n",
                p.phase(),
                p.requests(),
                p.throttledAttempts(),
                p.failedRequests(),
                millis(p.p50Millis()),
                millis(p.p99Millis()),
                millis(p.p999Millis())));
      }
    }
    return b.toString();
  }

  static String millis(double ms) {
    if (ms >= 1000) {
      return String.format(Locale.ROOT, "%.2f s", ms / 1000);
    }
    return String.format(Locale.ROOT, "%.1f ms", ms);
  }

  static String number(double v) {
    return v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : Double.toString(v);
  }

  static String clock(long seconds) {
    return String.format(
        Locale.ROOT, "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
  }
}
