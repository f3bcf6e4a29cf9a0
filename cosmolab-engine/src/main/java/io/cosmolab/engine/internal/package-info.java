/**
 * Code that other cosmolab modules share but that is not part of the engine's API: build-time
 * annotations. Neighbours: every {@code io.cosmolab.*} module depends on the engine and may use it.
 */
package io.cosmolab.engine.internal;
