/**
 * Queries against a container: the request (text, parameters, scope, paging) and the page. The
 * container runs the {@code cosmolab-query} language over the documents of the partitions in scope
 * and charges each of them.
 */
package io.cosmolab.engine.query;
