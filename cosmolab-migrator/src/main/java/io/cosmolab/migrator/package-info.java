/**
 * The partition-key migrator: {@link io.cosmolab.migrator.Migrator} plans, copies, catches up on
 * the change feed, verifies and cuts over, through the official Java SDK, against cosmolab or a
 * real account. Everything else lives in {@code io.cosmolab.migrator.internal}.
 */
package io.cosmolab.migrator;
