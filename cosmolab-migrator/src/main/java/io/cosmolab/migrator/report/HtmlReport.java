package io.cosmolab.migrator.report;

import io.cosmolab.migrator.MigrationState;
import io.cosmolab.migrator.RangeProgress;
import io.cosmolab.migrator.VerifyReport;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * A {@link MigrationReport} as one HTML page that opens offline: inline CSS and SVG, no scripts, no
 * fonts or images fetched. A verdict banner with what to switch; the counts (copied, applied, RU,
 * 429s, lag); a bar chart and a table of progress per source feed range; the comparison and every
 * difference with its id. Every text that comes from data (ids, keys, container names, the verdict)
 * is escaped.
 */
public final class HtmlReport {
  private static final int BAR_W = 360;
  private static final int ROW_H = 22;
  private static final int LABEL_W = 190;

  private final StringBuilder out = new StringBuilder(32 * 1024);

  private HtmlReport() {}

  public static String render(MigrationReport report) {
    HtmlReport r = new HtmlReport();
    r.page(report);
    return r.out.toString();
  }

  private HtmlReport a(String s) {
    out.append(s);
    return this;
  }

  private HtmlReport f(String format, Object... args) {
    out.append(String.format(Locale.ROOT, format, args));
    return this;
  }

  /** Escapes text for HTML element content and attribute values. */
  static String esc(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  private void page(MigrationReport r) {
    MigrationState s = r.state();
    a("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .f("<title>cosmolab migrate %s: %s</title><style>", esc(r.command()), esc(s.source()))
        .a("body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1d2330;max-width:1100px}")
        .a("table{border-collapse:collapse;margin:8px 0}td,th{padding:3px 10px;text-align:left;")
        .a("border-bottom:1px solid #e3e6ec}th{background:#f4f6f9}.num{text-align:right}")
        .a(".verdict{border-radius:8px;padding:12px 18px;margin:12px 0;font-size:16px}")
        .a(".safe{background:#e6f4ea;border:1px solid #137333;color:#0d5223}")
        .a(".unsafe{background:#fce8e6;border:1px solid #c5221f;color:#8c1d18}")
        .a(".verdict b{font-size:20px;margin-right:8px}.grid{display:flex;flex-wrap:wrap;gap:24px}")
        .a("h2{margin-top:28px;font-size:18px}code{background:#f4f6f9;padding:0 3px}")
        .a(".MISSING{color:#c5221f}.EXTRA{color:#b06000}.DIFFERENT{color:#7a2bb3}")
        .a("svg text{font-size:11px;fill:#1d2330}.muted{color:#666}")
        .a("</style></head><body>\n")
        .f(
            "<h1>Migration report: <code>%s</code> → <code>%s</code></h1>\n",
            esc(s.source()), esc(s.target()))
        .f(
            "<p class=muted>%s by <code>%s</code>, %s feed. Generated %s by <code>cosmolab migrate"
                + " %s</code> (schema <code>%s</code>).</p>\n",
            esc(r.command().equals("cutover") ? "Cut-over" : "Verification"),
            esc(s.partitionKey()),
            esc(s.changeFeedMode().toString()),
            Instant.ofEpochMilli(r.generatedAtMillis()),
            esc(r.command()),
            esc(r.schema()));
    verdict(r);
    counts(r);
    ranges(s);
    comparison(r);
    a("</body></html>\n");
  }

  private void verdict(MigrationReport r) {
    String word =
        r.command().equals("cutover")
            ? (r.safe() ? "SAFE" : "NOT SAFE")
            : (r.safe() ? "EQUAL" : "DIFFERENT");
    f(
        "<div class=\"verdict %s\" id=verdict><b>%s</b>%s</div>\n",
        r.safe() ? "safe" : "unsafe", word, esc(r.verdict()));
    MigrationReport.Switch sw = r.switchTo();
    if (sw != null) {
      a("<h2>What to switch</h2>\n<table id=switch>")
          .f("<tr><th>endpoint</th><td><code>%s</code></td></tr>", esc(sw.endpoint()))
          .f("<tr><th>container</th><td><code>%s</code></td></tr>", esc(sw.container()))
          .f(
              "<tr><th>partition key</th><td><code>%s</code></td></tr>",
              esc(String.join(", ", sw.partitionKeyPaths())));
      if (sw.computedProperty() != null) {
        f(
            "<tr><th>the application writes</th><td><code>%s</code> (the migrator computed it"
                + " until now)</td></tr>",
            esc(sw.computedProperty()));
      }
      a("</table>\n<p>Keep the writers stopped until the application points at the target.</p>\n");
    }
  }

  private void counts(MigrationReport r) {
    MigrationState s = r.state();
    long seconds = Math.max(0, (s.updatedAtMillis() - s.startedAtMillis()) / 1000);
    a("<h2>Counts</h2>\n<div class=grid><table id=counts>");
    row("documents copied", String.format(Locale.ROOT, "%,d", s.copied()));
    row("documents skipped", String.format(Locale.ROOT, "%,d", s.skipped()));
    row("changes applied", String.format(Locale.ROOT, "%,d", s.applied()));
    row("deletes among them", String.format(Locale.ROOT, "%,d", s.deleted()));
    if (s.removed() > 0) {
      row("removed by reconciliation", String.format(Locale.ROOT, "%,d", s.removed()));
    }
    row("source documents at the start", String.format(Locale.ROOT, "%,d", s.sourceDocuments()));
    a("</table><table id=rates>");
    row("request units spent", String.format(Locale.ROOT, "%,.0f RU", s.requestUnits()));
    row("RU/s (last 10 s)", String.format(Locale.ROOT, "%,.0f", s.ruPerSecond()));
    row("throttled (429s, each waited out)", String.format(Locale.ROOT, "%,d", s.throttled()));
    row("lag", String.format(Locale.ROOT, "%.1f s", s.lagSeconds()));
    row(
        "lag in documents",
        s.lagDocuments() < 0 ? "not known" : String.format(Locale.ROOT, "%,d", s.lagDocuments()));
    row("running for", ReportText.duration((double) seconds));
    a("</table></div>\n");
  }

  private void row(String name, String value) {
    f("<tr><th>%s</th><td class=num>%s</td></tr>", esc(name), esc(value));
  }

  private void ranges(MigrationState s) {
    List<RangeProgress> ranges = s.ranges();
    a("<h2>Progress per source feed range</h2>\n");
    if (ranges.isEmpty()) {
      a("<p class=muted>No range progress in this state (saved before it was kept).</p>\n");
      return;
    }
    long max = 1;
    for (RangeProgress r : ranges) {
      max = Math.max(max, Math.max(r.copied(), r.applied()));
    }
    int h = ranges.size() * ROW_H + 30;
    f(
        "<svg id=ranges-chart width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=img"
            + " aria-label=\"documents copied and changes applied per range\">",
        LABEL_W + BAR_W + 80, h, LABEL_W + BAR_W + 80, h);
    int y = 4;
    for (RangeProgress r : ranges) {
      double wc = BAR_W * (double) r.copied() / max;
      double wa = BAR_W * (double) r.applied() / max;
      f(
          "<text x=\"0\" y=\"%d\">%s%s</text>",
          y + 13, esc(shortRange(r)), r.split() ? " (split)" : "");
      f(
          "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"8\" fill=\"%s\"/>",
          LABEL_W, y + 2, wc, r.split() ? "#9aa5b8" : "#1a73e8");
      f(
          "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"8\" fill=\"%s\"/>",
          LABEL_W, y + 11, wa, r.split() ? "#c7ccd6" : "#f29900");
      f(
          "<text x=\"%.1f\" y=\"%d\">%,d / %,d</text>",
          LABEL_W + Math.max(wc, wa) + 6, y + 15, r.copied(), r.applied());
      y += ROW_H;
    }
    f(
        "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"8\" fill=\"#1a73e8\"/><text x=\"%d\""
            + " y=\"%d\">copied</text>",
        LABEL_W, y + 6, LABEL_W + 14, y + 14);
    f(
        "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"8\" fill=\"#f29900\"/><text x=\"%d\""
            + " y=\"%d\">applied</text>",
        LABEL_W + 80, y + 6, LABEL_W + 94, y + 14);
    a("</svg>\n<table id=ranges><tr><th>range (EPK)</th><th>position</th>")
        .a("<th class=num>copied</th><th class=num>applied</th><th class=num>lag (docs)</th>")
        .a("<th>state</th></tr>\n");
    for (RangeProgress r : ranges) {
      f(
          "<tr><td><code>%s</code></td><td><code>%s</code></td><td class=num>%,d</td>"
              + "<td class=num>%,d</td><td class=num>%s</td><td>%s</td></tr>\n",
          esc(r.label()),
          esc(r.position() == null ? "?" : r.position()),
          r.copied(),
          r.applied(),
          r.split() || r.lagDocuments() < 0
              ? "–"
              : String.format(Locale.ROOT, "%,d", r.lagDocuments()),
          r.split() ? "split: its children go on" : "open");
    }
    a("</table>\n");
  }

  /** A range's label with long EPKs cut to their first 8 hex digits. */
  static String shortRange(RangeProgress r) {
    return "[" + cut(r.min()) + ", " + cut(r.max()) + ")";
  }

  private static String cut(String epk) {
    return epk.length() <= 10 ? epk : epk.substring(0, 8) + "…";
  }

  private void comparison(MigrationReport r) {
    VerifyReport v = r.verify();
    a("<h2>Comparison</h2>\n");
    if (v == null) {
      a("<p>No comparison was made: the source never went quiet.</p>\n");
      return;
    }
    a("<table id=verify>");
    row("logical partitions compared", String.format(Locale.ROOT, "%,d", v.partitions()));
    row("partitions that differ", String.format(Locale.ROOT, "%,d", v.differingPartitions()));
    row("source documents", String.format(Locale.ROOT, "%,d", v.sourceDocuments()));
    row("target documents", String.format(Locale.ROOT, "%,d", v.targetDocuments()));
    row(
        "read by this comparison",
        String.format(
            Locale.ROOT,
            "%,d partitions, %,d documents, %,.1f RU",
            v.partitionsRead(),
            v.documentsRead(),
            r.verifyRequestUnits()));
    if (v.pending() > 0) {
      row("changed, not verified yet", String.format(Locale.ROOT, "%,d", v.pending()));
    }
    a("</table>\n");
    if (v.differences().isEmpty()) {
      a("<p id=differences>No document differs.</p>\n");
      return;
    }
    f("<h2>Differences (%,d)</h2>\n", v.differences().size())
        .a("<table id=differences><tr><th>kind</th><th>partition key</th><th>id</th></tr>\n");
    for (VerifyReport.Difference d : v.differences()) {
      f(
          "<tr><td class=\"%s\">%s</td><td><code>%s</code></td><td><code>%s</code></td></tr>\n",
          d.kind(), d.kind(), esc(d.partitionKey()), esc(d.id()));
    }
    a("</table>\n<p>MISSING: in the source, not in the target. EXTRA: in the target only.")
        .a(" DIFFERENT: in both, with other content.</p>\n");
  }
}
