package io.cosmolab.rehearsal.internal;

import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.engine.limits.Limits;
import io.cosmolab.rehearsal.CandidateResult;
import io.cosmolab.rehearsal.Event;
import io.cosmolab.rehearsal.Phase;
import io.cosmolab.rehearsal.RehearsalReport;
import io.cosmolab.rehearsal.Scenario;
import io.cosmolab.rehearsal.Timeline;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/** Turns what the recorders saw into the report, at full scale. */
final class Reports {
  private Reports() {}

  static String number(double v) {
    return v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : Double.toString(v);
  }

  /** Rounds for the report, so that JSON stays small and stable. */
  static double round(double v, int digits) {
    double f = Math.pow(10, digits);
    return Math.round(v * f) / f;
  }

  private static double millis(Histogram h, double percentile) {
    return h.getTotalCount() == 0 ? 0 : round(h.getValueAtPercentile(percentile) / 1000.0, 3);
  }

  /**
   * The report of a rehearsal against {@code against} ({@link RehearsalReport#ENGINE} or an
   * endpoint's URL, then connected in {@code connection} mode).
   */
  static RehearsalReport build(
      String against,
      String connection,
      Scenario scenario,
      double scale,
      List<Candidate> candidates,
      List<Recorder> recorders,
      long[] preloadRefused) {
    long f = Math.round(scale);
    List<RehearsalReport.PhaseSpan> spans = new ArrayList<>();
    long t = 0;
    for (Phase p : scenario.phases()) {
      long end = t + p.duration().toSeconds();
      spans.add(new RehearsalReport.PhaseSpan(p.name(), t, end, p.from(), p.to()));
      t = end;
    }
    List<RehearsalReport.EventAt> events = new ArrayList<>();
    for (Event e : scenario.events()) {
      events.add(
          new RehearsalReport.EventAt(
              e.name(), e.at().toSeconds(), e.kind().name().toLowerCase(Locale.ROOT)));
    }
    List<CandidateResult> results = new ArrayList<>();
    for (int c = 0; c < candidates.size(); c++) {
      results.add(candidate(scenario, candidates.get(c), recorders.get(c), f, preloadRefused[c]));
    }
    return new RehearsalReport(
        RehearsalReport.SCHEMA,
        against,
        connection,
        scenario.name(),
        scenario.description(),
        scenario.seed(),
        scale,
        scenario.duration().toSeconds(),
        scenario.step().toSeconds(),
        scenario.throughput().kind() + " " + number(scenario.throughput().maxRuPerSecond()),
        scenario.burstCapacity(),
        spans,
        events,
        results);
  }

  private static CandidateResult candidate(
      Scenario scenario, Candidate k, Recorder r, long f, long preloadRefused) {
    long requests = 0;
    long attempts = 0;
    long throttled = 0;
    double peak = 0;
    int peakStep = -1;
    for (int s = 0; s < r.attempts.length; s++) {
      requests += r.requests[s];
      attempts += r.attempts[s];
      throttled += r.throttled[s];
      if (r.attempts[s] > 0) {
        double share = r.throttled[s] / (double) r.attempts[s];
        if (share > peak) {
          peak = share;
          peakStep = s;
        }
      }
    }
    long failed = r.failedThrottled + r.failedStorage + r.failedOther;
    PartitionSource.Logical logical = r.source().logical();
    int splits = 0;
    for (Timeline.Mark m : r.splits) {
      if (m.rule().equals("split")) {
        splits++;
      }
    }
    double unused =
        r.throttlingSeconds == 0 ? 0 : r.unusedWhileThrottling / r.throttlingSeconds * f;
    double unusedShare =
        r.throttlingSeconds == 0 ? 0 : r.unusedWhileThrottling / r.budgetWhileThrottling;
    CandidateResult.Headline headline =
        new CandidateResult.Headline(
            requests * f,
            attempts * f,
            throttled * f,
            round(peak, 4),
            failed * f,
            r.failedThrottled * f,
            r.failedStorage * f,
            r.notFound * f,
            millis(r.latency, 50),
            millis(r.latency, 99),
            millis(r.latency, 99.9),
            round(unused, 1),
            round(unusedShare, 4),
            Math.round(logical.largestBytes() * f),
            logical.largestKey(),
            Limits.LOGICAL_PARTITION_BYTES,
            splits,
            r.partitionsAtStart,
            r.source().ranges().size(),
            logical.hottestKey(),
            round(logical.hottestShare(), 4));
    List<CandidateResult.PhaseStats> phases = new ArrayList<>();
    for (int p = 0; p < scenario.phases().size(); p++) {
      Histogram h = r.phaseLatency[p];
      phases.add(
          new CandidateResult.PhaseStats(
              scenario.phases().get(p).name(),
              r.phaseRequests[p] * f,
              r.phaseThrottled[p] * f,
              r.phaseFailed[p] * f,
              millis(h, 50),
              millis(h, 99),
              millis(h, 99.9),
              h.getTotalCount() == 0 ? 0 : round(h.getMaxValue() / 1000.0, 3)));
    }
    Timeline timeline = timeline(scenario, r, f);
    Verdicts.Verdict v =
        Verdicts.judge(
            scenario, headline, phases, timeline, peakStep, preloadRefused, r.firstOtherFailure);
    return new CandidateResult(
        k.kind() == Candidate.Kind.BUCKETED
            ? k.paths().get(0) + "*" + k.buckets()
            : String.join(
                switch (k.kind()) {
                  case SYNTHETIC -> "+";
                  case HIERARCHICAL -> ">";
                  default -> "";
                },
                k.paths()),
        k.name(),
        k.kind().name(),
        v.verdict(),
        v.reasons(),
        headline,
        phases,
        timeline);
  }

  private static Timeline timeline(Scenario scenario, Recorder r, long f) {
    List<Timeline.Lane> lanes = new ArrayList<>();
    for (Recorder.LaneData l : r.lanes()) {
      List<Double> norm = new ArrayList<>();
      List<Double> demand = new ArrayList<>();
      List<Long> thr = new ArrayList<>();
      for (int s = 0; s < l.normalized.length; s++) {
        norm.add(round(l.normalized[s], 3));
        demand.add(round(l.demand[s], 3));
        thr.add(l.throttled[s] * f);
      }
      lanes.add(
          new Timeline.Lane(l.id, l.parent, l.minEpk, l.maxEpk, l.from, l.to, norm, demand, thr));
    }
    long step = scenario.step().toSeconds();
    int n = r.attempts.length;
    List<Long> requests = new ArrayList<>();
    List<Long> attempts = new ArrayList<>();
    List<Long> throttled = new ArrayList<>();
    List<Long> failed = new ArrayList<>();
    List<Double> p99 = new ArrayList<>();
    List<Double> ru = new ArrayList<>();
    List<Double> budget = new ArrayList<>();
    for (int s = 0; s < n; s++) {
      requests.add(r.requests[s] * f);
      attempts.add(r.attempts[s] * f);
      throttled.add(r.throttled[s] * f);
      failed.add(r.failed[s] * f);
      p99.add(round(r.p99[s], 3));
      long secondsInStep = Math.min(step, scenario.duration().toSeconds() - s * step);
      ru.add(round(r.ru[s] * f / Math.max(1, secondsInStep), 1));
      budget.add(round(r.budget[s] * f, 1));
    }
    return new Timeline(
        step,
        n,
        lanes,
        r.splits,
        r.alerts,
        new Timeline.Series(requests, attempts, throttled, failed, p99, ru, budget));
  }
}
