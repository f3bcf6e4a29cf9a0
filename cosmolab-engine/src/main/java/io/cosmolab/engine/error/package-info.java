/**
 * The one error family: {@link io.cosmolab.engine.error.CosmosError} classifies a failure by the
 * service's status and sub-status, {@link io.cosmolab.engine.error.CosmosException} carries it.
 * Every other package throws these; the gateway maps them to the wire in one place.
 */
package io.cosmolab.engine.error;
