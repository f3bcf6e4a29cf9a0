/**
 * Running a query: {@link io.cosmolab.query.exec.Values} (the value model and its orderings), the
 * validator, and the {@link io.cosmolab.query.exec.Executor}, which turns a query into a pipeline
 * of pull-based operators (one small class per clause: {@code Scan}, {@code Join}, {@code Filter},
 * {@code Aggregate}, {@code SortKeys}, {@code Sort}/{@code TopK}, {@code Project}, {@code
 * Distinct}, {@code Slice}) evaluating expressions through one compiler ({@code
 * ExpressionCompiler}) under one {@code Budget} of work and held rows. After {@code parse} and
 * {@code ast}; calls {@code functions}.
 */
package io.cosmolab.query.exec;
