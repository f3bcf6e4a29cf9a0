package io.cosmolab.rehearsal.report;

import io.cosmolab.rehearsal.CandidateResult;
import io.cosmolab.rehearsal.RehearsalReport;
import io.cosmolab.rehearsal.Timeline;
import java.util.List;
import java.util.Locale;

/**
 * A report as one self-contained HTML page: inline CSS and SVG, no script, nothing fetched. Per
 * candidate: the verdict and its reasons, the headline numbers, the heat map of every physical
 * partition's normalized RU over time with 429s, splits, phases and events marked and the alerts
 * lane, the share of attempts throttled and the p99 per step, and the phases' latencies.
 */
public final class HtmlReport {
  private HtmlReport() {}

  private static final double GB = 1024.0 * 1024 * 1024;
  private static final int LABEL = 170; // px left of the plots
  private static final int WIDTH = 960; // px of plot
  private static final int LANE = 18;

  /** The page. */
  public static String render(RehearsalReport r) {
    StringBuilder b = new StringBuilder(64 * 1024);
    b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<title>cosmolab rehearsal: ")
        .append(esc(r.scenario()))
        .append("</title>\n<style>\n")
        .append(
            "body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px;"
                + "color:#1d2330;max-width:1200px}\n"
                + "h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:32px 0 6px}"
                + "h3{font-size:14px;margin:16px 0 4px;color:#444}\n"
                + ".muted{color:#5f6b7a}.badge{display:inline-block;padding:1px 8px;border-radius:10px;"
                + "font-size:12px;font-weight:600;vertical-align:middle;margin-left:8px}\n"
                + ".recommended{background:#d8f3dc;color:#1b5e20}.risky{background:#fff3c4;color:#7a5a00}"
                + ".rejected{background:#fde0dc;color:#9b1c1c}\n"
                + ".grid{display:grid;grid-template-columns:repeat(5,minmax(150px,1fr));gap:8px;"
                + "margin:8px 0}\n"
                + ".num{border:1px solid #e3e7ee;border-radius:6px;padding:6px 10px}"
                + ".num b{display:block;font-size:18px}.num span{font-size:12px;color:#5f6b7a}\n"
                + "table{border-collapse:collapse;margin:6px 0}td,th{padding:3px 10px;"
                + "border-bottom:1px solid #e3e7ee;text-align:right}th{font-weight:600}"
                + "td:first-child,th:first-child{text-align:left}\n"
                + "ul{margin:4px 0 8px 18px;padding:0}svg text{font-size:11px;fill:#333}\n"
                + "section{border-top:2px solid #e3e7ee;margin-top:28px}\n")
        .append("</style></head><body>\n");
    b.append("<h1>Rehearsal: ").append(esc(r.scenario())).append("</h1>\n");
    b.append("<p class=\"muted\">")
        .append(esc(r.description()))
        .append("<br>")
        .append(
            String.format(
                Locale.ROOT,
                "%s %s in steps of %d s · throughput %s · scale model 1:%s (each"
                    + " simulated request and document stands for %s; counts are shown at full"
                    + " scale) · seed %d",
                TerminalSummary.clock(r.durationSeconds()),
                r.live()
                    ? "live against " + esc(r.against()) + " (" + esc(r.connection()) + " mode)"
                    : "of virtual time",
                r.stepSeconds(),
                esc(r.throughput()),
                TerminalSummary.number(r.scale()),
                TerminalSummary.number(r.scale()),
                r.seed()))
        .append("</p>\n");
    summaryTable(b, r);
    for (CandidateResult c : r.candidates()) {
      candidate(b, r, c);
    }
    b.append(
        r.live()
            ? "<p class=\"muted\">Measured from the endpoint's responses: RU charges, 429s and the"
                + " partition ranges they name; a partition's budget is the provisioned RU/s shared"
                + " evenly (an assumption). Normalized RU: the highest per-second RU ÷ budget of the"
                + " partition in the step, capped at 100 %. Latency is end to end, from when the"
                + " request was due to its last response, the SDK's retry waits included. See"
                + " docs/rehearsal.md.</p>\n"
            : "<p class=\"muted\">Normalized RU: the highest per-second RU ÷ budget of the"
                + " partition in the step, capped at 100 % as Azure Monitor shows it. Latency is"
                + " end to end: service latency (log-normal, an assumption shaped by the SLA) plus"
                + " the SDK's retry waits. See docs/rehearsal.md.</p>\n");
    b.append("</body></html>\n");
    return b.toString();
  }

