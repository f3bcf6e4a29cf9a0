/**
 * The change feed API: requests over any EPK range, in latest-version or all-versions-and-deletes
 * mode, from the beginning, now, a point in time or a continuation. Continuations are positions in
 * the container's change log, so they survive splits; the items show their physical partition's own
 * LSNs. Read by the container from the {@code store}'s change log.
 */
package io.cosmolab.engine.changefeed;
