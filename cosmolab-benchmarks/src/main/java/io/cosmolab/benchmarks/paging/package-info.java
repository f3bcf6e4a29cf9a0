/**
 * A load driver for query paging: the request units and time to page through a container, run by
 * hand (figures in docs/benchmarks.md, "Query paging"). Beside {@code io.cosmolab.benchmarks}'s JMH
 * benchmarks; uses only the engine's public API, so the same source runs against an older build.
 */
package io.cosmolab.benchmarks.paging;