  private static void summaryTable(StringBuilder b, RehearsalReport r) {
    b.append("<table><tr><th>candidate</th><th>verdict</th><th>peak 429</th><th>p99</th>")
        .append("<th>p99.9</th><th>failed</th><th>unused while throttling</th>")
        .append("<th>largest logical partition</th><th>splits</th></tr>\n");
    for (CandidateResult c : r.candidates()) {
      CandidateResult.Headline h = c.headline();
      b.append("<tr><td><a href=\"#c")
          .append(r.candidates().indexOf(c))
          .append("\">")
          .append(esc(c.candidate()))
          .append("</a></td><td><span class=\"badge ")
          .append(c.verdict())
          .append("\">")
          .append(c.verdict())
          .append("</span></td><td>")
          .append(pct(h.peak429Share()))
          .append("</td><td>")
          .append(TerminalSummary.millis(h.p99Millis()))
          .append("</td><td>")
          .append(TerminalSummary.millis(h.p999Millis()))
          .append("</td><td>")
          .append(String.format(Locale.ROOT, "%,d", h.failedRequests()))
          .append("</td><td>")
          .append(pct(h.ruUnusedShareWhileThrottling()))
          .append("</td><td>")
          .append(bytes(h.largestLogicalPartitionBytes()) + " of 20 GB")
          .append("</td><td>")
          .append(h.splits())
          .append("</td></tr>\n");
    }
    b.append("</table>\n");
  }

  private static void candidate(StringBuilder b, RehearsalReport r, CandidateResult c) {
    CandidateResult.Headline h = c.headline();
    b.append("<section id=\"c").append(r.candidates().indexOf(c)).append("\">");
    b.append("<h2>")
        .append(esc(c.candidate()))
        .append(" <span class=\"muted\">(")
        .append(c.kind().toLowerCase(Locale.ROOT))
        .append(")</span><span class=\"badge ")
        .append(c.verdict())
        .append("\">")
        .append(c.verdict())
        .append("</span></h2>\n<ul>");
    for (String reason : c.reasons()) {
      b.append("<li>").append(esc(reason)).append("</li>");
    }
    b.append("</ul>\n<div class=\"grid\">");
    num(b, pct(h.peak429Share()), "peak 429 share (of attempts, in a step)");
    num(b, TerminalSummary.millis(h.p99Millis()), "p99 end to end");
    num(b, TerminalSummary.millis(h.p999Millis()), "p99.9 end to end");
    num(b, String.format(Locale.ROOT, "%,d", h.failedRequests()), "failed requests");
    num(
        b,
        String.format(Locale.ROOT, "%,.0f RU/s", h.ruUnusedWhileThrottling()),
        "unused while throttling (" + pct(h.ruUnusedShareWhileThrottling()) + ")");
    num(
        b,
        bytes(h.largestLogicalPartitionBytes()),
        "largest logical partition of 20 GB: " + shorten(h.largestLogicalPartitionKey()));
    num(b, Integer.toString(h.splits()), "splits");
    num(
        b,
        h.physicalPartitionsAtStart() + " → " + h.physicalPartitionsAtEnd(),
        "physical partitions");
    num(b, pct(h.hottestKeyRuShare()), "RU of the hottest key " + shorten(h.hottestKey()));
    num(b, String.format(Locale.ROOT, "%,d", h.requests()), "requests");
    b.append("</div>\n<h3>Normalized RU per physical partition</h3>\n");
    heatMap(b, r, c.timeline());
    b.append("<h3>Attempts answered 429 (share per step) and p99 per step</h3>\n");
    series(b, c.timeline());
    b.append("<h3>Phases</h3>\n<table><tr><th>phase</th><th>requests</th><th>429s</th>")
        .append("<th>failed</th><th>p50</th><th>p99</th><th>p99.9</th><th>slowest</th></tr>\n");
    for (CandidateResult.PhaseStats p : c.phases()) {
      b.append(
          String.format(
              Locale.ROOT,
              "<tr><td>%s</td><td>%,d</td><td>%,d</td><td>%,d</td><td>%s</td><td>%s</td>"
                  + "<td>%s</td><td>%s</td></tr>%n",
              esc(p.phase()),
              p.requests(),
              p.throttledAttempts(),
              p.failedRequests(),
              TerminalSummary.millis(p.p50Millis()),
              TerminalSummary.millis(p.p99Millis()),
              TerminalSummary.millis(p.p999Millis()),
              TerminalSummary.millis(p.maxMillis())));
    }
    b.append("</table></section>\n");
  }

