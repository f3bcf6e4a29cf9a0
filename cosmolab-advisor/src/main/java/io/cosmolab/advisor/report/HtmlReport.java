package io.cosmolab.advisor.report;

import io.cosmolab.advisor.Advice;
import io.cosmolab.advisor.Report;
import java.util.List;
import java.util.Locale;

/**
 * Renders a {@link Report} as one HTML page that opens offline: inline CSS and SVG, no scripts, no
 * fonts or images fetched. For each container a ranking table; for each candidate its reasons and
 * four charts — RU/s per physical partition at peak against the budget (storage shares without a
 * workload), the Lorenz curve of storage over key values, the heaviest keys, and the size classes
 * of logical partitions at the horizon.
 */
public final class HtmlReport {
  private static final int W = 420;
  private static final int H = 200;
  private static final int PAD = 36;

  private final StringBuilder out = new StringBuilder(64 * 1024);

  private HtmlReport() {}

  public static String render(Report report) {
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

  private void page(Report report) {
    a("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .a("<title>cosmolab advise</title><style>")
        .a("body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1d2330;max-width:1200px}")
        .a("table{border-collapse:collapse;margin:8px 0}td,th{padding:3px 8px;text-align:left;")
        .a("border-bottom:1px solid #e3e6ec}th{background:#f4f6f9}.num{text-align:right}")
        .a(".recommended{color:#137333}.risky{color:#b06000}.rejected{color:#c5221f}")
        .a("details{border:1px solid #e3e6ec;border-radius:6px;margin:10px 0;padding:6px 12px}")
        .a("summary{cursor:pointer;font-weight:600}.charts{display:flex;flex-wrap:wrap;gap:16px}")
        .a("figure{margin:0;max-width:420px}figcaption{font-size:12px;color:#555}")
        .a("svg text{font-size:10px}")
        .a("</style></head><body>\n<h1>Partition-key advice</h1>\n")
        .f(
            "<p>Schema <code>%s</code>. Keys are hashed and laid out by the cosmolab engine; RU by"
                + " its published cost model.</p>\n",
            esc(report.schema()));
    for (Report.ContainerAdvice c : report.containers()) {
      container(c);
    }
    a("</body></html>\n");
  }

  private void container(Report.ContainerAdvice c) {
    f("<h2>Container %s</h2>\n", esc(c.name()))
        .f(
            "<p>%,d sampled documents (%s); throughput %s.</p>\n",
            c.sampledDocuments(), bytes(c.sampledBytes()), esc(c.throughput()));
    if (!c.operations().isEmpty()) {
      a("<p>Operations at peak:</p><ul>");
      for (String op : c.operations()) {
        f("<li><code>%s</code></li>", esc(op));
      }
      a("</ul>\n");
    }
    a("<table><tr><th>#</th><th>candidate</th><th>verdict</th><th class=num>score</th>")
        .a("<th class=num>partitions</th><th class=num>429s</th><th>why</th></tr>\n");
    int i = 1;
    for (Advice x : c.candidates()) {
      f(
          "<tr><td>%d</td><td><code>%s</code></td><td class=\"%s\">%s</td><td class=num>%d</td>"
              + "<td class=num>%d</td><td class=num>%s</td><td>%s</td></tr>\n",
          i++,
          esc(x.candidate()),
          x.verdict(),
          x.verdict(),
          x.score(),
          x.physicalPartitions(),
          x.peak() == null ? "–" : percent(x.predicted429Share()),
          esc(x.reasons().isEmpty() ? "spreads evenly" : x.reasons().get(0)));
    }
    a("</table>\n");
    boolean first = true;
    for (Advice x : c.candidates()) {
      candidate(x, first);
      first = false;
    }
  }

  private void candidate(Advice x, boolean open) {
    f(
        "<details%s><summary><code>%s</code> — <span class=\"%s\">%s</span>, score %d</summary>\n",
        open ? " open" : "", esc(x.candidate()), x.verdict(), x.verdict(), x.score());
    if (!x.reasons().isEmpty()) {
      a("<ul>");
      for (String r : x.reasons()) {
        f("<li>%s</li>", esc(r));
      }
      a("</ul>");
    }
    Advice.Layout l = x.layout();
    Advice.Storage s = x.storage();
    f(
        "<p>~%,.0f distinct values; largest logical partition %s now, %s at the horizon (%,d"
            + " documents); %d physical partitions at %s %,.0f RU/s; storage hot-partition ratio %.2f;"
            + " Gini %.2f.</p>\n",
        x.distinct().estimate(),
        bytes(s.largestLogicalPartitionNowBytes()),
        bytes(s.largestLogicalPartitionAtHorizonBytes()),
        s.documentsAtHorizon(),
        l.physicalPartitions(),
        l.throughputKind(),
        l.throughputRuPerSecond(),
        l.hotPartitionRatio(),
        s.gini());
    Advice.Routing r = x.routing();
    if (x.peak() != null) {
      f(
          "<p>At peak the busiest partition serves %.2f× the mean RU/s. Reads: %s"
              + " single-partition, %s targeted, %s fan-out (+%,.0f RU/s). Writes without the key:"
              + " %,.0f/s; updates that change it: %,.0f/s. Minimum throughput: %s.</p>\n",
          x.peak().hotPartitionRatio(),
          percent(r.singlePartitionReadShare()),
          percent(r.targetedReadShare()),
          percent(r.fanOutReadShare()),
          r.fanOutRuPerSecond(),
          r.keylessWritesPerSecond(),
          r.keyChangingUpdatesPerSecond(),
          x.peak().minimumRuPerSecond() == null
              ? "none avoids 429"
              : String.format(Locale.ROOT, "%,.0f RU/s", x.peak().minimumRuPerSecond()));
    }
    a("<div class=charts>");
    partitions(x);
    lorenz(s, x.peak());
    topKeys(x);
    sizes(s);
    a("</div></details>\n");
  }

  /** Room above the tallest bar for its value label. */
  private static final int HEADROOM = 14;

  /** Bars per physical partition: RU/s at peak against the budget, or storage shares. */
  private void partitions(Advice x) {
    boolean peak = x.peak() != null;
    List<Double> values = peak ? x.peak().ruPerSecondByPartition() : x.layout().storageShares();
    double budget = peak ? x.peak().budgetRuPerSecond() : 1.0 / Math.max(1, values.size());
    double max = budget;
    double busiest = 0;
    for (double v : values) {
      max = Math.max(max, v);
      busiest = Math.max(busiest, v);
    }
    figureStart(
        peak
            ? "RU/s per physical partition at peak, by partition number; the dashed line is each"
                + " one's budget"
            : "Share of storage per physical partition, by partition number; the dashed line is an"
                + " even share");
    int n = values.size();
    double bw = (W - 2.0 * PAD) / Math.max(1, n);
    double plot = H - 2 * PAD - HEADROOM;
    int every = Math.max(1, (int) Math.ceil(n / 16.0)); // partition numbers that fit
    for (int i = 0; i < n; i++) {
      double v = values.get(i);
      double h = max == 0 ? 0 : v / max * plot;
      double left = PAD + i * bw;
      String value = peak ? compact(v) : percent(v);
      f(
          "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>"
              + "partition %d: %s</title></rect>",
          left + bw * 0.1,
          H - PAD - h,
          Math.max(0.5, bw * 0.8),
          h,
          v > budget * 1.0001 ? "#d93025" : "#4c8bf5",
          i,
          esc(peak ? String.format(Locale.ROOT, "%,.0f RU/s", v) : percent(v)));
      if (bw >= 6.0 * value.length() + 2 || v == busiest) { // ~6 px a character at 10 px
        f(
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>",
            left + bw / 2, H - PAD - h - 3, esc(value));
      }
      if (i % every == 0) {
        f(
            "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>",
            left + bw / 2, H - PAD + 12, i);
      }
    }
    double by = H - PAD - (max == 0 ? 0 : budget / max * plot);
    f(
        "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#202124\""
            + " stroke-dasharray=\"4 3\"/>",
        PAD, W - PAD, by, by);
    f(
        "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">- - %s</text>",
        W - PAD,
        PAD - 6,
        esc(peak ? String.format(Locale.ROOT, "budget %,.0f RU/s", budget) : "even share"));
    axes(peak ? String.format(Locale.ROOT, "max %,.0f RU/s", max) : percent(max), "partition");
    figureEnd();
  }

  /** 9,660 as 9.7k, 25,439 as 25k: a bar's value in the width of a bar. */
  static String compact(double v) {
    if (v >= 10_000) {
      return String.format(Locale.ROOT, "%.0fk", v / 1000);
    }
    if (v >= 1000) {
      return String.format(Locale.ROOT, "%.1fk", v / 1000);
    }
    return String.format(Locale.ROOT, "%.0f", v);
  }

  private void lorenz(Advice.Storage s, Advice.Peak peak) {
    figureStart(
        peak == null
            ? String.format(
                Locale.ROOT,
                "Cumulative share of storage by key value, smallest first (Gini %.2f; the dashed"
                    + " diagonal is a perfectly even spread)",
                s.gini())
            : String.format(
                Locale.ROOT,
                "Cumulative share of storage (blue, Gini %.2f) and of RU/s at peak (orange, Gini"
                    + " %.2f) by key value, smallest first; the dashed diagonal is an even spread",
                s.gini(),
                peak.gini()));
    int width = W - 2 * PAD;
    int height = H - 2 * PAD;
    f(
        "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#9aa0a6\""
            + " stroke-dasharray=\"4 3\"/>",
        PAD, H - PAD, PAD + width, PAD);
    for (int t = 0; t <= 2; t++) { // ticks at 0, 50 and 100 %
      double x = PAD + width * t / 2.0;
      double y = H - PAD - height * t / 2.0;
      f(
          "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d%%</text>"
              + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d%%</text>",
          x, H - PAD + 12, 50 * t, PAD - 3, y + 3, 50 * t);
    }
    polyline(s.lorenz(), width, height, "#4c8bf5");
    if (peak != null) {
      polyline(peak.lorenz(), width, height, "#f29900");
    }
    axes("share", "keys, smallest first");
    figureEnd();
  }

  private void polyline(List<Advice.Point> curve, int width, int height, String colour) {
    StringBuilder points = new StringBuilder();
    for (Advice.Point p : curve) {
      points.append(
          String.format(
              Locale.ROOT, "%.1f,%.1f ", PAD + p.keys() * width, H - PAD - p.share() * height));
    }
    f("<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>", colour, points);
  }

  /** Width of the key labels of the heaviest-keys chart. */
  private static final int LABEL = 170;

  private void topKeys(Advice x) {
    boolean ru = !x.topByRu().isEmpty();
    List<Advice.Share> top = ru ? x.topByRu() : x.topByBytes();
    figureStart(ru ? "Heaviest keys by RU/s at peak" : "Heaviest keys by storage");
    if (top.isEmpty()) {
      f(
          "<text x=\"%d\" y=\"%d\">No key stands out: none holds more than one document in"
              + " the sample's windows.</text><text x=\"%d\" y=\"%d\">The largest logical"
              + " partition is %s now.</text>",
          PAD, PAD + 12, PAD, PAD + 28, esc(bytes(x.storage().largestLogicalPartitionNowBytes())));
      figureEnd();
      return;
    }
    double max = 0;
    for (Advice.Share t : top) {
      max = Math.max(max, t.share());
    }
    int row = 0;
    for (Advice.Share t : top) {
      double w = max == 0 ? 0 : t.share() / max * (W - 2 * PAD - LABEL - 80);
      double y = PAD + row * 24.0;
      String value =
          ru
              ? String.format(Locale.ROOT, "%,.0f RU/s, %s", t.weight(), percent(t.share()))
              : percent(t.share());
      f(
              "<text x=\"%d\" y=\"%.1f\"><title>%s</title>%s</text>",
              8, y + 12, esc(t.key()), esc(shorten(t.key())))
          .f(
              "<rect x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"14\" fill=\"#f29900\"/>",
              8 + LABEL, y + 2, Math.max(0.5, w))
          .f("<text x=\"%.1f\" y=\"%.1f\">%s</text>", 12 + LABEL + w, y + 12, esc(value));
      row++;
    }
    figureEnd();
  }

  private void sizes(Advice.Storage s) {
    figureStart(
        "Logical partitions by size at the horizon (keys per class, log scale; 20 GB is the"
            + " limit)");
    long max = 1;
    for (Advice.SizeClass c : s.logicalPartitionSizes()) {
      max = Math.max(max, c.keys());
    }
    int n = s.logicalPartitionSizes().size();
    double bw = (W - 2.0 * PAD) / n;
    double plot = H - 2 * PAD - HEADROOM;
    for (int i = 0; i < n; i++) {
      Advice.SizeClass c = s.logicalPartitionSizes().get(i);
      // a log scale, so one key past 20 GB shows beside a million small ones
      double h =
          c.keys() == 0 ? 0 : Math.log1p((double) c.keys()) / Math.log1p((double) max) * plot;
      double middle = PAD + i * bw + bw / 2;
      f(
          "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s:"
              + " %,d keys</title></rect>",
          PAD + i * bw + bw * 0.1,
          H - PAD - h,
          bw * 0.8,
          h,
          c.upToBytes() < 0 ? "#d93025" : "#34a853",
          esc(c.label()),
          c.keys());
      // labels alternate between two rows, so neighbours never overlap
      f(
          "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>"
              + "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%,d</text>",
          middle,
          H - PAD + (i % 2 == 0 ? 12 : 24),
          esc(c.label()),
          middle,
          H - PAD - h - 3,
          c.keys());
    }
    axes("keys", "");
    figureEnd();
  }

  private void figureStart(String caption) {
    f(
        "<figure><svg width=\"%d\" height=\"%d\" viewBox=\"0" + " 0 %d %d\" role=\"img\">",
        W, H, W, H);
    f("<desc>%s</desc>", esc(caption));
    this.caption = caption;
  }

  private String caption = "";

  private void figureEnd() {
    f("</svg><figcaption>%s</figcaption></figure>", esc(caption));
  }

  private void axes(String yLabel, String xLabel) {
    f(
        "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#5f6368\"/>"
            + "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#5f6368\"/>",
        PAD, PAD, PAD, H - PAD, PAD, H - PAD, W - PAD, H - PAD);
    f("<text x=\"2\" y=\"%d\">%s</text>", PAD - 6, esc(yLabel));
    f("<text x=\"%d\" y=\"%d\">%s</text>", W - PAD - 90, H - 6, esc(xLabel));
  }

  /** Long keys keep both ends (where hierarchical keys differ): {@code ["acme","acm…u418"]}. */
  static String shorten(String key) {
    return key.length() <= 28 ? key : key.substring(0, 13) + "…" + key.substring(key.length() - 13);
  }

  /** A share with the precision it needs: 37.0%, 0.24%, 0.003%, never a misleading 0.0%. */
  static String percent(double share) {
    double p = share * 100;
    if (p == 0 || p >= 1) {
      return String.format(Locale.ROOT, "%.1f%%", p);
    }
    if (p >= 0.01) {
      return String.format(Locale.ROOT, "%.2f%%", p);
    }
    return "<0.01%";
  }

  /** Bytes as B, KB, MB or GB (binary). */
  public static String bytes(long b) {
    if (b >= 1L << 30) {
      return String.format(Locale.ROOT, "%.1f GB", b / (double) (1L << 30));
    }
    if (b >= 1L << 20) {
      return String.format(Locale.ROOT, "%.1f MB", b / (double) (1L << 20));
    }
    if (b >= 1024) {
      return String.format(Locale.ROOT, "%.1f KB", b / 1024.0);
    }
    return b + " B";
  }
}
