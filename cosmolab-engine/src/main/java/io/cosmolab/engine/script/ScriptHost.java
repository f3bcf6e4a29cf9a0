package io.cosmolab.engine.script;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * What a running stored procedure or trigger sees of the engine: the request and response of {@code
 * getContext()}, and {@code getCollection()}'s operations on one logical partition, inside the
 * execution's transaction. The engine implements it; a {@link ScriptRuntime} calls it from the
 * thread it was handed the execution in.
 *
 * <p>Operations throw {@link io.cosmolab.engine.error.CosmosException} as the service fails them
 * (404, 409, 412, 400 for another logical partition); the runtime hands that to the script's
 * callback as its error, or fails the script if it gave none. Documents are named by a link ({@code
 * dbs/d/colls/c/docs/id}, a self link, or a bare id).
 */
public interface ScriptHost {
  /** A page of documents and the continuation after it (null at the end). */
  record Page(List<JsonNode> documents, String continuation) {}

  /** {@code getCollection().getSelfLink()}: {@code dbs/<rid>/colls/<rid>/}. */
  String selfLink();

  /** {@code getAltLink()}: {@code dbs/<db id>/colls/<container id>}. */
  String altLink();

  /** The request's body: the document for a pre-trigger, the parameters for a procedure. */
  JsonNode requestBody();

  /** A pre-trigger's replacement of the incoming document. */
  void setRequestBody(JsonNode body);

  /**
   * The request's headers as the client sent them (but its signature), names case-insensitive:
   * {@code getRequest().getValue(name)}.
   */
  Map<String, String> requestHeaders();

  /**
   * {@code getRequest().setValue(name, value)}: changes a header's value for what the execution
   * reads of it afterwards; the service's API cannot create a header, so an unknown name is a 400.
   */
  void setRequestHeader(String name, String value);

  /** {@code getRequest().getOperationType()}: Create, Replace, Upsert, Delete; null for a sproc. */
  String operationType();

  /** The response's body: what a procedure set, or the written document for a post-trigger. */
  JsonNode responseBody();

  void setResponseBody(JsonNode body);

  /** {@code getResponse().getMaxResponseBodySize()}, in bytes. */
  long maxResponseBodySize();

  /** False once the script is near its budget: it should stop and report how far it got. */
  boolean isAccepted();

  /** A line of {@code console.log}, kept when the request asked for script logging. */
  void log(String line);

  /** The execution's limits (the runtime enforces the time and memory). */
  ScriptLimits limits();

  JsonNode create(JsonNode document, boolean disableAutomaticIdGeneration);

  JsonNode upsert(JsonNode document, boolean disableAutomaticIdGeneration, String ifMatch);

  JsonNode read(String link, String ifNoneMatch);

  JsonNode replace(String link, JsonNode document, String ifMatch);

  void delete(String link, String ifMatch);

  /**
   * Applies patch operations ({@code [{"op":"set","path":"/a","value":1}]}), if the filter holds.
   */
  JsonNode patch(String link, JsonNode operations, String filterPredicate, String ifMatch);

  /**
   * A page of a query over the logical partition, seeing this execution's own writes.
   *
   * @param parameters {@code [{"name":"@x","value":1}]} or null
   * @param pageSize at most this many results; -1 for the default (100)
   */
  Page query(String sql, JsonNode parameters, int pageSize, String continuation);

  /** A page of every document of the logical partition. */
  Page readAll(int pageSize, String continuation);
}
