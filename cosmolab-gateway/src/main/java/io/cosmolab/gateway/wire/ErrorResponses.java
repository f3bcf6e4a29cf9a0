package io.cosmolab.gateway.wire;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The one place where a failure becomes a response ({@code gateway-protocol.md} §9.4, §10): the
 * status, {@code x-ms-substatus} when it is not 0, {@code x-ms-retry-after-ms} on 429, the charge,
 * the session token and range id of the partition that refused it (a point operation's), and the
 * service's JSON body {@code {"code", "message"}}, whose message wraps the text as the service does
 * ({@code Message: {"Errors":["..."]}}). The JavaScript SDK parses every error body as JSON, so
 * there is always one; no stack trace ever reaches the wire.
 */
public final class ErrorResponses {
  private ErrorResponses() {}

  /** The response for an engine or protocol failure. */
  public static WireResponse of(CosmosException e, String activityId) {
    Map<String, String> headers = new LinkedHashMap<>();
    if (e.subStatus() != 0) {
      headers.put(Headers.SUB_STATUS, Integer.toString(e.subStatus()));
    }
    if (e.status() == 429) {
      headers.put(Headers.RETRY_AFTER_MS, Long.toString(Math.max(1, e.retryAfterMillis())));
    }
    headers.put(
        Headers.REQUEST_CHARGE, String.format(Locale.ROOT, "%.2f", Math.max(0, e.requestCharge())));
    if (e.sessionRange() != null) {
      // a point operation's refusal names its partition, as the service's does: the SDKs keep
      // the token of a 404 or 412 too (the .NET SDK's CosmosItemSessionTokenTests)
      headers.put(Headers.SESSION_TOKEN, SessionTokens.of(e.sessionRange(), e.sessionLsn()));
      headers.put(Headers.PARTITION_KEY_RANGE_ID, e.sessionRange());
    }
    ObjectNode body = body(e.error().code(), e.getMessage(), activityId);
    if (e.additionalErrorInfo() != null) {
      body.put("additionalErrorInfo", e.additionalErrorInfo());
    }
    return WireResponse.json(e.status(), body, headers);
  }

  /** The response for a failure of the error family's kind, with a message. */
  public static WireResponse of(CosmosError error, String message, String activityId) {
    return of(new CosmosException(error, message), activityId);
  }

  /** A 500 that tells the user where to look, without internals. */
  public static WireResponse internal(String activityId) {
    return WireResponse.json(
        500,
        body(
            "InternalServerError",
            "cosmolab failed while serving this request; the server log has the details under"
                + " activity id "
                + activityId,
            activityId),
        Map.of());
  }

  static ObjectNode body(String code, String text, String activityId) {
    ObjectNode errors = JsonNodeFactory.instance.objectNode();
    errors.putArray("Errors").add(text);
    ObjectNode body = JsonNodeFactory.instance.objectNode();
    body.put("code", code);
    // JsonTrees, not errors.toString(): a node's toString() starts Jackson's object mapper (some
    // 300 classes), which a server building its first error response at start would then load
    String errorsJson =
        new String(
            io.cosmolab.engine.document.JsonTrees.write(errors),
            java.nio.charset.StandardCharsets.UTF_8);
    body.put("message", "Message: " + errorsJson + "\r\nActivityId: " + activityId + ", cosmolab");
    return body;
  }
}
