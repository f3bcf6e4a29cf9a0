package io.cosmolab.engine;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.engine.script.ScriptHost;
import io.cosmolab.engine.script.ScriptRuntime;
import io.cosmolab.engine.script.ScriptSource;

/**
 * A script runtime for tests whose every stored procedure runs {@code body}, written in Java: a
 * test fixes what a procedure does, and when, without a JavaScript engine. Triggers and functions
 * are refused.
 */
final class JavaProcedure implements ScriptRuntime {
  /** What every stored procedure does with its parameters. */
  interface Body {
    void run(JsonNode parameters, ScriptHost host);
  }

  private final Body body;

  JavaProcedure(Body body) {
    this.body = body;
  }

  @Override
  public void runStoredProcedure(ScriptSource procedure, JsonNode parameters, ScriptHost host) {
    body.run(parameters, host);
  }

  @Override
  public void runTrigger(ScriptSource trigger, ScriptHost host) {
    throw new UnsupportedOperationException("a Java procedure runtime runs no triggers");
  }

  @Override
  public FunctionScope openFunctions() {
    throw new UnsupportedOperationException("a Java procedure runtime runs no functions");
  }

  @Override
  public String description() {
    return "java procedure";
  }
}
