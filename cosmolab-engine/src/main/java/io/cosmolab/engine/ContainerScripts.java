package io.cosmolab.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import java.util.List;
import java.util.Map;

/**
 * A container's server-side scripts at work: stored procedures, the triggers a write names, and the
 * user-defined functions a query calls, each on the engine's script runtime. Every execution runs
 * on one {@link WritePath.Transaction} (see {@link ScriptSession} for its partition scope and
 * charges). Stateless beyond its container; thread-safe.
 */
final class ContainerScripts {
  private final Container container;
  private final CosmosEngine engine;
  private final WritePath writes;

  ContainerScripts(Container container, CosmosEngine engine, WritePath writes) {
    this.container = container;
    this.engine = engine;
    this.writes = writes;
  }

  /** A write a trigger runs around: the operation on the (possibly changed) document. */
  interface TriggeredWrite {
    ItemResponse apply(WritePath.Transaction tx, Target target, ObjectNode document);
  }

  static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new java.util.ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  /**
   * Runs a write with its pre- and post-triggers in one transaction: the pre-triggers see (and may
   * replace) the incoming document, the write runs on what they leave, the post-triggers see the
   * written document; a throw in any of them rolls the whole back.
   */
  ItemResponse triggered(
      Target t, String operation, ObjectNode document, ItemOptions options, TriggeredWrite op) {
    List<io.cosmolab.engine.script.ScriptSource> pre =
        triggers(options.preTriggers(), "Pre", operation);
    List<io.cosmolab.engine.script.ScriptSource> post =
        triggers(options.postTriggers(), "Post", operation);
    io.cosmolab.engine.script.ScriptRuntime runtime =
        engine.scriptRuntime(
            "running trigger(s) " + concat(options.preTriggers(), options.postTriggers()));
    double[] writeCharge = new double[1];
    ScriptSession[] session = new ScriptSession[1];
    WritePath.ScriptedResult<ItemResponse> done =
        writes.scripted(
            t,
            new WritePath.Scripted<ItemResponse>() {
              @Override
              public ItemResponse run(WritePath.Transaction tx) {
                ScriptSession s =
                    new ScriptSession(
                        container,
                        tx,
                        t,
                        engine.scriptLimits(),
                        options.requestHeaders(),
                        operation,
                        document == null ? null : document.deepCopy(),
                        false);
                session[0] = s;
                for (io.cosmolab.engine.script.ScriptSource trigger : pre) {
                  runtime.runTrigger(trigger, s);
                }
                ObjectNode body = null;
                Target target = t;
                if (document != null) {
                  JsonNode changed = s.requestBody();
                  if (changed == null || !changed.isObject()) {
                    throw CosmosError.BAD_REQUEST.exception(
                        "a pre-trigger left the request body %s; it must stay a document", changed);
                  }
                  body = (ObjectNode) changed;
                  target = Target.of(container.partitionKey(), null, body);
                  if (!target.key().equals(t.key())) {
                    throw CosmosError.BAD_REQUEST.exception(ScriptSession.OTHER_PARTITION);
                  }
                }
                ItemResponse r = op.apply(tx, target, body);
                writeCharge[0] = r.requestCharge();
                s.setResponseBody(r.document());
                for (io.cosmolab.engine.script.ScriptSource trigger : post) {
                  runtime.runTrigger(trigger, s);
                }
                return r;
              }

              @Override
              public double charge() {
                ScriptSession s = session[0];
                return writeCharge[0]
                    + (s == null
                        ? 0
                        : s.operationsCharge() + engine.costs().scriptTime(s.elapsedNanos()));
              }
            });
    ItemResponse r = done.value();
    return new ItemResponse(
        r.status(),
        r.documentView(),
        done.charge(),
        r.etag(),
        done.lsn(),
        done.partitionKeyRangeId());
  }

  /** The named triggers, checked to be of the type and for the operation they are named for. */
  private List<io.cosmolab.engine.script.ScriptSource> triggers(
      List<String> ids, String type, String operation) {
    List<io.cosmolab.engine.script.ScriptSource> out = new java.util.ArrayList<>();
    for (String triggerId : ids) {
      ObjectNode trigger;
      try {
        trigger = container.scripts().read(io.cosmolab.engine.script.ScriptKind.TRIGGER, triggerId);
      } catch (CosmosException e) {
        // [A] the service's exact answer to an unknown trigger name is not documented
        throw CosmosError.BAD_REQUEST.exception(
            "trigger '%s' named in the request's %s-trigger-include header does not exist in"
                + " container '%s'",
            triggerId, type.toLowerCase(java.util.Locale.ROOT), container.id());
      }
      String declared = trigger.path("triggerType").asText();
      if (!declared.equalsIgnoreCase(type)) {
        throw CosmosError.BAD_REQUEST.exception(
            "trigger '%s' is a %s-trigger and cannot be named as a %s-trigger",
            triggerId, declared, type.toLowerCase(java.util.Locale.ROOT));
      }
      String on = trigger.path("triggerOperation").asText();
      boolean matches =
          on.equalsIgnoreCase("All")
              || on.equalsIgnoreCase(operation)
              || (operation.equals("Upsert")
                  && (on.equalsIgnoreCase("Create") || on.equalsIgnoreCase("Replace")))
              || (operation.equals("Replace") && on.equalsIgnoreCase("Update"));
      if (!matches) {
        throw CosmosError.BAD_REQUEST.exception(
            "trigger '%s' is declared for the %s operation and cannot run for a %s",
            triggerId, on, operation);
      }
      out.add(
          io.cosmolab.engine.script.ScriptSource.of(
              io.cosmolab.engine.script.ScriptKind.TRIGGER, trigger));
    }
    return out;
  }

