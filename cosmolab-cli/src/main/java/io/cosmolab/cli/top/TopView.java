package io.cosmolab.cli.top;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One frame of {@code cosmolab top} from the explorer API's answers: per container its headline,
 * then per physical partition a bar of normalized RU, 429s (real and would-be), storage and the top
 * keys; then the active alerts. Pure: JSON in, text out.
 */
public final class TopView {
  private static final int BAR = 20;

  private TopView() {}

  /**
   * @param account {@code GET /_explorer/api/account}
   * @param containers {@code GET .../partitions} of each container to show
   * @param alerts {@code GET /_explorer/api/alerts}
   */
  public static String render(
      String endpoint, JsonNode account, List<JsonNode> containers, JsonNode alerts) {
    StringBuilder b = new StringBuilder();
    int active = alerts.path("active").size();
    b.append(
        String.format(
            Locale.ROOT,
            "cosmolab top  %s  %s  throttling %s, scale %s  %s%n",
            endpoint,
            account.path("now").asText(),
            account.path("throttling").asText(),
            num(account.path("scale").asDouble()),
            active == 0 ? "no alerts" : active + " active alert(s)"));
    if (containers.isEmpty()) {
      b.append(String.format("%nno containers yet%n"));
    }
    for (JsonNode c : containers) {
      b.append(System.lineSeparator());
      JsonNode t = c.path("throughput");
      b.append(
          String.format(
              Locale.ROOT,
              "%s/%s  key %s  %s  %d partitions  %d docs  %s%n",
              c.path("database").asText(),
              c.path("id").asText(),
              String.join(",", texts(c.path("partitionKey").path("paths"))),
              t.isMissingNode()
                  ? "shared throughput"
                  : num(t.path("ruPerSecond").asDouble()) + " RU/s " + t.path("kind").asText(),
              c.path("physicalPartitions").asInt(),
              c.path("documents").asLong(),
              bytes(c.path("storageBytes").asDouble())));
      if (c.has("headline")) {
        b.append("  ").append(c.path("headline").asText()).append(System.lineSeparator());
      }
      b.append(
          String.format(
              Locale.ROOT,
              "  %-6s %-27s %8s %8s %9s %10s  %s%n",
              "range",
              "normalized RU",
              "RU/s",
              "429s",
              "would-be",
              "storage",
              "top keys by RU"));
      for (JsonNode p : c.path("partitions")) {
        double nru = p.path("normalizedRu").asDouble();
        b.append(
            String.format(
                Locale.ROOT,
                "  %-6s %s %4.0f %% %8s %8d %9d %10s  %s%n",
                p.path("id").asText(),
                bar(nru),
                nru * 100,
                num(p.path("ruLastSecond").asDouble()),
                p.path("throttled").asLong(),
                p.path("wouldThrottle").asLong(),
                bytes(p.path("storageBytes").asDouble()),
                keys(p.path("topKeysByRu"))));
      }
    }
    b.append(System.lineSeparator()).append("alerts").append(System.lineSeparator());
    if (active == 0) {
      b.append("  none").append(System.lineSeparator());
    }
    for (JsonNode a : alerts.path("active")) {
      b.append(
          String.format(
              Locale.ROOT,
              "  %s %s/%s%s since %s: %s%n",
              a.path("rule").asText(),
              a.path("database").asText(),
              a.path("container").asText(),
              a.path("partitionKeyRangeId").isNull()
                  ? ""
                  : " range " + a.path("partitionKeyRangeId").asText(),
              a.path("since").asText(),
              a.path("message").asText()));
    }
    return b.toString();
  }

  /** A bar of {@value #BAR} cells in eighths, for a share 0–1. */
  static String bar(double share) {
    String[] eighths = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
    double cells = Math.max(0, Math.min(1, share)) * BAR;
    int full = (int) cells;
    int rest = (int) Math.round((cells - full) * 8);
    if (rest == 8) {
      full++;
      rest = 0;
    }
    StringBuilder b = new StringBuilder("█".repeat(full));
    if (full < BAR) {
      b.append(eighths[rest]);
    }
    while (b.codePointCount(0, b.length()) < BAR) {
      b.append(' ');
    }
    return b.toString();
  }

  private static String keys(JsonNode keys) {
    List<String> out = new ArrayList<>();
    for (JsonNode k : keys) {
      out.add(k.path("key").asText() + " " + num(k.path("value").asDouble()));
    }
    return String.join(", ", out);
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  private static String num(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15
        ? String.format(Locale.ROOT, "%.0f", v)
        : String.format(Locale.ROOT, "%.1f", v);
  }

  static String bytes(double b) {
    String[] u = {"B", "KiB", "MiB", "GiB", "TiB"};
    int i = 0;
    while (b >= 1024 && i < u.length - 1) {
      b /= 1024;
      i++;
    }
    return String.format(Locale.ROOT, i == 0 ? "%.0f %s" : "%.1f %s", b, u[i]);
  }
}
