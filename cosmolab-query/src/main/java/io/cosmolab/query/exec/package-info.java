/**
 * Running a query: {@link io.cosmolab.query.exec.Values} (the value model and its orderings), the
 * validator and the {@link io.cosmolab.query.exec.Executor}. After {@code parse} and {@code ast};
 * calls {@code functions}.
 */
package io.cosmolab.query.exec;
