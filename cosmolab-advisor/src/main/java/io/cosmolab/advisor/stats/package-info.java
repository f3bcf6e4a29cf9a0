/**
 * Bounded-memory statistics of one candidate over a stream of documents: distinct values (HLL),
 * heavy keys by documents and by bytes (frequent-items sketches), and storage per EPK bucket, from
 * which any physical partition layout's load follows.
 */
package io.cosmolab.advisor.stats;
