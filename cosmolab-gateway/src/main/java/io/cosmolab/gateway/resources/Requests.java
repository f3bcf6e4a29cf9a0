package io.cosmolab.gateway.resources;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.ItemOptions;
import io.cosmolab.engine.document.JsonTrees;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.limits.Limits;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.gateway.wire.Headers;
import io.cosmolab.gateway.wire.WireRequest;
import java.util.Locale;
import java.util.Map;

/** Reading the protocol's request parts: bodies, keys, ranges, conditions, page sizes. */
final class Requests {
  private Requests() {}

  /** The body as JSON; 400 naming the parse error when it is not. */
  static JsonNode json(WireRequest request) {
    if (request.body().length == 0) {
      throw CosmosError.BAD_REQUEST.exception(
          "The request payload is invalid: %s %s needs a JSON body",
          request.method(), request.path());
    }
    try {
      return JsonTrees.readStrict(request.body());
    } catch (JsonProcessingException e) {
      throw CosmosError.BAD_REQUEST.exception(
          "The request payload is invalid: %s", JsonTrees.describe(e));
    }
  }

  /** The body as a JSON object; 400 when it is another JSON type. */
  static ObjectNode object(WireRequest request) {
    JsonNode node = json(request);
    if (!node.isObject()) {
      throw CosmosError.BAD_REQUEST.exception(
          "The request payload is invalid: expected a JSON object, got %s",
          node.getNodeType().name().toLowerCase(Locale.ROOT));
    }
    return (ObjectNode) node;
  }

  /** The partition key header as a value, or null when it is absent. */
  static PartitionKeyValue partitionKey(WireRequest request) {
    String header = request.header(Headers.PARTITION_KEY);
    return header == null ? null : partitionKeyText(header);
  }

  /** A partition key in its JSON text form ({@code ["a", 5]}), as the header and bulk send it. */
  static PartitionKeyValue partitionKeyText(String text) {
    JsonNode node;
    try {
      node = JsonTrees.readStrict(text);
    } catch (JsonProcessingException e) {
      throw CosmosError.PARTITION_KEY_MISMATCH.exception(
          "the partition key %s is not JSON: %s", text, JsonTrees.describe(e));
    }
    if (node == null || !node.isArray()) {
      throw CosmosError.PARTITION_KEY_MISMATCH.exception(
          "the partition key must be a JSON array, one element per path, was %s", text);
    }
    return PartitionKeyValue.fromJson(node);
  }

  /** The partition key a point operation needs; 400/1001 when it is missing. */
  static PartitionKeyValue requiredPartitionKey(WireRequest request) {
    PartitionKeyValue key = partitionKey(request);
    if (key == null) {
      throw CosmosError.PARTITION_KEY_MISMATCH.exception(
          "PartitionKey value must be supplied for this operation: send the"
              + " x-ms-documentdb-partitionkey header");
    }
    return key;
  }

  /** The physical partition id of {@code x-ms-documentdb-partitionkeyrangeid}, or null. */
  static String rangeId(WireRequest request) {
    String header = request.header(Headers.PARTITION_KEY_RANGE_ID);
    if (header == null || header.isBlank()) {
      return null;
    }
    int comma = header.indexOf(',');
    return (comma >= 0 ? header.substring(comma + 1) : header).strip();
  }

  /** The start/end EPK filter, or null when absent. */
  static EpkRange epkRange(WireRequest request) {
    String start = request.header(Headers.START_EPK);
    String end = request.header(Headers.END_EPK);
    if (start == null && end == null) {
      return null;
    }
    return new EpkRange(
        start == null ? EpkRange.MIN : start.strip(), end == null ? EpkRange.MAX : end.strip());
  }

  /** {@code x-ms-max-item-count}: -1 (server's choice) when absent. */
  static int maxItemCount(WireRequest request) {
    String v = request.header(Headers.MAX_ITEM_COUNT);
    if (v == null || v.isBlank()) {
      return -1;
    }
    try {
      return Integer.parseInt(v.strip());
    } catch (NumberFormatException e) {
      throw CosmosError.BAD_REQUEST.exception(
          "x-ms-max-item-count must be an integer, was '%s'", v);
    }
  }

