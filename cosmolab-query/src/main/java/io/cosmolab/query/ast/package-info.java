/**
 * The query's abstract syntax tree: immutable records under sealed interfaces ({@link
 * io.cosmolab.query.ast.Query}, {@link io.cosmolab.query.ast.Expr}). Built by {@code parse}, run by
 * {@code exec}.
 */
package io.cosmolab.query.ast;
