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
}
