/**
 * The first stop of a query: the ANTLR 4 grammar ({@code CosmosSql.g4}) and {@link
 * io.cosmolab.query.parse.QueryParser}, which builds the {@code ast} and reports syntax errors with
 * their positions.
 */
package io.cosmolab.query.parse;
