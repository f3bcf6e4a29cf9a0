package io.cosmolab.engine.script;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * Runs server-side JavaScript for the engine: stored procedures, triggers and user-defined
 * functions. The engine has none of its own (it stays small and starts fast); the {@code
 * cosmolab-scripts} module provides one on GraalJS, given to {@link
 * io.cosmolab.engine.CosmosEngine.Builder#scriptRuntime}.
 *
 * <p>The engine owns the transaction: it calls a runtime with the partition's write lock held and
 * commits what the script wrote only if the call returns; any exception rolls everything back.
 * Implementations must be thread-safe (executions of different partitions run side by side) and
 * must stop a script at {@link ScriptLimits#timeout()}.
 */
public interface ScriptRuntime {
  /**
   * Runs a stored procedure with its parameters (the JSON array the client sent) against {@code
   * host}; what it passed to {@code getResponse().setBody} is left in the host.
   *
   * @throws io.cosmolab.engine.error.CosmosException {@code SCRIPT_ERROR} (400, the script's
   *     message and number as sub-status) when it throws, {@code SCRIPT_TIMEOUT} (408) past its
   *     time, or the error of a collection operation it did not handle
   */
  void runStoredProcedure(ScriptSource procedure, JsonNode parameters, ScriptHost host);

  /** Runs a pre- or post-trigger against {@code host}; a throw rejects the operation. */
  void runTrigger(ScriptSource trigger, ScriptHost host);

  /**
   * Opens the scope of one query page's user-defined-function calls. Calls in one scope may share
   * the language's globals (each function evaluated once per scope); no two scopes share any, so
   * one query's functions can neither see nor change what another's left, in this container or in
   * any other. A scope is confined to the thread that opened it and is closed when its page is
   * done.
   */
  FunctionScope openFunctions();

  /** The user-defined-function calls of one query page (see {@link #openFunctions}). */
  @FunctionalInterface
  interface FunctionScope extends AutoCloseable {
    /**
     * Calls a user-defined function (it sees no context, only its arguments, each null when
     * undefined); returns null for undefined.
     */
    JsonNode call(ScriptSource function, List<JsonNode> arguments);

    /** Releases what the scope holds; calls after it are not allowed. */
    @Override
    default void close() {}
  }

  /** A short name for logs and errors, e.g. {@code "GraalJS 25.0.5"}. */
  String description();
}
