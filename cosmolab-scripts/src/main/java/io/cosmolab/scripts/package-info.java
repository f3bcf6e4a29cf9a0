/**
 * Server-side JavaScript on GraalJS: {@link io.cosmolab.scripts.GraalJsRuntime} implements the
 * engine's {@link io.cosmolab.engine.script.ScriptRuntime}; {@code server-api.js} is the API
 * scripts call ({@code getContext()}, {@code __}); {@code HostBridge} carries its calls to the
 * engine's {@link io.cosmolab.engine.script.ScriptHost}; {@code Watchdog} stops scripts past their
 * bounds.
 *
 * <p>Neighbours: {@code io.cosmolab.engine.script} (the SPI), {@code io.cosmolab.engine} (which
 * owns the transaction a script runs in).
 */
package io.cosmolab.scripts;
