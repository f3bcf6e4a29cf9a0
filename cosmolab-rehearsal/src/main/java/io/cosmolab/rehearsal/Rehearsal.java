package io.cosmolab.rehearsal;

import io.cosmolab.rehearsal.internal.Driver;
import java.util.function.LongConsumer;

/**
 * Runs a scenario against the engine in virtual time.
 *
 * <pre>{@code
 * RehearsalReport r = Rehearsal.run(Library.VIP_TENANT.scenario());
 * r.candidate("/tenantId").headline().p99Millis();
 * }</pre>
 */
public final class Rehearsal {
  private Rehearsal() {}

  /** Runs {@code scenario}; the same scenario and seed give the same report. */
  public static RehearsalReport run(Scenario scenario) {
    return run(scenario, second -> {});
  }

  /**
   * Runs {@code scenario}, telling {@code progress} each virtual second that ends (1 to {@code
   * scenario.duration().toSeconds()}).
   *
   * @throws IllegalArgumentException when the scenario cannot be played (too many documents at its
   *     scale, a sample document without a candidate's field)
   */
  public static RehearsalReport run(Scenario scenario, LongConsumer progress) {
    return new Driver(scenario).run(progress);
  }

  /**
   * Runs {@code scenario} against a live endpoint through the official Java SDK, in real time (a
   * scenario of an hour takes an hour), at the scale factor that keeps its peak under {@code
   * options}' rate cap, and reports what the responses measured in the same form as {@link #run}.
   * The candidates' containers are created for the run in {@code options.database()} and deleted
   * after it unless kept.
   *
   * @throws IllegalArgumentException when the scenario cannot be played within the options (the
   *     stated scale puts its peak over the cap; too many documents at the start)
   * @throws IllegalStateException when the endpoint cannot be reached, or a container of the run's
   *     names exists and is not to be replaced
   */
  public static RehearsalReport live(
      Scenario scenario, LiveOptions options, LongConsumer progress) {
    return new io.cosmolab.rehearsal.internal.LiveDriver(scenario, options).run(progress);
  }
}
