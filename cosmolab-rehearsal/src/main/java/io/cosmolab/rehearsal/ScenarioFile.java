package io.cosmolab.rehearsal;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.input.DocumentReader;
import io.cosmolab.advisor.workload.ContainerWorkload;
import io.cosmolab.advisor.workload.Workload;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a scenario file: the advisor's workload file for one container ({@code docs/advisor.md}),
 * with time at its top level. See {@code docs/rehearsal.md}.
 *
 * <pre>
 * scenario: black-friday           # its name (the container's is name:)
 * description: ...
 * start: 2026-11-27T00:00:00Z      # virtual time at the start
 * step: 10s                        # one column of the timeline
 * seed: 42
 * scale: auto                      # or a factor: each simulated request stands for that many
 * phases:
 *   - { name: normal, duration: 5m, rate: 1 }
 *   - { name: ramp, duration: 5m, rate: [1, 10] }     # a linear ramp of the multiplier
 * events:
 *   - { at: 2m, name: VIP reseller, hot: { field: /userId, value: vip, share: 0.25 } }
 *   - { at: 8m, throughput: 60000 }
 * clock: { /createdDate: yyyy-MM-dd }                  # fields set from the virtual clock
 * client: { maxRetries: 9, maxRetryWait: 30s, read: { p50: 4, p99: 10 }, write: { p50: 6, p99: 15 } }
 * burst: true                                          # burst capacity (off by default)
 * indexingPolicy: { excludedPaths: [{ path: "/*" }], includedPaths: [{ path: "/ts/?" }] }
 * alertRules: rules.yaml                              # the engine's alert rules file (serve's)
 * # ... and the workload: sample, candidates, throughput, documents, operations
 * </pre>
 *
 * <p>With {@code containers:} (the workload file's form for several), the container that names
 * {@code candidates} is rehearsed, and each {@code join} of another container into it adds the
 * lookups it sends as a query operation at the join's rate ({@link
 * ContainerWorkload#operationsWith}), as the advisor weighs them; the other containers' own
 * operations are not played.
 */
public final class ScenarioFile {
  /** The top-level fields this file adds to a workload file. */
  public static final Set<String> TIME_FIELDS =
      Set.of(
          "scenario",
          "description",
          "start",
          "duration",
          "step",
          "seed",
          "scale",
          "phases",
          "events",
          "clock",
          "client",
          "burst",
          "indexingPolicy",
          "alertRules");

  /** The most sample documents read from the workload's sample files. */
  public static final int MAX_SAMPLE = 50_000;

  private ScenarioFile() {}

  private static final Pattern DURATION =
      Pattern.compile("\\s*(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h|d)\\s*");

  /**
   * A duration as a scenario writes it: {@code 500ms}, {@code 90s}, {@code 20m}, {@code 1h}, {@code
   * 2d}, ISO-8601 ({@code PT20M}), or a number of seconds.
   */
  static Duration parseDuration(JsonNode v, String field) {
    if (v == null || v.isNull()) {
      return null;
    }
    if (v.isNumber()) {
      return Duration.ofMillis(Math.round(v.doubleValue() * 1000));
    }
    String text = v.asText();
    Matcher m = DURATION.matcher(text);
    if (m.matches()) {
      double n = Double.parseDouble(m.group(1));
      long unit =
          switch (m.group(2)) {
            case "ms" -> 1;
            case "s" -> 1000;
            case "m" -> 60_000;
            case "h" -> 3_600_000;
            default -> 86_400_000;
          };
      return Duration.ofMillis(Math.round(n * unit));
    }
    try {
      return Duration.parse(text.strip());
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          field + " '" + text + "' is not a duration: write 500ms, 90s, 20m, 1h, 2d or PT20M", e);
    }
  }

  /** The time section of the file (its other fields are the workload's). */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record Time(
      @JsonProperty("scenario") String scenario,
      @JsonProperty("description") String description,
      @JsonProperty("start") String start,
      @JsonProperty("duration") JsonNode duration,
      @JsonProperty("step") JsonNode step,
      @JsonProperty("seed") Long seed,
      @JsonProperty("scale") JsonNode scale,
      @JsonProperty("phases") List<PhaseYaml> phases,
      @JsonProperty("events") List<EventYaml> events,
      @JsonProperty("clock") Map<String, String> clock,
      @JsonProperty("client") ClientYaml client,
      @JsonProperty("burst") Boolean burst,
      @JsonProperty("indexingPolicy") ObjectNode indexingPolicy,
      @JsonProperty("alertRules") String alertRules) {}

  /** {@code { name, duration, rate }}: rate a number, or [from, to] for a ramp. */
  record PhaseYaml(
      @JsonProperty("name") String name,
      @JsonProperty("duration") JsonNode duration,
      @JsonProperty("rate") JsonNode rate) {
    PhaseYaml {
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException("a phase needs name: how reports call it");
      }
      if (duration == null) {
        throw new IllegalArgumentException("phase '" + name + "' needs duration: 90s, 20m, 1h");
      }
      parseDuration(duration, "the duration of phase '" + name + "'");
      if (rate != null
          && !rate.isNumber()
          && !(rate.isArray()
              && rate.size() == 2
              && rate.get(0).isNumber()
              && rate.get(1).isNumber())) {
        throw new IllegalArgumentException(
            "the rate of phase '"
                + name
                + "' is a multiplier (10) or a ramp [from, to] ([1, 10]), was '"
                + rate
                + "'");
      }
    }

    Phase phase() {
      Duration d = parseDuration(duration, "duration");
      if (rate == null) {
        return Phase.constant(name, d, 1);
      }
      return rate.isNumber()
          ? Phase.constant(name, d, rate.doubleValue())
          : Phase.ramp(name, d, rate.get(0).doubleValue(), rate.get(1).doubleValue());
    }
  }

  /** {@code { at, name, hot: {...} }} or {@code { at, name, throughput: RU/s }}. */
  record EventYaml(
      @JsonProperty("at") JsonNode at,
      @JsonProperty("name") String name,
      @JsonProperty("hot") HotYaml hot,
      @JsonProperty("throughput") Double throughput) {
    EventYaml {
      if (at == null) {
        throw new IllegalArgumentException("an event needs at: when it happens (0s, 10m)");
      }
      parseDuration(at, "at");
      if ((hot == null) == (throughput == null)) {
        throw new IllegalArgumentException(
            "an event is either hot: {field, value, share} or throughput: RU/s");
      }
    }

    Event event() {
      Duration when = parseDuration(at, "at");
      return hot != null
          ? Event.hot(when, name, hot.field(), hot.value(), hot.share())
          : Event.throughput(when, name, throughput);
    }
  }

  /** {@code { field: /tenantId, value: vip, share: 0.4 }}. */
  record HotYaml(
      @JsonProperty("field") String field,
      @JsonProperty("value") JsonNode value,
      @JsonProperty("share") double share) {
    HotYaml {
      if (field == null) {
        throw new IllegalArgumentException("a hot event needs field: the path of the hot value");
      }
      io.cosmolab.engine.partitioning.PartitionKeyDefinition.segmentsOf(field);
      if (!(share > 0 && share <= 1)) {
        throw new IllegalArgumentException(
            "the share of hot value " + value + " is in (0, 1], was '" + share + "'");
      }
    }
  }

  /** {@code { p50, p99 }} in milliseconds. */
  record LatencyYaml(@JsonProperty("p50") double p50, @JsonProperty("p99") double p99) {}

  /** The client: the SDK's retry options and the service latency. */
  record ClientYaml(
      @JsonProperty("maxRetries") Integer maxRetries,
      @JsonProperty("maxRetryWait") JsonNode maxRetryWait,
      @JsonProperty("read") LatencyYaml read,
      @JsonProperty("write") LatencyYaml write) {
    ClientYaml {
      if (maxRetryWait != null) {
        parseDuration(maxRetryWait, "maxRetryWait");
      }
    }

    ClientModel model() {
      ClientModel d = ClientModel.SDK_DEFAULT;
      return new ClientModel(
          maxRetries == null ? d.maxRetries() : maxRetries,
          maxRetryWait == null ? d.maxRetryWait() : parseDuration(maxRetryWait, "maxRetryWait"),
          read == null ? d.readMedianMillis() : read.p50(),
          read == null ? d.readP99Millis() : read.p99(),
          write == null ? d.writeMedianMillis() : write.p50(),
          write == null ? d.writeP99Millis() : write.p99());
    }
  }

  /**
   * Reads a scenario file; its sample files are relative to it.
   *
   * @throws IllegalArgumentException naming the file, line and field of what is wrong
   */
  public static Scenario read(Path file) {
    Workload w = Workload.read(file, TIME_FIELDS);
    Time t = Workload.readAs(file, Time.class);
    ContainerWorkload c;
    try {
      c = rehearsed(w.containers());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
    try {
      if (c.candidates() == null || c.candidates().isEmpty()) {
        throw new IllegalArgumentException(
            "name the keys to rehearse: candidates: [/tenantId, \"/tenantId>/userId\"]");
      }
      List<Candidate> candidates = new ArrayList<>();
      for (String k : c.candidates()) {
        candidates.add(Candidate.parse(k));
      }
      if (c.sample().isEmpty()) {
        throw new IllegalArgumentException(
            "name sample documents to draw new ones from: sample: [orders.jsonl]");
      }
      List<ObjectNode> sample = new ArrayList<>();
      Path base = file.toAbsolutePath().getParent();
      for (String s : c.sample()) {
        try (DocumentReader r = DocumentReader.open(base.resolve(s))) {
          while (r.hasNext() && sample.size() < MAX_SAMPLE) {
            sample.add(r.next());
          }
        }
      }
      List<Phase> phases = new ArrayList<>();
      if (t.phases() != null) {
        for (PhaseYaml p : t.phases()) {
          phases.add(p.phase());
        }
      }
      Duration total = parseDuration(t.duration(), "duration");
      if (phases.isEmpty()) {
        if (total == null) {
          throw new IllegalArgumentException(
              "give phases: [{name, duration, rate}], or duration: for one steady phase");
        }
        phases.add(Phase.constant("steady", total, 1));
      } else if (total != null) {
        Duration sum = Duration.ZERO;
        for (Phase p : phases) {
          sum = sum.plus(p.duration());
        }
        if (!sum.equals(total)) {
          throw new IllegalArgumentException(
              "duration '"
                  + t.duration().asText()
                  + "' is not the sum of the phases ("
                  + sum.toSeconds()
                  + " s): leave it out, or make them agree");
        }
      }
      List<Event> events = new ArrayList<>();
      if (t.events() != null) {
        for (EventYaml e : t.events()) {
          events.add(e.event());
        }
      }
      Duration step = parseDuration(t.step(), "step");
      if (step == null) {
        step = defaultStep(phases);
      }
      double scale = 0;
      if (t.scale() != null && !(t.scale().isTextual() && t.scale().asText().equals("auto"))) {
        if (!t.scale().isNumber()) {
          throw new IllegalArgumentException(
              "scale '" + t.scale().asText() + "' is a whole factor of 1 or more, or auto");
        }
        scale = t.scale().doubleValue();
      }
      Instant start;
      try {
        start = t.start() == null ? null : Instant.parse(t.start());
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException(
            "start '" + t.start() + "' is not an instant like 2026-11-27T00:00:00Z", e);
      }
      return new Scenario(
          t.scenario() != null ? t.scenario() : fileName(file),
          t.description(),
          c,
          candidates,
          sample,
          start,
          phases,
          events,
          t.clock() == null ? Map.of() : new LinkedHashMap<>(t.clock()),
          step,
          t.client() == null ? null : t.client().model(),
          scale,
          t.seed() == null ? 42 : t.seed(),
          t.burst() != null && t.burst(),
          t.indexingPolicy(),
          alertRules(base, t.alertRules()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  /**
   * The container a rehearsal plays: the only one, or the one of several that names candidates,
   * with the lookups the others' joins send it folded in as query operations. A container that
   * neither is rehearsed nor joins into it is refused: nothing of it would be played.
   */
  static ContainerWorkload rehearsed(List<ContainerWorkload> all) {
    if (all.size() == 1) {
      return all.get(0);
    }
    List<ContainerWorkload> keyed = new ArrayList<>();
    for (ContainerWorkload c : all) {
      if (c.candidates() != null && !c.candidates().isEmpty()) {
        keyed.add(c);
      }
    }
    if (keyed.size() != 1) {
      List<String> names = new ArrayList<>();
      keyed.forEach(k -> names.add(k.name()));
      throw new IllegalArgumentException(
          "a rehearsal plays one container: of the "
              + all.size()
              + " containers, name candidates in exactly one (named in "
              + (names.isEmpty() ? "none" : String.join(", ", names))
              + "); the others' joins into it are played as its lookups");
    }
    ContainerWorkload r = keyed.get(0);
    for (ContainerWorkload c : all) {
      if (!c.name().equals(r.name())
          && c.joins().stream().noneMatch(j -> j.container().equals(r.name()))) {
        throw new IllegalArgumentException(
            "container "
                + c.name()
                + " has no join into "
                + r.name()
                + ", the container rehearsed: nothing of it would be played (leave it out)");
      }
    }
    return new ContainerWorkload(
        r.name(),
        r.sample(),
        r.candidates(),
        r.throughput(),
        r.autoscale(),
        r.documents(),
        r.growthPerDay(),
        r.horizonMonths(),
        r.operationsWith(all),
        r.joins());
  }

  /** The rules file a scenario names, beside it; null for the defaults. */
  private static io.cosmolab.engine.alerts.AlertRules alertRules(Path base, String file) {
    if (file == null) {
      return null;
    }
    try {
      return io.cosmolab.engine.alerts.AlertRules.load(base.resolve(file));
    } catch (io.cosmolab.engine.alerts.AlertRulesException e) {
      throw new IllegalArgumentException("alertRules: " + e.getMessage(), e);
    }
  }

  /** About 300 columns, in whole seconds, at least 1 s. */
  static Duration defaultStep(List<Phase> phases) {
    long total = 0;
    for (Phase p : phases) {
      total += p.duration().toSeconds();
    }
    return Duration.ofSeconds(Math.max(1, total / 300));
  }

  private static String fileName(Path file) {
    String n = file.getFileName().toString();
    int dot = n.indexOf('.');
    return (dot > 0 ? n.substring(0, dot) : n).toLowerCase(Locale.ROOT);
  }
}