  /** The account's default consistency, which {@code AccountResource} announces. */
  static final String ACCOUNT_CONSISTENCY = "Session";

  /**
   * Refuses a request on documents that asks for a consistency stronger than the account's (Strong
   * or Bounded Staleness over Session), as the service does: "The override must be the same or
   * weaker than the account's configured consistency level" [D: REST "Query Documents", "HTTP
   * status codes": 400], with the service's message [S: quoted in
   * OrleansContrib/Orleans.CosmosDB#15]. Code that asks for Strong per request then fails here as
   * it does against a Session account.
   */
  static void checkConsistency(WireRequest request) {
    String level = request.header(Headers.CONSISTENCY_LEVEL);
    if (level == null) {
      return;
    }
    String asked = level.strip();
    if (asked.equalsIgnoreCase("Strong") || asked.equalsIgnoreCase("BoundedStaleness")) {
      throw CosmosError.BAD_REQUEST.exception(
          "ConsistencyLevel %s specified in the request is invalid when service is configured"
              + " with consistency level %s. Ensure the request consistency level is not stronger"
              + " than the service consistency level.",
          asked, ACCOUNT_CONSISTENCY);
    }
  }

  static ItemOptions itemOptions(WireRequest request) {
    ItemOptions options =
        new ItemOptions(
            request.header(Headers.IF_MATCH), request.header(Headers.IF_NONE_MATCH), false);
    options =
        options.withTriggers(
            names(request.header(Headers.PRE_TRIGGER_INCLUDE)),
            names(request.header(Headers.POST_TRIGGER_INCLUDE)));
    if (options.hasTriggers()) {
      options = options.withRequestHeaders(scriptHeaders(request));
    }
    return excludedFromIndex(request) ? options.excludedFromIndexing() : options;
  }

  /**
   * The headers a script reads with {@code getRequest().getValue(name)}: the request's, but the
   * signature ({@code authorization}), which a script has no business holding.
   */
  static java.util.Map<String, String> scriptHeaders(WireRequest request) {
    java.util.Map<String, String> out = new java.util.HashMap<>(request.headers());
    out.remove("authorization");
    return out;
  }

  /** A trigger-include header: names separated by commas (absent: none). */
  static java.util.List<String> names(String header) {
    if (header == null || header.isBlank()) {
      return java.util.List.of();
    }
    java.util.List<String> out = new java.util.ArrayList<>();
    for (String n : header.split(",", -1)) {
      if (!n.isBlank()) {
        out.add(n.strip());
      }
    }
    return out;
  }

  /** {@code x-ms-indexing-directive}: Include, Exclude or Default (absent: Default). */
  static boolean excludedFromIndex(WireRequest request) {
    String v = request.header(Headers.INDEXING_DIRECTIVE);
    if (v == null || v.isBlank()) {
      return false;
    }
    String d = v.strip();
    if (d.equalsIgnoreCase("Exclude")) {
      return true;
    }
    if (d.equalsIgnoreCase("Include") || d.equalsIgnoreCase("Default")) {
      return false;
    }
    throw CosmosError.BAD_REQUEST.exception(
        "x-ms-indexing-directive must be Include, Exclude or Default, was '%s'", v);
  }

  /** True when the client asked for writes to answer without a body. */
  static boolean minimalResponse(WireRequest request) {
    String prefer = request.header(Headers.PREFER);
    return prefer != null && prefer.toLowerCase(Locale.ROOT).contains("return=minimal");
  }

  /**
   * Throughput from the offer headers of a database or container create: {@code
   * x-ms-offer-throughput} (manual) or {@code x-ms-cosmos-offer-autopilot-settings} (autoscale);
   * null when neither is sent.
   */
  static Throughput throughput(WireRequest request, Limits limits) {
    return inIncrements(throughput(request), limits);
  }

