/**
 * Partition keys: their definitions ({@code Hash} V1/V2, hierarchical {@code MultiHash}), their
 * values, and the effective partition key (EPK) hash that places a value in the key space,
 * bit-exact with the SDKs. The first stop on a document's path; {@code routing} maps EPKs to
 * physical partitions.
 */
package io.cosmolab.engine.partitioning;