  /**
   * Runs a stored procedure against one logical partition, atomically: its writes commit only if it
   * returns; a throw, an operation error it did not handle, or its time limit rolls all of them
   * back. Charged for its operations and its running time in the partition's budget.
   *
   * @param parameters the JSON array of arguments (null: none)
   * @param logging keep what it writes with {@code console.log} ({@code
   *     x-ms-documentdb-script-enable-logging})
   * @param requestHeaders the request's headers, for {@code getRequest().getValue(name)}
   * @throws CosmosException 404 for an unknown procedure, 400 ({@code SCRIPT_ERROR}) when it
   *     throws, 408 past its time, 429 when throttled, 501 when the engine has no script runtime
   */
  ScriptResponse executeStoredProcedure(
      PartitionKeyValue key,
      String procedureId,
      JsonNode parameters,
      boolean logging,
      Map<String, String> requestHeaders) {
    Target t = Target.of(container.partitionKey(), key);
    io.cosmolab.engine.script.ScriptSource source =
        io.cosmolab.engine.script.ScriptSource.of(
            io.cosmolab.engine.script.ScriptKind.STORED_PROCEDURE,
            container
                .scripts()
                .read(io.cosmolab.engine.script.ScriptKind.STORED_PROCEDURE, procedureId));
    io.cosmolab.engine.script.ScriptRuntime runtime =
        engine.scriptRuntime("executing stored procedure '" + procedureId + "'");
    JsonNode params =
        parameters == null || parameters.isNull()
            ? com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode()
            : parameters;
    ScriptSession[] session = new ScriptSession[1];
    WritePath.ScriptedResult<ScriptSession> done =
        writes.scripted(
            t,
            new WritePath.Scripted<ScriptSession>() {
              @Override
              public ScriptSession run(WritePath.Transaction tx) {
                ScriptSession s =
                    new ScriptSession(
                        container,
                        tx,
                        t,
                        engine.scriptLimits(),
                        requestHeaders,
                        null,
                        params,
                        logging);
                session[0] = s;
                runtime.runStoredProcedure(source, params, s);
                return s;
              }

              @Override
              public double charge() {
                ScriptSession s = session[0];
                return s == null
                    ? 0
                    : s.operationsCharge() + engine.costs().scriptTime(s.elapsedNanos());
              }
            });
    ScriptSession s = done.value();
    return new ScriptResponse(
        s.responseBody(), done.charge(), s.logText(), done.lsn(), done.partitionKeyRangeId());
  }

  /**
   * The container's user-defined functions for one query: each looked up once, run on the engine's
   * script runtime, counted in {@link UdfCalls#calls()}.
   */
  UdfCalls userFunctions() {
    return new UdfCalls();
  }

  /**
   * A query page's resolver of {@code udf.} calls, confined to the page's thread: its calls run in
   * one scope of the script runtime, opened at the first call and closed with the page.
   */
  final class UdfCalls implements io.cosmolab.query.exec.UserFunctions, AutoCloseable {
    private final Map<String, io.cosmolab.engine.script.ScriptSource> sources =
        new java.util.HashMap<>();
    private long calls;
    private io.cosmolab.engine.script.ScriptRuntime.FunctionScope scope;
    private boolean closed;

    @Override
    public void close() {
      closed = true;
      if (scope != null) {
        scope.close();
        scope = null;
      }
    }

    long calls() {
      return calls;
    }

    @Override
    public JsonNode call(String name, List<JsonNode> arguments) {
      if (closed) { // its page is done: a context opened now would be closed by nobody
        throw new IllegalStateException("udf." + name + " called after its query page ended");
      }
      io.cosmolab.engine.script.ScriptSource source = sources.get(name);
      if (source == null) {
        ObjectNode udf;
        try {
          udf =
              container
                  .scripts()
                  .read(io.cosmolab.engine.script.ScriptKind.USER_DEFINED_FUNCTION, name);
        } catch (CosmosException e) {
          throw new io.cosmolab.query.QueryException(
              "SC2005",
              "'udf."
                  + name
                  + "' is not a recognized user-defined function in container '"
                  + container.id()
                  + "'");
        }
        source =
            io.cosmolab.engine.script.ScriptSource.of(
                io.cosmolab.engine.script.ScriptKind.USER_DEFINED_FUNCTION, udf);
        sources.put(name, source);
      }
      calls++;
      if (scope == null) {
        scope = engine.scriptRuntime("calling udf." + name).openFunctions();
      }
      return scope.call(source, arguments);
    }
  }
}
