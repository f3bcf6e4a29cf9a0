package io.cosmolab.scripts;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.script.ScriptHost;
import io.cosmolab.engine.script.ScriptKind;
import io.cosmolab.engine.script.ScriptLimits;
import io.cosmolab.engine.script.ScriptRuntime;
import io.cosmolab.engine.script.ScriptSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.EnvironmentAccess;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.io.IOAccess;

/**
 * The engine's script runtime on GraalJS: stored procedures, triggers and user-defined functions,
 * sandboxed (no host access, no I/O, no threads, no processes, no environment), stopped past their
 * time and allocation bounds. Found by the engine through {@link java.util.ServiceLoader}, or given
 * to {@code CosmosEngine.builder().scriptRuntime(new GraalJsRuntime())}.
 */
/*
 * How and why.
 *
 * One polyglot Engine is shared by every context: it holds the parsed (and, on a Graal JIT,
 * compiled) code of each Source, so each script version is parsed once however often it runs.
 * Sources are cached by (kind, id, version = _etag); a replaced script gets a new etag and so a new
 * Source, and the old one is simply no longer used.
 *
 * Stored procedures and triggers get a new Context per execution: the service gives each execution
 * fresh globals, and a context on a warm shared engine costs well under a millisecond
 * (docs/benchmarks.md). UDFs run once per row, so each query page's calls share one context
 * ({@link #openFunctions}), made at its first call and closed with the page, in which each function
 * version is evaluated once: no two pages share globals, so a query's UDFs can neither read what
 * another query's (of this container or any other) left in them nor change what they see. A UDF
 * sees no getContext(), only its arguments, as on the service.
 *
 * The API scripts call (server-api.js) is plain JavaScript over one host function; all data crosses
 * as JSON text, so the contexts can deny host access completely.
 */
public final class GraalJsRuntime implements ScriptRuntime {
  /** The first function a body declares, for bodies that are not a single function expression. */
  private static final Pattern FIRST_FUNCTION =
      Pattern.compile("function\\s+([A-Za-z_$][A-Za-z0-9_$]*)\\s*\\(");

  private static final String UDF_CALL =
      "(function (f, a) { var r = f.apply(null, JSON.parse(a));"
          + " return r === undefined ? undefined : JSON.stringify(r); })";

  private final Engine engine;
  private final Source api;
  private final Source udfCall;
  private final ScriptLimits udfLimits;
  private final Map<String, Source> sources = new ConcurrentHashMap<>();
  private final Watchdog watchdog;

  /** A runtime whose UDF calls are bounded by {@link ScriptLimits#DEFAULT}. */
  public GraalJsRuntime() {
    this(ScriptLimits.DEFAULT);
  }

  /**
   * A runtime whose UDF calls are bounded by {@code udfLimits}' time and memory, and whose
   * executions running at once by {@link #defaultSharedAllocation()}.
   */
  public GraalJsRuntime(ScriptLimits udfLimits) {
    this(udfLimits, defaultSharedAllocation());
  }

  /**
   * A runtime whose UDF calls are bounded by {@code udfLimits}' time and memory, and whose
   * executions (stored procedures, triggers and UDF calls) running at once may allocate {@code
   * sharedAllocationBytes} together, each under its own bound: past it, the one that allocated most
   * is stopped (a 400 naming the shared bound). 0 for no shared bound.
   */
  public GraalJsRuntime(ScriptLimits udfLimits, long sharedAllocationBytes) {
    if (sharedAllocationBytes < 0) {
      throw new IllegalArgumentException(
          "the shared allocation bound must be >= 0 bytes, was " + sharedAllocationBytes);
    }
    this.watchdog = new Watchdog(sharedAllocationBytes);
    this.udfLimits = udfLimits;
    this.engine =
        Engine.newBuilder("js")
            .option("engine.WarnInterpreterOnly", "false")
            .out(OutputStream.nullOutputStream())
            .err(OutputStream.nullOutputStream())
            .build();
    this.api = Source.newBuilder("js", resource("server-api.js"), "server-api.js").buildLiteral();
    this.udfCall = Source.newBuilder("js", UDF_CALL, "udf-call.js").buildLiteral();
    // the first context loads and initializes most of GraalJS (seconds on a busy machine): done
    // here, once, so that it does not count against the first script's time limit
    try (Context warm = newContext()) {
      warm.eval(api);
    }
  }

