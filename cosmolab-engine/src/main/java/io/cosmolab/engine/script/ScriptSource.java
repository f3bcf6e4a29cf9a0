package io.cosmolab.engine.script;

/**
 * A script's code as stored: its kind, id, JavaScript body, and a version ({@code _etag}) that
 * changes whenever the body does, so a runtime may compile each version once and cache it.
 */
public record ScriptSource(ScriptKind kind, String id, String body, String version) {
  /** The source of a stored script resource. */
  public static ScriptSource of(ScriptKind kind, com.fasterxml.jackson.databind.JsonNode stored) {
    return new ScriptSource(
        kind,
        stored.path("id").asText(),
        stored.path("body").asText(),
        stored.path("_etag").asText(""));
  }
}
