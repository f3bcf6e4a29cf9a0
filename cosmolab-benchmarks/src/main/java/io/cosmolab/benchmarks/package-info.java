/** JMH benchmarks of the engine; run by scripts/bench, figures in docs/benchmarks.md. */
package io.cosmolab.benchmarks;
