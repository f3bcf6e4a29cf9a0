/**
 * Partition observability: per physical partition per second RU, normalized consumption, real and
 * would-be 429s; hot logical partitions by RU from a heavy-hitters sketch; split and merge events.
 * Fed by the container on every operation; read by the CLI, the rehearsal and the gateway.
 */
package io.cosmolab.engine.metrics;