  /**
   * {@code t}, if it is in the service's increments: manual throughput in steps of 100 RU/s,
   * autoscale maxima in steps of 1,000 (divided by the scale factor, as the minima are); else 400
   * with the service's message. [S: the service's answers, quoted in public issues] The engine's
   * own API takes any value, for the lab's models; what a client asks over the wire is held to the
   * service's rule, so infrastructure code that asks for 450 RU/s fails here as it will in Azure.
   */
  static Throughput inIncrements(Throughput t, Limits limits) {
    if (t == null) {
      return null;
    }
    boolean auto = t instanceof Throughput.Autoscale;
    double step = (auto ? 1000 : 100) / limits.scaleFactor();
    double steps = t.maxRuPerSecond() / step;
    if (Math.abs(steps - Math.rint(steps)) > 1e-6) {
      throw CosmosError.BAD_REQUEST.exception(
          "The offer should have valid throughput values between %s and %s inclusive in"
              + " increments of %s.",
          Throughput.format(auto ? limits.minAutoscaleMaxRu() : limits.minManualRu()),
          Throughput.format(limits.maxRu()),
          Throughput.format(step));
    }
    return t;
  }

  private static Throughput throughput(WireRequest request) {
    String manual = request.header(Headers.OFFER_THROUGHPUT);
    String auto = request.header(Headers.OFFER_AUTOPILOT);
    if (manual != null && auto != null) {
      throw CosmosError.BAD_REQUEST.exception(
          "send either x-ms-offer-throughput or x-ms-cosmos-offer-autopilot-settings, not both");
    }
    if (manual != null) {
      try {
        return new Throughput.Manual(Double.parseDouble(manual.strip()));
      } catch (NumberFormatException e) {
        throw CosmosError.BAD_REQUEST.exception(
            "x-ms-offer-throughput must be a number of RU/s, was '%s'", manual);
      }
    }
    if (auto != null) {
      JsonNode settings;
      try {
        settings = JsonTrees.read(auto);
      } catch (JsonProcessingException e) {
        settings = null;
      }
      if (settings == null || !settings.path("maxThroughput").isNumber()) {
        throw CosmosError.BAD_REQUEST.exception(
            "x-ms-cosmos-offer-autopilot-settings must be {\"maxThroughput\": <RU/s>}, was %s",
            auto);
      }
      refuseAutoUpgrade(settings);
      return new Throughput.Autoscale(settings.path("maxThroughput").asDouble());
    }
    return null;
  }

  /**
   * Refuses autoscale's auto-upgrade ({@code autoUpgradePolicy.throughputPolicy.incrementPercent}
   * above 0, the .NET SDK's {@code autoUpgradeMaxThroughputIncrementPercentage}): the service keeps
   * it and raises the maximum as storage grows, which cosmolab does not model, so it is refused
   * naming it rather than kept and ignored. An increment of 0 is no upgrade, and what the Java SDK
   * sends with every autoscale setting.
   */
  static void refuseAutoUpgrade(JsonNode autopilotSettings) {
    JsonNode upgrade = autopilotSettings.get("autoUpgradePolicy");
    JsonNode increment = upgrade == null ? null : upgrade.at("/throughputPolicy/incrementPercent");
    if (increment != null && increment.isNumber() && increment.doubleValue() > 0) {
      throw CosmosError.NOT_SUPPORTED.exception(
          "autoscale auto-upgrade (offerAutopilotSettings.autoUpgradePolicy %s) is not supported"
              + " by cosmolab yet; set the maximum RU/s without it",
          upgrade);
    }
  }

  /** The {@code {"query", "parameters"}} body of a query, or the raw text of application/sql. */
  static QueryText queryText(WireRequest request) {
    String type = request.header(Headers.CONTENT_TYPE);
    if (type != null && type.toLowerCase(Locale.ROOT).startsWith("application/sql")) {
      return new QueryText(request.bodyText(), Map.of());
    }
    ObjectNode body = object(request);
    JsonNode q = body.get("query");
    if (q == null || !q.isTextual()) {
      throw CosmosError.BAD_REQUEST.exception(
          "a query body needs a string 'query' member: {\"query\": \"SELECT ...\"}");
    }
    try {
      return new QueryText(
          q.textValue(), io.cosmolab.query.CompiledQuery.parameters(body.get("parameters")));
    } catch (io.cosmolab.query.QueryException e) {
      throw io.cosmolab.engine.query.QueryErrors.asCosmos(e);
    }
  }

  /** A query's text and parameter values. */
  record QueryText(String text, Map<String, JsonNode> parameters) {}
}
