package io.cosmolab.rehearsal;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * What a rehearsal found: one result per candidate, in the scenario's order. Counts of requests and
 * RU/s are at full scale (simulated ones times the scale factor); bytes too. Serialized as JSON
 * with the schema {@code cosmolab.rehearse/v1} ({@code docs/rehearsal.md}).
 *
 * @param schema {@code cosmolab.rehearse/v1}
 * @param against {@code engine} for a rehearsal in virtual time, else the live endpoint's URL
 * @param connection for a live endpoint, how the SDK connected ({@code gateway} or {@code direct});
 *     null for the engine
 * @param scenario the scenario's name
 * @param description what it shows
 * @param seed the seed it ran with
 * @param scale the scale model's factor it ran with
 * @param durationSeconds seconds rehearsed (virtual ones, or real ones against an endpoint)
 * @param stepSeconds the width of a timeline column
 * @param throughput the throughput at the start, as {@code manual 30000} or {@code autoscale 40000}
 * @param burstCapacity whether burst capacity was on
 * @param phases the phases, with where they start and end
 * @param events the events, with when they happen
 * @param candidates one per candidate key
 */
@JsonPropertyOrder({
  "schema",
  "against",
  "connection",
  "scenario",
  "description",
  "seed",
  "scale",
  "durationSeconds",
  "stepSeconds",
  "throughput",
  "phases",
  "events",
  "candidates"
})
public record RehearsalReport(
    String schema,
    String against,
    String connection,
    String scenario,
    String description,
    long seed,
    double scale,
    long durationSeconds,
    long stepSeconds,
    String throughput,
    boolean burstCapacity,
    List<PhaseSpan> phases,
    List<EventAt> events,
    List<CandidateResult> candidates) {

  /** The JSON schema's name; fields are only added within a version. */
  public static final String SCHEMA = "cosmolab.rehearse/v1";

  /** {@link #against()} for a rehearsal in virtual time on the engine. */
  public static final String ENGINE = "engine";

  public RehearsalReport {
    phases = List.copyOf(phases);
    events = List.copyOf(events);
    candidates = List.copyOf(candidates);
  }

  /** A phase on the time axis. */
  public record PhaseSpan(String name, long fromSecond, long toSecond, double from, double to) {}

  /** An event on the time axis. */
  public record EventAt(String name, long atSecond, String kind) {}

  /** Whether the rehearsal ran against a live endpoint, in real time. */
  public boolean live() {
    return !ENGINE.equals(against);
  }

  /** The result of the candidate written {@code key} ({@code /a}, {@code /a>/b}, ...). */
  public CandidateResult candidate(String key) {
    for (CandidateResult c : candidates) {
      if (c.candidate().equals(key) || c.name().equals(key)) {
        return c;
      }
    }
    throw new IllegalArgumentException("no candidate " + key + " in the report");
  }
}
