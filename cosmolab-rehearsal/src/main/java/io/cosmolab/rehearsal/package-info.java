/**
 * The rehearsal: a workload with phases and events, run against the real engine in virtual time.
 *
 * <p>{@link io.cosmolab.rehearsal.Scenario} says what happens (the advisor's workload, extended
 * with time); {@link io.cosmolab.rehearsal.Rehearsal#run} plays it, one container per candidate key
 * on one engine, and returns a {@link io.cosmolab.rehearsal.RehearsalReport}; {@link
 * io.cosmolab.rehearsal.ScenarioFile} reads a scenario from YAML and {@link
 * io.cosmolab.rehearsal.Library} holds the built-in ones.
 *
 * <p>Related packages: {@code io.cosmolab.advisor.workload} (the workload format this extends),
 * {@code io.cosmolab.advisor.candidate} (the key forms), {@code io.cosmolab.engine} (what runs the
 * requests), {@code io.cosmolab.rehearsal.internal} (the driver, the client model, the reports).
 */
package io.cosmolab.rehearsal;
