/**
 * The Cosmos DB NoSQL query language: parse, plan and run a query over JSON documents.
 *
 * <p>The API is {@code io.cosmolab.query} (a parsed query, its evaluation), {@code .plan} (what an
 * engine needs to route and index-serve a query) and {@code .exec} (the value order and the
 * executor an engine drives) and {@code .ast} (the immutable syntax tree plans are made of). The
 * parser and the built-in functions are internal.
 */
module io.cosmolab.query {
  requires transitive com.fasterxml.jackson.databind;
  requires org.antlr.antlr4.runtime;
  requires re2j;
  requires org.apache.lucene.core;
  requires org.apache.lucene.analysis.common;
  requires static com.google.errorprone.annotations;

  exports io.cosmolab.query;
  exports io.cosmolab.query.exec;
  exports io.cosmolab.query.plan;
  exports io.cosmolab.query.ast;
}
