/**
 * Server-side scripts as resources: stored procedures, triggers and user-defined functions can be
 * created, read, listed, replaced and deleted, so applications and migration tools that manage them
 * work. cosmolab does not run JavaScript: executing a script is refused with a clear error (the
 * gateway says so), and queries that call a UDF fail at compile time.
 *
 * <p>Neighbours: {@link io.cosmolab.engine.Container} owns one {@link
 * io.cosmolab.engine.script.Scripts} registry; {@code resource} lays out their RIDs.
 */
package io.cosmolab.engine.script;
