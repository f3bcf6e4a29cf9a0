package io.cosmolab.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Test helper: JSON from text, with single quotes allowed for readability. */
public final class Json {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {}

  /** Parses JSON written with ' for ". */
  public static ObjectNode obj(String text) {
    return (ObjectNode) node(text);
  }

  public static JsonNode node(String text) {
    try {
      return MAPPER.readTree(text.replace('\'', '"'));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
