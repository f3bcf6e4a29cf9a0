package io.cosmolab.engine.document;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * JSON text to Jackson trees and back with the streaming parser and generator alone: the same trees
 * and the same bytes as {@code ObjectMapper.readTree} and {@code writeValueAsBytes} with default
 * settings, without the object mapper's serializer and deserializer machinery. That machinery (some
 * 250 classes, and the locale data its date format loads) cost a cold JVM ~150 ms at the first
 * request; every request body and response of the gateway goes through here instead.
 *
 * <p>Trees: numbers as {@code ObjectMapper} reads them by default (int, long or big integer by
 * magnitude; double for fractions); a repeated property keeps its last value; the first value is
 * read and anything after it ignored, as {@code readTree} does. Nesting and size limits are the
 * parser's own (its default read constraints). A client's JSON ({@link #readStrict}) keeps a
 * fraction's value, not its text, as the service does: a whole one is an integer ({@code 5.0} is
 * {@code 5}).
 */
public final class JsonTrees {
  private JsonTrees() {}

  private static final JsonFactory FACTORY = new JsonFactory();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /**
   * The first JSON value in {@code json}, or {@link MissingNode} when it holds none (empty or only
   * whitespace).
   *
   * @throws JsonProcessingException naming where the text stops being JSON
   */
  public static JsonNode read(byte[] json) throws JsonProcessingException {
    try (JsonParser p = FACTORY.createParser(json)) {
      return readFirst(p);
    } catch (JsonProcessingException e) {
      throw e;
    } catch (IOException e) { // a byte array cannot fail to read
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A client's JSON (a request body, a header) as the service takes it: exactly one value, with
   * nothing but white space after it, no byte order mark, no property twice in one object, and no
   * number beyond the range of a double — {@code 1e400} would otherwise be stored as infinity and
   * written back as the string {@code "Infinity"}. [A] The service's answers to these are not
   * documented; each is refused here with a 400 that says which rule the text broke.
   *
   * @throws JsonProcessingException naming the problem and where; {@link #describe} words it
   */
  public static JsonNode readStrict(byte[] json) throws JsonProcessingException {
    if (json.length >= 3
        && (json[0] & 0xFF) == 0xEF
        && (json[1] & 0xFF) == 0xBB
        && (json[2] & 0xFF) == 0xBF) {
      throw new com.fasterxml.jackson.core.JsonParseException(
          null, "the text starts with a UTF-8 byte order mark; send JSON without one");
    }
    int invalid = Utf8.firstInvalid(json);
    if (invalid >= 0) {
      throw new com.fasterxml.jackson.core.JsonParseException(
          null,
          String.format(
              java.util.Locale.ROOT,
              "the text is not valid UTF-8 at byte offset %d (0x%02X): a stray or truncated"
                  + " sequence, an overlong form, a surrogate or a code point past U+10FFFF",
              invalid,
              json[invalid] & 0xFF));
    }
    try (JsonParser p = FACTORY.createParser(json)) {
      return readOnly(p);
    } catch (JsonProcessingException e) {
      throw e;
    } catch (IOException e) { // a byte array cannot fail to read
      throw new UncheckedIOException(e);
    }
  }

  /** {@link #readStrict(byte[])} over text. */
  public static JsonNode readStrict(String json) throws JsonProcessingException {
    if (json.startsWith("\uFEFF")) {
      throw new com.fasterxml.jackson.core.JsonParseException(
          null, "the text starts with a byte order mark; send JSON without one");
    }
    try (JsonParser p = FACTORY.createParser(json)) {
      return readOnly(p);
    } catch (JsonProcessingException e) {
      throw e;
    } catch (IOException e) { // a string cannot fail to read
      throw new UncheckedIOException(e);
    }
  }

  private static JsonNode readOnly(JsonParser p) throws IOException {
    JsonToken first = p.nextToken();
    if (first == null) {
      return MissingNode.getInstance();
    }
    JsonNode value = strictValue(p, first);
    if (p.nextToken() != null) {
      throw new com.fasterxml.jackson.core.JsonParseException(
          p, "unexpected text after the JSON value");
    }
    return value;
  }

  /** As {@link #value}, refusing repeated properties and numbers past a double's range. */
  private static JsonNode strictValue(JsonParser p, JsonToken t) throws IOException {
    switch (t) {
      case START_OBJECT -> {
        ObjectNode o = NODES.objectNode();
        for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
          if (o.replace(name, strictValue(p, p.nextToken())) != null) {
            throw new com.fasterxml.jackson.core.JsonParseException(
                p, "the property \"" + name + "\" appears twice in one object");
          }
        }
        return o;
      }
      case START_ARRAY -> {
        ArrayNode a = NODES.arrayNode();
        for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
          a.add(strictValue(p, e));
        }
        return a;
      }
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
        JsonNode n = value(p, t);
        if (!Double.isFinite(n.doubleValue())) {
          throw new com.fasterxml.jackson.core.JsonParseException(
              p,
              "the number "
                  + abbreviate(p.getText())
                  + " is out of range: JSON numbers are IEEE 754 doubles, at most about 1.8e308");
        }
        // the service keeps a number, not its text: 5.0 and 5.000000 come back as 5 (the Java
        // SDK's DistinctQueryTests store both and read Integer 5), 1e2 as 100, 1.50 as 1.5.
        // [A] -0.0 stays as written: the SDKs hash a partition key of -0.0 by its own bits, so
        // making it 0 would move such a document to another EPK than its clients compute
        double v = n.doubleValue();
        boolean negativeZero = v == 0 && Double.doubleToRawLongBits(v) != 0;
        return t == JsonToken.VALUE_NUMBER_FLOAT && !negativeZero
            ? io.cosmolab.query.exec.Values.number(v)
            : n;
      }
      default -> {
        return value(p, t);
      }
    }
  }

  private static String abbreviate(String text) {
    return text.length() > 40 ? text.substring(0, 40) + "..." : text;
  }

  /**
   * A parse failure in the user's terms: what is wrong and where (line and column when known),
   * without the parser's class and option names.
   */
  // Jackson's message wording, matched in linear time (no nested quantifiers): the messages quote
  // at
  // most a short excerpt of the input
  private static final Pattern FROM_SETTING = Pattern.compile(",? from `[^`]*`");

  private static final Pattern SETTING_IN_BRACKETS = Pattern.compile(" ?\\(`[^`]*`\\)");
  private static final Pattern START_MARKER =
      Pattern.compile(
          " ?\\(start marker at \\[Source: [^;\\]]*(?:\\([^)]*\\))?[^;\\]]*; line: (\\d+), column:"
              + " (\\d+)\\]\\)");
  private static final Pattern SOURCE = Pattern.compile("\\[Source: [^\\]]*\\]");
  private static final Pattern ENABLE_TO_ALLOW = Pattern.compile(":? ?enable `[^`]*` to allow");

  public static String describe(JsonProcessingException e) {
    String what = e.getOriginalMessage();
    if (what == null) {
      what = "the text is not JSON";
    }
    // Jackson names its own settings in some messages: "(1001) exceeds the maximum allowed (1000,
    // from `StreamReadConstraints.getMaxNestingDepth()`)" and the like; users never set those
    what = FROM_SETTING.matcher(what).replaceAll("");
    what = SETTING_IN_BRACKETS.matcher(what).replaceAll("");
    what = START_MARKER.matcher(what).replaceAll(" (opened at line $1, column $2)");
    what = SOURCE.matcher(what).replaceAll("");
    // "Non-standard token 'NaN': enable `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS` to allow"
    what = ENABLE_TO_ALLOW.matcher(what).replaceAll(", which JSON does not have");
    what = what.replace("`", "'");
    what = what.replace("Document nesting depth", "JSON nesting depth");
    int nl = what.indexOf('\n');
    if (nl >= 0) {
      what = what.substring(0, nl); // Jackson's second line repeats the hint in its own terms
    }
    com.fasterxml.jackson.core.JsonLocation at = e.getLocation();
    if (at == null || at.getLineNr() <= 0) {
      return what;
    }
    return what + " at line " + at.getLineNr() + ", column " + at.getColumnNr();
  }

  /** {@link #read(byte[])} over text. */
  public static JsonNode read(String json) throws JsonProcessingException {
    try (JsonParser p = FACTORY.createParser(json)) {
      return readFirst(p);
    } catch (JsonProcessingException e) {
      throw e;
    } catch (IOException e) { // a string cannot fail to read
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The value that starts at {@code p}'s current token, as {@code JsonParser.readValueAsTree} reads
   * it: the parser is left on the value's last token.
   *
   * @throws JsonProcessingException naming where the text stops being JSON
   */
  public static JsonNode readValue(JsonParser p) throws IOException {
    JsonToken t = p.currentToken();
    if (t == null) {
      throw new com.fasterxml.jackson.core.JsonParseException(p, "no JSON value to read");
    }
    return value(p, t);
  }

  private static JsonNode readFirst(JsonParser p) throws IOException {
    JsonToken first = p.nextToken();
    return first == null ? MissingNode.getInstance() : value(p, first);
  }

  private static JsonNode value(JsonParser p, JsonToken t) throws IOException {
    return switch (t) {
      case START_OBJECT -> {
        ObjectNode o = NODES.objectNode();
        for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
          o.replace(name, value(p, p.nextToken()));
        }
        yield o;
      }
      case START_ARRAY -> {
        ArrayNode a = NODES.arrayNode();
        for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
          a.add(value(p, e));
        }
        yield a;
      }
      case VALUE_STRING -> NODES.textNode(p.getText());
      case VALUE_NUMBER_INT ->
          switch (p.getNumberType()) {
            case INT -> NODES.numberNode(p.getIntValue());
            case LONG -> NODES.numberNode(p.getLongValue());
            default -> NODES.numberNode(p.getBigIntegerValue());
          };
      case VALUE_NUMBER_FLOAT -> NODES.numberNode(p.getDoubleValue()); // text holds no decimals
      case VALUE_TRUE -> NODES.booleanNode(true);
      case VALUE_FALSE -> NODES.booleanNode(false);
      case VALUE_NULL -> NODES.nullNode();
      default -> // END_*, FIELD_NAME or an embedded object: text never starts a value with them
          throw new com.fasterxml.jackson.core.JsonParseException(
              p, "unexpected token " + t + " where a JSON value should start");
    };
  }

  /** {@code tree} as compact UTF-8 JSON. */
  public static byte[] write(JsonNode tree) {
    try (ByteArrayBuilder out = new ByteArrayBuilder(512);
        JsonGenerator g = FACTORY.createGenerator(out)) {
      write(g, tree);
      g.flush();
      return out.toByteArray();
    } catch (IOException e) { // an in-memory buffer cannot fail to write
      throw new UncheckedIOException(e);
    }
  }

  /** Writes {@code tree} to {@code g}, as the object mapper's tree serializer would. */
  public static void write(JsonGenerator g, JsonNode tree) throws IOException {
    switch (tree.getNodeType()) {
      case OBJECT -> {
        g.writeStartObject();
        for (Map.Entry<String, JsonNode> e : tree.properties()) {
          g.writeFieldName(e.getKey());
          write(g, e.getValue());
        }
        g.writeEndObject();
      }
      case ARRAY -> {
        g.writeStartArray();
        for (JsonNode e : tree) {
          write(g, e);
        }
        g.writeEndArray();
      }
      case STRING -> g.writeString(tree.textValue());
      case NUMBER -> {
        switch (tree.numberType()) {
          case INT -> g.writeNumber(tree.intValue());
          case LONG -> g.writeNumber(tree.longValue());
          case BIG_INTEGER -> g.writeNumber(tree.bigIntegerValue());
          case FLOAT -> g.writeNumber(tree.floatValue());
          case DOUBLE -> g.writeNumber(tree.doubleValue());
          case BIG_DECIMAL -> g.writeNumber(tree.decimalValue());
        }
      }
      case BOOLEAN -> g.writeBoolean(tree.booleanValue());
      case NULL, MISSING -> g.writeNull();
      default -> Mapper.INSTANCE.writeTree(g, tree); // binary and POJO nodes: rare, exact
    }
  }

  /** Created on first use only: the few trees that hold binary or Java objects. */
  private static final class Mapper {
    static final ObjectMapper INSTANCE = new ObjectMapper();
  }
}