  /**
   * The default shared bound: half the heap, and at least one execution's default bound ({@link
   * ScriptLimits#DEFAULT}, 512 MB), so that one script alone meets its own bound first. Scripts
   * that keep what they allocate then stop short of filling the heap together. The bound counts
   * what they allocate, garbage included, as each one's own bound does.
   */
  public static long defaultSharedAllocation() {
    return Math.max(ScriptLimits.DEFAULT.memoryBytes(), Runtime.getRuntime().maxMemory() / 2);
  }

  @Override
  public String description() {
    return "GraalJS " + engine.getVersion();
  }

  @Override
  public void runStoredProcedure(ScriptSource procedure, JsonNode parameters, ScriptHost host) {
    execute(procedure, HostBridge.text(parameters), host);
  }

  @Override
  public void runTrigger(ScriptSource trigger, ScriptHost host) {
    execute(trigger, "[]", host);
  }

  private void execute(ScriptSource script, String argumentsJson, ScriptHost host) {
    ScriptLimits limits = host.limits();
    try (Context context = newContext()) {
      Watchdog.Watch watch =
          watchdog.watch(context, limits.timeout().toNanos(), limits.memoryBytes());
      try {
        Value run = context.eval(api).execute(new HostBridge(host));
        Value main = context.eval(source(script));
        run.execute(main, argumentsJson);
      } catch (PolyglotException e) {
        // mapped here: the error's guest object is readable only while the context is open
        throw error(script, e, watch.stopped(), limits);
      } finally {
        watch.close();
      }
    } catch (PolyglotException e) {
      throw error(script, e, Watchdog.Stop.TIMEOUT, limits); // cancelled while closing
    }
  }

  @Override
  public FunctionScope openFunctions() {
    return new UdfScope();
  }

  private static JsonNode jsonArray(List<JsonNode> values) {
    var a = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
    for (JsonNode v : values) {
      a.add(v); // undefined arrives as JSON null
    }
    return a;
  }

  /**
   * One query page's UDF calls: a context of their own, made at the first call and closed with the
   * scope, in which each function version is evaluated once. Each call is watched for time and for
   * what it allocates ({@code udfLimits}); a stopped or broken context is dropped, and a later call
   * of the scope gets a new one. So is a context whose calls together allocated more than one call
   * may: what a function keeps in its globals from call to call (UDFs are stateless on the service)
   * is then let go, so a page of calls cannot pile up more than that bound (each call under it)
   * until the heap is full.
   */
  private final class UdfScope implements FunctionScope {
    private Context context;
    private Value call;
    private final Map<String, Value> functions = new HashMap<>();
    private long allocatedByCalls; // by the calls into this context, since it was made

    @Override
    public JsonNode call(ScriptSource function, List<JsonNode> arguments) {
      if (context == null) {
        context = newContext();
        call = context.eval(udfCall);
      }
      Watchdog.Watch watch =
          watchdog.watch(context, udfLimits.timeout().toNanos(), udfLimits.memoryBytes());
      try {
        String key = function.version() + '\u0000' + function.id();
        Value f = functions.get(key);
        if (f == null) {
          f = context.eval(source(function));
          functions.put(key, f);
        }
        Value r = call.execute(f, HostBridge.text(jsonArray(arguments)));
        return r.isNull() ? null : HostBridge.parse(r.asString());
      } catch (PolyglotException e) {
        if (e.isCancelled() || e.isExit() || e.isInternalError()) {
          drop(); // closed or unusable
        }
        throw error(function, e, watch.stopped(), udfLimits);
      } finally {
        watch.close();
        allocatedByCalls += watch.allocatedSinceStart();
        if (allocatedByCalls > udfLimits.memoryBytes()) {
          drop(); // the next call starts afresh, without what earlier calls kept
        }
      }
    }

    @Override
    public void close() {
      drop();
    }

    private void drop() {
      if (context != null) {
        try {
          context.close(true);
        } catch (PolyglotException | IllegalStateException alreadyClosed) {
          // cancelled by the watchdog, or closing
        }
        context = null;
        call = null;
        functions.clear();
        allocatedByCalls = 0;
      }
    }
  }

  private Context newContext() {
    return Context.newBuilder("js")
        .engine(engine)
        .allowHostAccess(HostAccess.NONE)
        .allowHostClassLookup(name -> false)
        .allowIO(IOAccess.NONE)
        .allowCreateThread(false)
        .allowCreateProcess(false)
        .allowNativeAccess(false)
        .allowEnvironmentAccess(EnvironmentAccess.NONE)
        .option("js.load", "false")
        .option("js.print", "false")
        .out(OutputStream.nullOutputStream())
        .err(OutputStream.nullOutputStream())
        .build();
  }

