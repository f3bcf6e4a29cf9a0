/**
 * Query plans for clients that merge per-partition results (the SDKs): the gateway's {@code
 * queryInfo} with rewritten per-partition queries ({@link io.cosmolab.query.plan.QueryPlanner}),
 * and {@link io.cosmolab.query.plan.SqlWriter}, which writes the AST back as text. Reads the {@code
 * ast}; the engine adds the query ranges.
 */
package io.cosmolab.query.plan;
