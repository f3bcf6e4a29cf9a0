/**
 * Server-side JavaScript: a stored procedure's 100 creates beside a transactional batch's ({@link
 * io.cosmolab.benchmarks.scripts.ScriptBench}), and the first script's cost in a new JVM ({@link
 * io.cosmolab.benchmarks.scripts.FirstScript}).
 */
package io.cosmolab.benchmarks.scripts;
