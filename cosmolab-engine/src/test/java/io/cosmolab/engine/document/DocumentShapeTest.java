package io.cosmolab.engine.document;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class DocumentShapeTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static int jacksonSize(JsonNode n) throws Exception {
    return MAPPER.writeValueAsBytes(n).length;
  }

  /** The walked size equals Jackson's serialized size for any tree (seeded, replayable). */
  @Property(tries = 300)
  void sizeOf_equalsTheSerializedSize(@ForAll long seed) throws Exception {
    JsonNode tree = randomTree(new Random(seed), 0);
    assertThat(DocumentShape.sizeOf(tree))
        .as("seed %d: %s", seed, tree)
        .isEqualTo(jacksonSize(tree));
  }

  /**
   * A stored body (the compact copy, read from its array without making text nodes) measures and
   * counts as its source does, system texts included.
   */
  @Property(tries = 300)
  void aCompactCopy_measuresAndCountsAsItsSource(@ForAll long seed) throws Exception {
    Random r = new Random(seed);
    ObjectNode source = NODES.objectNode();
    for (int i = r.nextInt(12); i > 0; i--) {
      source.set(randomString(r), randomTree(r, 1));
    }
    ObjectNode copy = CompactObjects.copyOf(source, 1);
    String etag = "\"" + randomString(r) + "\"";
    source.put("_etag", etag);
    CompactObjects.putSystemText(
        copy,
        "_etag",
        new SystemText() {
          @Override
          public String text(String name) {
            return etag;
          }

          @Override
          public long documentPart() {
            return 0;
          }
        });
    assertThat(DocumentShape.sizeOf(copy)).as("seed %d", seed).isEqualTo(jacksonSize(source));
    assertThat(DocumentShape.indexedTerms(copy))
        .as("seed %d", seed)
        .isEqualTo(DocumentShape.indexedTerms(source));
  }

  @Test
  void sizeOf_coversEscapesUnicodeAndNumberForms() throws Exception {
    ObjectNode d = NODES.objectNode();
    d.put("quote\"back\\slash", "tab\t nl\n ctl\u0001 del\u007f é € 😀 /");
    d.put("int", -42);
    d.put("long", Long.MIN_VALUE);
    d.put("double", 1.0e-7);
    d.put("nan", Double.NaN);
    d.put("float", 3.25f);
    d.put("big", new BigInteger("123456789012345678901234567890"));
    d.put("dec", new BigDecimal("1.50E+3"));
    d.putNull("nil");
    d.put("t", true);
    d.putArray("empty");
    d.putObject("obj");
    d.put("lone", "\ud800x");
    assertThat(DocumentShape.sizeOf(d)).isEqualTo(jacksonSize(d));
  }

  /** A seeded random tree of every node type JSON text can hold (shared with JsonTreesTest). */
  static JsonNode randomTree(Random r, int depth) {
    int kind = depth > 4 ? r.nextInt(6) : r.nextInt(8);
    return switch (kind) {
      case 0 -> NODES.textNode(randomString(r));
      case 1 -> NODES.numberNode(r.nextLong() >> r.nextInt(64));
      case 2 ->
          NODES.numberNode(
              r.nextBoolean()
                  ? r.nextDouble() * Math.pow(10, r.nextInt(40) - 20)
                  : r.nextInt(1000) / 8.0);
      case 3 -> NODES.booleanNode(r.nextBoolean());
      case 4 -> NODES.nullNode();
      case 5 -> NODES.numberNode(r.nextInt());
      case 6 -> {
        ObjectNode o = NODES.objectNode();
        for (int i = r.nextInt(5); i > 0; i--) {
          o.set(randomString(r), randomTree(r, depth + 1));
        }
        yield o;
      }
      default -> {
        ArrayNode a = NODES.arrayNode();
        for (int i = r.nextInt(5); i > 0; i--) {
          a.add(randomTree(r, depth + 1));
        }
        yield a;
      }
    };
  }

  @Test
  void indexedTerms_countLeavesOutsideSystemProperties_andDoNotRefuseADocumentTooDeep() {
    ObjectNode d = NODES.objectNode().put("id", "1").put("_ts", 5).put("a", 1);
    d.putArray("tags").add("x").add("y");
    d.putObject("o").put("b", true).putNull("c");
    assertThat(DocumentShape.indexedTerms(d))
        .isEqualTo(DocumentShape.indexedTermsCheckingDepth(d))
        .isEqualTo(6); // id, a, tags[0], tags[1], o.b, o.c; _ts is a system property
    ObjectNode deep = NODES.objectNode().put("id", "2");
    ObjectNode at = deep;
    for (int i = 0; i < io.cosmolab.engine.limits.Limits.MAX_NESTING_DEPTH + 5; i++) {
      at = at.putObject("n");
    }
    at.put("leaf", 1);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> DocumentShape.indexedTermsCheckingDepth(deep))
        .hasMessageContaining("nests more than");
    assertThat(DocumentShape.indexedTerms(deep)).isEqualTo(1); // the id; the deep leaf is past it
  }

  static String randomString(Random r) {
    StringBuilder b = new StringBuilder();
    for (int i = r.nextInt(12); i > 0; i--) {
      switch (r.nextInt(6)) {
        case 0 -> b.append((char) r.nextInt(0x20));
        case 1 -> b.append("\"\\/".charAt(r.nextInt(3)));
        case 2 -> b.append((char) (0x80 + r.nextInt(0x780)));
        case 3 -> b.appendCodePoint(0x1F600 + r.nextInt(50));
        case 4 -> b.append((char) (0x800 + r.nextInt(0xD000)));
        default -> b.append((char) ('a' + r.nextInt(26)));
      }
    }
    String s = b.toString();
    assertThat(s.getBytes(StandardCharsets.UTF_8)).isNotNull();
    return s;
  }

  /**
   * The one-walk diff counts what the term-set definition counts: the terms of a version are its
   * (leaf path, value) pairs, system properties at the top left out, array positions as [i], and
   * the policy's path with [] for them; numbers are terms by value (1 and 1.0 are one).
   */
  @Property(tries = 500)
  void changedTerms_equalsTheDifferenceOfTheTwoTermSets(@ForAll long seed) {
    Random r = new Random(seed);
    ObjectNode before = randomObject(r);
    ObjectNode after = r.nextBoolean() ? mutate(before.deepCopy(), r) : randomObject(r);
    java.util.function.Predicate<java.util.List<String>> indexed =
        r.nextBoolean() ? null : p -> !p.contains("b") && !p.contains("x");
    assertThat(DocumentShape.changedTerms(before, after, indexed))
        .as("seed %d: %s -> %s", seed, before, after)
        .isEqualTo(termSetOracle(before, after, indexed));
  }

  @Test
  void changedTerms_ofAnUnchangedRewrite_isZero_andOneChangedPropertyIsOne() {
    ObjectNode d = NODES.objectNode().put("id", "a").put("n", 1).put("pad", "x".repeat(900));
    d.putArray("tags").add("red").add(2.5);
    assertThat(DocumentShape.changedTerms(d, d.deepCopy(), null)).isZero();
    assertThat(DocumentShape.changedTerms(d, d.deepCopy().put("n", 1.0), null)).isZero();
    assertThat(DocumentShape.changedTerms(d, d.deepCopy().put("n", 2), null)).isEqualTo(1);
    ObjectNode moreTags = d.deepCopy();
    ((ArrayNode) moreTags.get("tags")).add("blue");
    assertThat(DocumentShape.changedTerms(d, moreTags, null)).isEqualTo(1);
    assertThat(DocumentShape.changedTerms(d, moreTags, p -> !p.get(0).equals("tags"))).isZero();
  }

  private static int termSetOracle(
      ObjectNode before,
      ObjectNode after,
      java.util.function.Predicate<java.util.List<String>> ok) {
    java.util.Set<String> a = terms(before, ok);
    java.util.Set<String> b = terms(after, ok);
    java.util.Set<String> removed = new java.util.HashSet<>(a);
    removed.removeAll(b);
    java.util.Set<String> added = new java.util.HashSet<>(b);
    added.removeAll(a);
    return Math.max(removed.size(), added.size());
  }

  private static java.util.Set<String> terms(
      ObjectNode d, java.util.function.Predicate<java.util.List<String>> ok) {
    java.util.Set<String> out = new java.util.HashSet<>();
    collect(d, new java.util.ArrayList<>(), new java.util.ArrayList<>(), ok, out, true);
    return out;
  }

  private static void collect(
      JsonNode n,
      java.util.List<String> path,
      java.util.List<String> policyPath,
      java.util.function.Predicate<java.util.List<String>> ok,
      java.util.Set<String> out,
      boolean top) {
    if (n.isObject()) {
      n.properties()
          .forEach(
              e -> {
                if (top && DocumentShape.SYSTEM_PROPERTIES.contains(e.getKey())) {
                  return;
                }
                path.add(e.getKey());
                policyPath.add(e.getKey());
                collect(e.getValue(), path, policyPath, ok, out, false);
                path.remove(path.size() - 1);
                policyPath.remove(policyPath.size() - 1);
              });
    } else if (n.isArray()) {
      for (int i = 0; i < n.size(); i++) {
        path.add("[" + i + "]");
        policyPath.add("[]");
        collect(n.get(i), path, policyPath, ok, out, false);
        path.remove(path.size() - 1);
        policyPath.remove(policyPath.size() - 1);
      }
    } else if (ok == null || ok.test(policyPath)) {
      String value =
          n.isNumber() ? n.decimalValue().stripTrailingZeros().toPlainString() : n.toString();
      out.add(String.join("/", path) + "=" + value);
    }
  }

  private static ObjectNode randomObject(Random r) {
    ObjectNode o = NODES.objectNode();
    int n = r.nextInt(6);
    for (int i = 0; i < n; i++) {
      o.set(String.valueOf((char) ('a' + r.nextInt(4))), randomValue(r, 0));
    }
    if (r.nextBoolean()) {
      o.put("_etag", "\"" + r.nextInt(3) + "\""); // a system property: never a term
    }
    return o;
  }

  private static JsonNode randomValue(Random r, int depth) {
    int kind = depth > 2 ? r.nextInt(4) : r.nextInt(6);
    return switch (kind) {
      case 0 -> NODES.numberNode(r.nextInt(3));
      case 1 -> NODES.numberNode(r.nextInt(3) + (r.nextBoolean() ? 0.0 : 0.5));
      case 2 -> NODES.textNode(String.valueOf((char) ('x' + r.nextInt(3))));
      case 3 -> r.nextBoolean() ? NODES.nullNode() : NODES.booleanNode(r.nextBoolean());
      case 4 -> {
        ArrayNode a = NODES.arrayNode();
        for (int i = r.nextInt(4); i > 0; i--) {
          a.add(randomValue(r, depth + 1));
        }
        yield a;
      }
      default -> {
        ObjectNode o = NODES.objectNode();
        for (int i = r.nextInt(4); i > 0; i--) {
          o.set(String.valueOf((char) ('a' + r.nextInt(4))), randomValue(r, depth + 1));
        }
        yield o;
      }
    };
  }

  private static ObjectNode mutate(ObjectNode d, Random r) {
    for (int i = r.nextInt(3); i >= 0; i--) {
      String k = String.valueOf((char) ('a' + r.nextInt(5)));
      if (r.nextInt(3) == 0) {
        d.remove(k);
      } else {
        d.set(k, randomValue(r, 1));
      }
    }
    return d;
  }
}
