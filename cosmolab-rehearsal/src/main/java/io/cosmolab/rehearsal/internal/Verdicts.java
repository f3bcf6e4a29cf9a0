package io.cosmolab.rehearsal.internal;

import io.cosmolab.rehearsal.CandidateResult;
import io.cosmolab.rehearsal.Scenario;
import io.cosmolab.rehearsal.Timeline;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A candidate's verdict in the advisor's words (recommended, risky, rejected) and its reasons,
 * worst first, from what the rehearsal measured.
 */
/*
 * The thresholds are ours [I], in the spirit of the reference material: failed requests are an
 * outage (rejected from 0.1 % of requests; risky below that); a p99 of a second or more in any
 * phase is an incident (rejected) and above 100 ms a degradation (risky); a 429 share above 5 % of
 * attempts in some step is risky (the service's guidance calls 1–5 % acceptable); a logical
 * partition past 16 GB (80 % of 20 GB) is risky, refused writes (403/1014) rejected.
 */
final class Verdicts {
  private Verdicts() {}

  record Verdict(String verdict, List<String> reasons) {}

  private static final double GB = 1024.0 * 1024 * 1024;

  static Verdict judge(
      Scenario scenario,
      CandidateResult.Headline h,
      List<CandidateResult.PhaseStats> phases,
      Timeline timeline,
      int peakStep,
      long preloadRefused,
      String firstOtherFailure) {
    List<String> rejected = new ArrayList<>();
    List<String> risky = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    double failedShare = h.requests() == 0 ? 0 : h.failedRequests() / (double) h.requests();
    if (h.failedStorage() > 0 || preloadRefused > 0) {
      rejected.add(
          String.format(
              Locale.ROOT,
              "%,d writes refused with 403/1014: logical partition %s is full (%.1f of 20 GB)",
              h.failedStorage() + preloadRefused * Math.round(scenario.effectiveScale()),
              h.largestLogicalPartitionKey(),
              h.largestLogicalPartitionBytes() / GB));
    }
    if (h.failedThrottled() > 0) {
      String text =
          String.format(
              Locale.ROOT,
              "%,d requests (%s) failed after the SDK's %d retries or %d s of waiting on 429s",
              h.failedThrottled(),
              percent(h.failedThrottled() / (double) Math.max(1, h.requests())),
              scenario.client().maxRetries(),
              scenario.client().maxRetryWait().toSeconds());
      (failedShare >= 0.001 ? rejected : risky).add(text);
    }
    if (firstOtherFailure != null) {
      risky.add("other failures, the first: " + firstOtherFailure);
    }
    CandidateResult.PhaseStats worst = null;
    for (CandidateResult.PhaseStats p : phases) {
      if (worst == null || p.p99Millis() > worst.p99Millis()) {
        worst = p;
      }
    }
    if (worst != null && worst.p99Millis() >= 100) {
      String text =
          String.format(
              Locale.ROOT,
              "p99 %s in phase %s (retries waiting on 429s)",
              duration(worst.p99Millis()),
              worst.phase());
      (worst.p99Millis() >= 1000 ? rejected : risky).add(text);
    }
    if (h.peak429Share() > 0) {
      String where =
          peakStep < 0
              ? ""
              : " at " + clock(peakStep * timeline.stepSeconds()) + busiestLane(timeline, peakStep);
      String text =
          String.format(
              Locale.ROOT, "peak 429 share %s of attempts%s", percent(h.peak429Share()), where);
      if (h.peak429Share() > 0.05) {
        risky.add(text);
      } else {
        notes.add(text);
      }
    }
    if (h.ruUnusedShareWhileThrottling() > 0.3) {
      notes.add(
          String.format(
              Locale.ROOT,
              "while throttling, %s of the RU/s went unused (%,.0f RU/s): a hot partition, not too"
                  + " little throughput",
              percent(h.ruUnusedShareWhileThrottling()),
              h.ruUnusedWhileThrottling()));
    }
    if (h.largestLogicalPartitionBytes() > 0.8 * h.logicalPartitionLimitBytes()
        && h.failedStorage() == 0) {
      risky.add(
          String.format(
              Locale.ROOT,
              "logical partition %s holds %.1f GB of the 20 GB it may",
              h.largestLogicalPartitionKey(),
              h.largestLogicalPartitionBytes() / GB));
    }
    if (h.splits() > 0) {
      notes.add(
          String.format(
              Locale.ROOT,
              "%d split%s: %d physical partitions at the end (%d at the start)",
              h.splits(),
              h.splits() == 1 ? "" : "s",
              h.physicalPartitionsAtEnd(),
              h.physicalPartitionsAtStart()));
    }
    String verdict = !rejected.isEmpty() ? "rejected" : !risky.isEmpty() ? "risky" : "recommended";
    List<String> reasons = new ArrayList<>(rejected);
    reasons.addAll(risky);
    reasons.addAll(notes);
    if (reasons.isEmpty()) {
      reasons.add(
          String.format(
              Locale.ROOT, "no 429s; p99 %s; every request served", duration(h.p99Millis())));
    }
    return new Verdict(verdict, reasons);
  }

  private static String busiestLane(Timeline t, int step) {
    Timeline.Lane best = null;
    for (Timeline.Lane l : t.lanes()) {
      if (best == null || l.throttled().get(step) > best.throttled().get(step)) {
        best = l;
      }
    }
    return best == null || best.throttled().get(step) == 0 ? "" : ", partition " + best.partition();
  }

  static String percent(double share) {
    if (share > 0 && share < 0.001) {
      return String.format(Locale.ROOT, "%.2f%%", share * 100);
    }
    return String.format(Locale.ROOT, "%.1f%%", share * 100);
  }

  static String duration(double millis) {
    return millis >= 1000
        ? String.format(Locale.ROOT, "%.1f s", millis / 1000)
        : String.format(Locale.ROOT, "%.0f ms", millis);
  }

  static String clock(long seconds) {
    return String.format(
        Locale.ROOT, "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
  }
}
