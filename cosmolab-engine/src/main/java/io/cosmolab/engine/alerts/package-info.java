/**
 * The alert rules that catch partition skew early, evaluated on the engine's own numbers and its
 * injected clock, so they fire alike live in {@code serve} and in virtual time in a rehearsal:
 * {@link io.cosmolab.engine.alerts.AlertRules} (the thresholds, defaults or a file), {@link
 * io.cosmolab.engine.alerts.AlertEvaluator} (call it at a time, read the active {@link
 * io.cosmolab.engine.alerts.Alert}s). Reads {@code metrics} (per-partition seconds, hot keys, query
 * statistics) and {@code limits} (the scale model); the gateway exposes the result.
 */
package io.cosmolab.engine.alerts;
