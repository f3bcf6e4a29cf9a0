/**
 * Transactional batches: up to 100 operations in one logical partition, all or nothing, with a
 * result per operation as the service reports them. Executed by the container in one commit.
 */
package io.cosmolab.engine.batch;
