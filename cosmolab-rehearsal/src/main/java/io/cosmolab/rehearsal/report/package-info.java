/**
 * A rehearsal's report as people and tools read it: a self-contained HTML page with the heat maps
 * ({@link io.cosmolab.rehearsal.report.HtmlReport}), JSON of the schema {@code
 * cosmolab.rehearse/v1} ({@link io.cosmolab.rehearsal.report.JsonReport}) and a terminal summary
 * ({@link io.cosmolab.rehearsal.report.TerminalSummary}).
 *
 * <p>Related packages: {@code io.cosmolab.rehearsal} (the report records these render).
 */
package io.cosmolab.rehearsal.report;
