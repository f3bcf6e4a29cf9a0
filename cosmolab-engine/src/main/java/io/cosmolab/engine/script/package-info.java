/**
 * Server-side scripts: stored procedures, triggers and user-defined functions as resources ({@link
 * io.cosmolab.engine.script.Scripts}), and the SPI that runs them ({@link
 * io.cosmolab.engine.script.ScriptRuntime}, seeing the engine through {@link
 * io.cosmolab.engine.script.ScriptHost}). The engine has no JavaScript of its own: the {@code
 * cosmolab-scripts} module provides a runtime (found by {@link java.util.ServiceLoader} or given to
 * the engine's builder); without one, running a script answers 501 naming what to add.
 *
 * <p>Neighbours: {@link io.cosmolab.engine.Container} owns one {@link
 * io.cosmolab.engine.script.Scripts} registry and runs a script's transaction; {@code resource}
 * lays out their RIDs; {@code io.cosmolab.query.exec.UserFunctions} is how a query calls a UDF.
 */
package io.cosmolab.engine.script;
