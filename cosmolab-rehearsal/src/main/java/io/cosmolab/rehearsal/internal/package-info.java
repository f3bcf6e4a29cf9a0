/**
 * How a rehearsal runs, not its API: the driver that advances the virtual clock and sends the
 * requests, the model of the SDK's retry policy, the documents and their registry, the timeline
 * recorder, and the HTML, JSON and terminal renderings of a report.
 *
 * <p>Related packages: {@code io.cosmolab.rehearsal} (the API these serve).
 */
package io.cosmolab.rehearsal.internal;
