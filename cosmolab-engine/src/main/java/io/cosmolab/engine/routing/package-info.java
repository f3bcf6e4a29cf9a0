/**
 * Physical partitions as EPK ranges: the immutable {@link io.cosmolab.engine.routing.RoutingMap}
 * that tiles the key space, and {@link io.cosmolab.engine.routing.SplitPoints}, where a partition
 * splits. Reads hashes from {@code partitioning}; the container swaps maps on splits and merges.
 */
package io.cosmolab.engine.routing;