  /** The script's code as a function-valued Source, parsed once per version. */
  private Source source(ScriptSource script) {
    String key = script.kind() + "\u0000" + script.id() + "\u0000" + script.version();
    return sources.computeIfAbsent(key, k -> compile(script));
  }

  private static Source compile(ScriptSource script) {
    String name = script.kind().segment() + "/" + script.id() + ".js";
    String body = script.body();
    String code;
    if (isSingleFunction(body)) {
      code = "(" + body + "\n)";
    } else {
      // several declarations, or a statement list: the first declared function is the script
      Matcher m = FIRST_FUNCTION.matcher(body);
      if (!m.find()) {
        throw CosmosError.SCRIPT_ERROR.exception(
            "Encountered exception while compiling Javascript. Exception = %s '%s' declares no"
                + " function: its body must be a function, e.g. function (a) { ... }",
            kindName(script.kind()), script.id());
      }
      code = "(function () {\n" + body + "\n;return " + m.group(1) + ";})()";
    }
    return Source.newBuilder("js", code, name).cached(true).buildLiteral();
  }

  /** True if the body parses as one function expression (the common form). */
  private static boolean isSingleFunction(String body) {
    String b = body.strip();
    if (!(b.startsWith("function") || b.startsWith("async") || b.startsWith("("))) {
      return false;
    }
    // a second top-level "function" after the first closing brace means several declarations
    int depth = 0;
    boolean closedOnce = false;
    for (int i = 0; i < b.length(); i++) {
      char c = b.charAt(i);
      if (c == '{') {
        depth++;
      } else if (c == '}') {
        depth--;
        if (depth == 0) {
          closedOnce = true;
        }
      } else if (closedOnce && depth == 0 && b.startsWith("function", i)) {
        return false;
      }
    }
    return true;
  }

  /** The service's answer to a script that failed. */
  private CosmosException error(
      ScriptSource script, PolyglotException e, Watchdog.Stop stopped, ScriptLimits limits) {
    if (e.isCancelled() || (stopped != null && !e.isGuestException())) {
      if (stopped == Watchdog.Stop.MEMORY) {
        return CosmosError.SCRIPT_ERROR.exception(
            "%s '%s' allocated more than its bound of %d MB and was stopped; nothing it wrote was"
                + " kept",
            kindName(script.kind()), script.id(), limits.memoryBytes() >> 20);
      }
      if (stopped == Watchdog.Stop.SHARED_MEMORY) {
        return CosmosError.SCRIPT_ERROR.exception(
            "%s '%s' was stopped: the scripts running at once allocated more than the %d MB they"
                + " share, and it had allocated the most; nothing it wrote was kept",
            kindName(script.kind()), script.id(), watchdog.sharedAllocationLimit() >> 20);
      }
      return CosmosError.SCRIPT_TIMEOUT.exception(
          "%s '%s' ran past its time limit of %d ms and was stopped; nothing it wrote was kept."
              + " Do less per call and return how far it got (the continuation pattern)",
          kindName(script.kind()), script.id(), limits.timeout().toMillis());
    }
    if (e.isHostException() && e.asHostException() instanceof CosmosException c) {
      return c;
    }
    if (e.isSyntaxError()) {
      return CosmosError.SCRIPT_ERROR.exception(
          "Encountered exception while compiling Javascript. Exception = %s (%s '%s')",
          e.getMessage(), kindName(script.kind()), script.id());
    }
    if (e.isResourceExhausted()) {
      return CosmosError.SCRIPT_ERROR.exception(
          "Encountered exception while executing function. Exception = %s (%s '%s' ran out of a"
              + " resource, e.g. its stack)",
          e.getMessage(), kindName(script.kind()), script.id());
    }
    int number = 0;
    if (e.isGuestException()) {
      Value g = e.getGuestObject();
      if (g != null && g.hasMembers() && g.hasMember("number")) {
        Value n = g.getMember("number");
        if (n.isNumber() && n.fitsInInt()) {
          number = n.asInt();
        }
      }
    }
    String message = e.getMessage() == null ? "Error" : e.getMessage();
    return new CosmosException(
        CosmosError.SCRIPT_ERROR,
        "Encountered exception while executing function. Exception = " + message,
        number);
  }

  private static String kindName(ScriptKind kind) {
    return switch (kind) {
      case STORED_PROCEDURE -> "stored procedure";
      case TRIGGER -> "trigger";
      case USER_DEFINED_FUNCTION -> "user-defined function";
    };
  }

  private static String resource(String name) {
    try (InputStream in = GraalJsRuntime.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name + " of cosmolab-scripts");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public String toString() {
    return description().toLowerCase(Locale.ROOT);
  }
}
