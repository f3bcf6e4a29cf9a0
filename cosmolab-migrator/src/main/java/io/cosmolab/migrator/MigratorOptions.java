package io.cosmolab.migrator;

import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;

/**
 * How a migrator runs, apart from what it migrates.
 *
 * @param clock the time for the RU cap, the lag and the state's timestamps
 * @param sleeper how it waits (retry-after, the RU cap, polling): injected so tests need not sleep
 * @param fault called at every step that has an effect (before each write and each save of the
 *     state): a test throws from it to simulate a crash at that point; {@link Fault#NONE} otherwise
 * @param parallelism target partitions written at once (each a stream of the SDK's bulk calls), and
 *     the queries that locate old copies run at once
 * @param pageSize documents per page of the snapshot and of the change feed
 * @param pollInterval how long to wait when the change feed has nothing new
 * @param changeFeed which change feed to tail (see {@link ChangeFeedMode}); a resumed run keeps the
 *     mode its state saved
 * @param reconcileInterval with the latest-version feed, the least time between two reconciliation
 *     passes while tailing
 * @param verifyInterval the least time between two incremental verification passes while tailing
 *     (each with the feed drained); negative: none while tailing, only at cutover
 * @param settleInterval how long a partition of the target must have had no write before a pass
 *     while tailing verifies it
 * @param direct whether the SDK reaches both accounts in direct mode (RNTBD over TLS) rather than
 *     gateway mode, which every endpoint serves ({@code SdkClients} in the advisor says why gateway
 *     is the default)
 */
public record MigratorOptions(
    InstantSource clock,
    Sleeper sleeper,
    Fault fault,
    int parallelism,
    int pageSize,
    Duration pollInterval,
    ChangeFeedMode changeFeed,
    Duration reconcileInterval,
    Duration verifyInterval,
    Duration settleInterval,
    boolean direct) {

  public MigratorOptions {
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(sleeper, "sleeper");
    Objects.requireNonNull(fault, "fault");
    Objects.requireNonNull(changeFeed, "changeFeed");
    Objects.requireNonNull(reconcileInterval, "reconcileInterval");
    Objects.requireNonNull(verifyInterval, "verifyInterval");
    Objects.requireNonNull(settleInterval, "settleInterval");
    if (settleInterval.isNegative()) {
      throw new IllegalArgumentException(
          "the settle interval is 0 or more, not " + settleInterval.toMillis() + " ms");
    }
    if (parallelism < 1 || pageSize < 1) {
      throw new IllegalArgumentException("parallelism and page size are 1 or more");
    }
  }

  /**
   * Defaults: 8 target partitions written at once, pages of 500, polling every 250 ms, the change
   * feed chosen automatically, reconciliation at most once a minute while tailing, an incremental
   * verification pass at most once a minute while tailing, over partitions with no write for 10 s,
   * in gateway mode.
   */
  public static MigratorOptions of(InstantSource clock) {
    return new MigratorOptions(
        clock,
        Sleeper.THREAD,
        Fault.NONE,
        8,
        500,
        Duration.ofMillis(250),
        ChangeFeedMode.AUTO,
        Duration.ofMinutes(1),
        Duration.ofMinutes(1),
        Duration.ofSeconds(10),
        false);
  }

  public MigratorOptions withFault(Fault f) {
    return new MigratorOptions(
        clock,
        sleeper,
        f,
        parallelism,
        pageSize,
        pollInterval,
        changeFeed,
        reconcileInterval,
        verifyInterval,
        settleInterval,
        direct);
  }

  public MigratorOptions withPageSize(int n) {
    return new MigratorOptions(
        clock,
        sleeper,
        fault,
        parallelism,
        n,
        pollInterval,
        changeFeed,
        reconcileInterval,
        verifyInterval,
        settleInterval,
        direct);
  }

  public MigratorOptions withChangeFeed(ChangeFeedMode m) {
    return new MigratorOptions(
        clock,
        sleeper,
        fault,
        parallelism,
        pageSize,
        pollInterval,
        m,
        reconcileInterval,
        verifyInterval,
        settleInterval,
        direct);
  }

  /** With incremental passes at most every {@code interval} (negative: none while tailing). */
  public MigratorOptions withVerify(Duration interval, Duration settle) {
    return new MigratorOptions(
        clock,
        sleeper,
        fault,
        parallelism,
        pageSize,
        pollInterval,
        changeFeed,
        reconcileInterval,
        interval,
        settle,
        direct);
  }

  /** With the SDK in direct mode ({@code true}) or gateway mode. */
  public MigratorOptions withDirect(boolean d) {
    return new MigratorOptions(
        clock,
        sleeper,
        fault,
        parallelism,
        pageSize,
        pollInterval,
        changeFeed,
        reconcileInterval,
        verifyInterval,
        settleInterval,
        d);
  }

  /** Waits. */
  @FunctionalInterface
  public interface Sleeper {
    Sleeper THREAD = d -> Thread.sleep(Math.max(0, d.toMillis()));

    void sleep(Duration d) throws InterruptedException;
  }

  /** A test's hook to crash a run at a chosen step. */
  @FunctionalInterface
  public interface Fault {
    Fault NONE = step -> {};

    /** Called before a step with an effect; {@code step} names it (e.g. {@code upsert}). */
    void before(String step);
  }
}
