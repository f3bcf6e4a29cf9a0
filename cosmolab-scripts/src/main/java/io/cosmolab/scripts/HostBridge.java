package io.cosmolab.scripts;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.script.ScriptHost;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.proxy.ProxyExecutable;

/**
 * The one function the JavaScript API ({@code server-api.js}) calls: {@code host(op, argsJson)}
 * returns JSON text. Data crosses as JSON text only, so no host object is ever visible to a script
 * (the context allows no host access). Confined to the executing thread.
 */
final class HostBridge implements ProxyExecutable {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final ScriptHost host;

  HostBridge(ScriptHost host) {
    this.host = host;
  }

  @Override
  public Object execute(Value... arguments) {
    String op = arguments[0].asString();
    String argument = arguments.length > 1 ? arguments[1].asString() : "null";
    if (op.equals("setresponseBody")) {
      // checked before it is parsed: the script may have built a body of any size
      long bytes = io.cosmolab.engine.document.Utf8.length(argument);
      if (bytes > host.maxResponseBodySize()) {
        return text(
            error(
                CosmosError.REQUEST_ENTITY_TOO_LARGE.exception(
                    "getResponse().setBody: the body is %d bytes of JSON, more than a response may"
                        + " carry (%d, getMaxResponseBodySize())",
                    bytes, host.maxResponseBodySize())));
      }
    }
    JsonNode in = parse(argument);
    return switch (op) {
      case "selfLink" -> host.selfLink();
      case "altLink" -> host.altLink();
      case "log" -> {
        host.log(in.asText());
        yield "null";
      }
      case "requestBody" -> text(host.requestBody());
      case "setrequestBody" -> {
        host.setRequestBody(in);
        yield "null";
      }
      case "responseBody" -> text(host.responseBody());
      case "setresponseBody" -> {
        host.setResponseBody(in);
        yield "null";
      }
      case "header" -> text(textOrNull(host.requestHeaders().get(in.asText())));
      case "setHeader" -> {
        try {
          host.setRequestHeader(in.path(0).asText(null), in.path(1).asText(null));
          yield "{}";
        } catch (CosmosException e) {
          yield text(error(e));
        }
      }
      case "operationType" -> text(textOrNull(host.operationType()));
      case "maxResponseBodySize" -> Long.toString(host.maxResponseBodySize());
      default -> operation(op, in.path("args"), in.path("options"));
    };
  }

  private static JsonNode textOrNull(String s) {
    return s == null ? NODES.nullNode() : NODES.textNode(s);
  }

  /** A collection operation: its result, or the error the script's callback receives. */
  private String operation(String op, JsonNode args, JsonNode options) {
    if (!host.isAccepted()) {
      return "{\"accepted\":false}";
    }
    boolean noAutoId = options.path("disableAutomaticIdGeneration").asBoolean(false);
    String ifMatch = ifMatch(options);
    ObjectNode out = NODES.objectNode();
    try {
      switch (op) {
        case "create" -> out.set("ok", host.create(args.get(0), noAutoId));
        case "upsert" -> out.set("ok", host.upsert(args.get(0), noAutoId, ifMatch));
        case "read" ->
            out.set("ok", host.read(args.path(0).asText(null), textOf(options, "ifNoneMatch")));
        case "replace" ->
            out.set("ok", host.replace(args.path(0).asText(null), args.get(1), ifMatch));
        case "delete" -> {
          host.delete(args.path(0).asText(null), ifMatch);
          out.putNull("ok");
        }
        case "patch" -> {
          JsonNode spec = args.get(1);
          JsonNode ops = spec != null && spec.isObject() ? spec.get("operations") : spec;
          String filter =
              spec != null && spec.isObject() && spec.hasNonNull("condition")
                  ? spec.get("condition").asText()
                  : textOf(options, "filterPredicate");
          out.set("ok", host.patch(args.path(0).asText(null), ops, filter, ifMatch));
        }
        case "query", "readAll" -> {
          int pageSize = options.path("pageSize").asInt(-1);
          String continuation = textOf(options, "continuation");
          ScriptHost.Page page =
              op.equals("query")
                  ? host.query(args.path(0).asText(null), args.get(1), pageSize, continuation)
                  : host.readAll(pageSize, continuation);
          out.set("ok", NODES.arrayNode().addAll(page.documents()));
          ObjectNode o = out.putObject("options");
          if (page.continuation() != null) {
            o.put("continuation", page.continuation());
          }
        }
        default -> throw new IllegalArgumentException("unknown host operation " + op);
      }
    } catch (CosmosException e) {
      return text(error(e));
    }
    return text(out);
  }

  /** {@code {"err": {number, body}}}: what the script API turns into a thrown or passed Error. */
  private static ObjectNode error(CosmosException e) {
    ObjectNode out = NODES.objectNode();
    ObjectNode err = out.putObject("err");
    err.put("number", e.status());
    err.put("body", e.getMessage());
    return out;
  }

  private static String ifMatch(JsonNode options) {
    String etag = textOf(options, "etag");
    if (etag != null) {
      return etag;
    }
    JsonNode ac = options.path("accessCondition");
    return ac.path("type").asText("").equalsIgnoreCase("IfMatch")
        ? ac.path("condition").asText(null)
        : null;
  }

  private static String textOf(JsonNode options, String name) {
    JsonNode v = options.get(name);
    return v == null || v.isNull() ? null : v.asText();
  }

  static JsonNode parse(String json) {
    try {
      return JSON.readTree(json);
    } catch (JsonProcessingException e) {
      // the text can be as large as the script made it (a 100 MB string): quote its start only
      String shown =
          json.length() <= 200
              ? json
              : json.substring(0, 200) + "... (" + json.length() + " characters in all)";
      throw new IllegalStateException("the script API sent text that is not JSON: " + shown, e);
    }
  }

  static String text(JsonNode node) {
    if (node == null) {
      return "null";
    }
    try {
      return JSON.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