  private static void num(StringBuilder b, String value, String label) {
    b.append("<div class=\"num\"><b>")
        .append(esc(value))
        .append("</b><span>")
        .append(esc(label))
        .append("</span></div>");
  }

  /** The heat map: phases band, lanes, splits, events, the alerts lane and the time axis. */
  private static void heatMap(StringBuilder b, RehearsalReport r, Timeline t) {
    List<Timeline.Lane> lanes = t.lanes();
    double cell = WIDTH / (double) t.steps();
    int top = 38; // the events row and the phases band
    List<AlertLabel> labels = alertLabels(t, cell);
    int labelRows = 1;
    for (AlertLabel a : labels) {
      labelRows = Math.max(labelRows, a.row() + 1);
    }
    int alertsHeight = LANE + (labelRows - 1) * ALERT_ROW;
    int height = top + lanes.size() * LANE + alertsHeight + 34;
    b.append(
        String.format(
            Locale.ROOT,
            "<svg width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"heat map\">",
            LABEL + WIDTH + 40,
            height));
    phaseBand(b, r, t, cell);
    for (int i = 0; i < lanes.size(); i++) {
      Timeline.Lane l = lanes.get(i);
      int y = top + i * LANE;
      b.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">partition %s%s</text>",
              LABEL - 6,
              y + 13,
              esc(l.partition()),
              l.parent() == null ? "" : " (from " + esc(l.parent()) + ")"));
      for (int s = l.fromStep(); s < l.toStep() && s < t.steps(); s++) {
        double v = l.normalizedRu().get(s);
        long thr = l.throttled().get(s);
        b.append(
            String.format(
                Locale.ROOT,
                "<rect x=\"%.1f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\"><title>"
                    + "partition %s at %s: %.0f%% of its budget%s</title></rect>",
                LABEL + s * cell,
                y,
                Math.max(0.5, cell),
                LANE - 2,
                color(v),
                esc(l.partition()),
                TerminalSummary.clock(s * t.stepSeconds()),
                l.demandRatio().get(s) * 100,
                thr > 0 ? String.format(Locale.ROOT, ", %,d attempts answered 429", thr) : ""));
        if (thr > 0) {
          b.append(
              String.format(
                  Locale.ROOT,
                  "<rect x=\"%.1f\" y=\"%d\" width=\"%.2f\" height=\"3\" fill=\"#1d2330\"/>",
                  LABEL + s * cell,
                  y + LANE - 5,
                  Math.max(0.5, cell)));
        }
      }
    }
    int alertsY = top + lanes.size() * LANE;
    b.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">alerts</text>"
                + "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\""
                + " stroke=\"#c9d0da\" stroke-dasharray=\"3 3\"/>",
            LABEL - 6,
            alertsY + 13,
            LABEL,
            alertsY,
            WIDTH,
            alertsHeight - 2));
    if (t.alerts().isEmpty()) {
      b.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%d\" y=\"%d\" fill=\"#8a94a3\">none of the engine's alert rules"
                  + " fired</text>",
              LABEL + 6,
              alertsY + 12));
    }
    for (Timeline.Mark m : t.alerts()) {
      double x = LABEL + (m.step() + 0.5) * cell;
      b.append(
          String.format(
              Locale.ROOT,
              "<circle cx=\"%.1f\" cy=\"%d\" r=\"4\" fill=\"#c2410c\"><title>%s: %s</title>"
                  + "</circle>",
              x,
              alertsY + 8,
              esc(m.rule()),
              esc(m.detail())));
    }
    for (AlertLabel a : labels) {
      b.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%.1f\" y=\"%d\" fill=\"#c2410c\" font-size=\"10\"%s>%s</text>",
              a.x(),
              alertsY + 12 + a.row() * ALERT_ROW,
              a.leftOfMark() ? " text-anchor=\"end\"" : "",
              esc(a.text())));
    }
    for (Timeline.Mark m : t.splits()) {
      double x = LABEL + m.step() * cell;
      b.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#2563eb\""
                  + " stroke-width=\"2\"><title>%s of %s at %s %s</title></line>"
                  + "<text x=\"%.1f\" y=\"12\" fill=\"#2563eb\" text-anchor=\"end\">%s %s ◆</text>",
              x,
              x,
              2,
              alertsY,
              esc(m.rule()),
              esc(m.partition()),
              TerminalSummary.clock(m.second()),
              esc(m.detail()),
              x + 4,
              esc(m.rule()),
              esc(m.partition())));
    }
    for (RehearsalReport.EventAt e : r.events()) {
      double x = LABEL + e.atSecond() / (double) t.stepSeconds() * cell;
      b.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#7c3aed\""
                  + " stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"12\" fill=\"#7c3aed\">▼ %s</text>",
              x,
              x,
              2,
              alertsY + alertsHeight,
              x - 4,
              esc(e.name())));
    }
    axis(b, t, alertsY + alertsHeight + 2, cell);
    b.append("</svg>\n");
    legend(b);
  }

  /** Pixels between rows of alert labels. */
  private static final int ALERT_ROW = 12;

  /** The most rows of alert labels; a label that fits none is left to its mark's tooltip. */
  private static final int ALERT_ROWS = 6;

  /** Where a rule's name is written: beside the mark where it first fired, on a row of its own. */
  private record AlertLabel(double x, int row, boolean leftOfMark, String text) {}

  /**
   * Each rule named once, where it first fired, on the first row where it overlaps no other label
   * and no mark (several rules often fire within seconds of each other; every mark is on the first
   * row). A label that would run past the chart goes left of its mark. About 6 px a character at 10
   * px.
   */
  private static List<AlertLabel> alertLabels(Timeline t, double cell) {
    List<AlertLabel> out = new java.util.ArrayList<>();
    java.util.Set<String> labelled = new java.util.HashSet<>();
    List<List<double[]>> rows = new java.util.ArrayList<>();
    rows.add(new java.util.ArrayList<>());
    for (Timeline.Mark m : t.alerts()) { // every mark's dot is on the first row
      double x = LABEL + (m.step() + 0.5) * cell;
      rows.get(0).add(new double[] {x - 4, x + 4});
    }
    double end = LABEL + t.steps() * cell;
    for (Timeline.Mark m : t.alerts()) {
      if (!labelled.add(m.rule())) {
        continue;
      }
      String text =
          m.rule() + (m.partition().isEmpty() ? "" : " (partition " + m.partition() + ")");
      double x = LABEL + (m.step() + 0.5) * cell;
      double width = text.length() * 6.0;
      boolean left = x + 6 + width > end;
      double from = left ? x - 6 - width : x + 6;
      double to = from + width;
      for (int row = 0; row < ALERT_ROWS; row++) {
        if (row == rows.size()) {
          rows.add(new java.util.ArrayList<>());
        }
        boolean free = true;
        for (double[] used : rows.get(row)) {
          if (from < used[1] + 4 && used[0] < to + 4) {
            free = false;
            break;
          }
        }
        if (free) {
          rows.get(row).add(new double[] {from, to});
          out.add(new AlertLabel(left ? x - 6 : x + 6, row, left, text));
          break;
        }
      }
    }
    return out;
  }

  private static void phaseBand(StringBuilder b, RehearsalReport r, Timeline t, double cell) {
    boolean shade = false;
    for (RehearsalReport.PhaseSpan p : r.phases()) {
      double x0 = LABEL + p.fromSecond() / (double) t.stepSeconds() * cell;
      double x1 = LABEL + p.toSecond() / (double) t.stepSeconds() * cell;
      String rate =
          p.from() == p.to()
              ? "×" + TerminalSummary.number(p.from())
              : "×" + TerminalSummary.number(p.from()) + "→" + TerminalSummary.number(p.to());
      b.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%.1f\" y=\"18\" width=\"%.1f\" height=\"16\" fill=\"%s\"/>"
                  + "<text x=\"%.1f\" y=\"30\">%s %s</text>",
              x0,
              Math.max(1, x1 - x0),
              shade ? "#eef1f5" : "#e2e7ee",
              x0 + 4,
              esc(p.name()),
              rate));
      shade = !shade;
    }
    b.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"30\" text-anchor=\"end\">phase</text>"
                + "<text x=\"%d\" y=\"12\" text-anchor=\"end\">events</text>",
            LABEL - 6,
            LABEL - 6));
  }

  private static void axis(StringBuilder b, Timeline t, int y, double cell) {
    long total = t.steps() * t.stepSeconds();
    long tick = niceTick(total);
    for (long s = 0; s <= total; s += tick) {
      double x = LABEL + s / (double) t.stepSeconds() * cell;
      b.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#8a94a3\"/>"
                  + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>",
              x,
              x,
              y,
              y + 4,
              x,
              y + 15,
              TerminalSummary.clock(s)));
    }
  }

  private static long niceTick(long totalSeconds) {
    long[] ticks = {10, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 86400};
    for (long t : ticks) {
      if (totalSeconds / t <= 12) {
        return t;
      }
    }
    return 86400;
  }

  private static void legend(StringBuilder b) {
    b.append("<svg width=\"600\" height=\"30\">");
    for (int i = 0; i <= 10; i++) {
      b.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%d\" y=\"4\" width=\"24\" height=\"12\" fill=\"%s\"/>",
              LABEL + i * 24,
              color(i / 10.0)));
    }
    b.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"14\" text-anchor=\"end\">normalized RU 0%%</text>"
                + "<text x=\"%d\" y=\"14\">100%%</text>"
                + "<rect x=\"%d\" y=\"11\" width=\"24\" height=\"3\" fill=\"#1d2330\"/>"
                + "<text x=\"%d\" y=\"14\">429s</text></svg>\n",
            LABEL - 6,
            LABEL + 11 * 24 + 4,
            LABEL + 11 * 24 + 44,
            LABEL + 11 * 24 + 72));
  }

  /** Two small charts: the share of attempts throttled, and p99 (log scale). */
  private static void series(StringBuilder b, Timeline t) {
    Timeline.Series s = t.series();
    int h = 70;
    double cell = WIDTH / (double) t.steps();
    b.append(
        String.format(
            Locale.ROOT,
            "<svg width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"429s and p99\">",
            LABEL + WIDTH + 40,
            2 * h + 50));
    b.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">429s</text>"
                + "<text x=\"%d\" y=\"12\" text-anchor=\"end\">100%%</text>"
                + "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0%%</text>",
            LABEL - 60,
            h / 2 + 8,
            LABEL - 6,
            LABEL - 6,
            h + 4));
    b.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%d\" y=\"4\" width=\"%d\" height=\"%d\" fill=\"#f7f8fa\"/>",
            LABEL,
            WIDTH,
            h));
    for (int i = 0; i < t.steps(); i++) {
      long att = s.attempts().get(i);
      double share = att == 0 ? 0 : s.throttled().get(i) / (double) att;
      if (share > 0) {
        b.append(
            String.format(
                Locale.ROOT,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"#dc2626\">"
                    + "<title>%s: %.1f%% of attempts answered 429</title></rect>",
                LABEL + i * cell,
                4 + h * (1 - share),
                Math.max(0.5, cell),
                h * share,
                TerminalSummary.clock(i * t.stepSeconds()),
                share * 100));
      }
    }
    int y0 = h + 24;
    // p99 on a log scale from 1 ms to 60 s
    double lo = Math.log10(1);
    double hi = Math.log10(60_000);
    b.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f7f8fa\"/>",
            LABEL,
            y0,
            WIDTH,
            h));
    for (double ms : new double[] {10, 100, 1000, 10_000}) {
      double y = y0 + h * (1 - (Math.log10(ms) - lo) / (hi - lo));
      b.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#dde2e8\"/>"
                  + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>",
              LABEL,
              LABEL + WIDTH,
              y,
              y,
              LABEL - 6,
              y + 4,
              TerminalSummary.millis(ms)));
    }
    b.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">p99 (log)</text>",
            LABEL - 60,
            y0 + h / 2 + 4));
    StringBuilder path = new StringBuilder();
    for (int i = 0; i < t.steps(); i++) {
      double p = s.p99Millis().get(i);
      if (p <= 0) {
        continue;
      }
      double y = y0 + h * (1 - (Math.log10(Math.max(1, Math.min(60_000, p))) - lo) / (hi - lo));
      path.append(path.length() == 0 ? "M" : "L")
          .append(String.format(Locale.ROOT, "%.1f %.1f", LABEL + (i + 0.5) * cell, y));
    }
    b.append("<path d=\"")
        .append(path)
        .append("\" fill=\"none\" stroke=\"#1d4ed8\" stroke-width=\"1.5\"/>");
    axis(b, t, y0 + h + 2, cell);
    b.append("</svg>\n");
  }

  /** 0 → pale grey-blue, 0.5 → amber, 1 → deep red. */
  static String color(double v) {
    double x = Math.max(0, Math.min(1, v));
    int[][] stops = {{238, 242, 247}, {253, 224, 139}, {244, 109, 67}, {165, 0, 38}};
    double pos = x * (stops.length - 1);
    int i = Math.min(stops.length - 2, (int) Math.floor(pos));
    double f = pos - i;
    int rr = (int) Math.round(stops[i][0] + (stops[i + 1][0] - stops[i][0]) * f);
    int gg = (int) Math.round(stops[i][1] + (stops[i + 1][1] - stops[i][1]) * f);
    int bb = (int) Math.round(stops[i][2] + (stops[i + 1][2] - stops[i][2]) * f);
    return String.format(Locale.ROOT, "#%02x%02x%02x", rr, gg, bb);
  }

  /** Bytes in GB from 1 GB, else MB: 20 GB partitions are the scale that matters. */
  static String bytes(long b) {
    return b >= GB
        ? String.format(Locale.ROOT, "%.2f GB", b / GB)
        : String.format(Locale.ROOT, "%.1f MB", b / (1024.0 * 1024));
  }

  private static String pct(double share) {
    return String.format(Locale.ROOT, "%.1f%%", share * 100);
  }

  private static String shorten(String key) {
    if (key == null) {
      return "-";
    }
    return key.length() > 40 ? key.substring(0, 37) + "..." : key;
  }

  static String esc(String s) {
    if (s == null) {
      return "";
    }
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
