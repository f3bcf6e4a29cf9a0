package io.cosmolab.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The key hash computed from the document equals the hash of the key's text, for every kind. */
class CandidateKeyHashTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static final List<Candidate> KINDS =
      List.of(
          Candidate.parse("/a"),
          Candidate.parse("/n/x"),
          Candidate.parse("/a+/b"),
          Candidate.parse("/b+/n/x"),
          Candidate.parse("/a>/b"),
          Candidate.parse("/a>/b>/n/x"),
          Candidate.parse("/a*7"));

  @Test
  void hashOf_equalsTheHashOfTheKeysText_forEveryKindAndValueType() {
    Random r = new Random(11);
    Set<String> texts = new HashSet<>();
    Set<Long> hashes = new HashSet<>();
    for (int i = 0; i < 5_000; i++) {
      ObjectNode d = randomDocument(r, i);
      for (Candidate c : KINDS) {
        Candidate.Reader reader = c.reader();
        Candidate.Key key = reader.keyOf(d);
        long hash = reader.hashOf(d);
        if (key == null) {
          assertThat(hash).as("%s has no key in %s", c.name(), d).isZero();
        } else {
          assertThat(hash).as("%s of %s", c.name(), d).isEqualTo(key.hash()).isNotZero();
          if (texts.add(key.text())) {
            hashes.add(hash);
          }
        }
      }
    }
    assertThat(hashes).as("distinct texts, distinct hashes").hasSameSizeAs(texts);
  }

  @Test
  void syntheticKey_joinsEveryPartWithADash_evenAfterAnEmptyFirstPart() {
    ObjectNode d = NODES.objectNode().put("a", "").put("b", "x");
    Candidate.Key key = Candidate.parse("/a+/b").keyOf(d);
    assertThat(key.text()).isEqualTo("[\"-x\"]");
    assertThat(key.value()).isEqualTo(PartitionKeyValue.of("-x"));
  }

  @Test
  void textsThatDifferOnlyInTrailingZeroCharsOrBlockBoundaries_hashApart() {
    List<String> texts =
        List.of(
            "",
            "\u0000",
            "a",
            "a\u0000",
            "a\u0000\u0000",
            "a\u0000\u0000\u0000",
            "ab",
            "abc",
            "abcd",
            "abcd\u0000",
            "abcde",
            "\u0000abcd",
            "bacd");
    Set<Long> hashes = new HashSet<>();
    for (String t : texts) {
      hashes.add(new Candidate.Key(PartitionKeyValue.of(t), t).hash());
    }
    assertThat(hashes).hasSameSizeAs(texts);
  }

  private static ObjectNode randomDocument(Random r, int i) {
    ObjectNode d = NODES.objectNode().put("id", "d" + i);
    putRandom(d, "a", r);
    putRandom(d, "b", r);
    if (r.nextInt(5) > 0) {
      putRandom(d.putObject("n"), "x", r);
    }
    return d;
  }

  /**
   * 0 to 40 chars, with 16 distinct values per length; in half of them a few chars are quotes or
   * backslashes.
   */
  private static String longText(Random r) {
    int n = r.nextInt(41);
    int seed = r.nextInt(16);
    Random chars = new Random(31L * n + seed);
    int escapes = seed % 2 == 0 ? 0 : 2; // half of them plain, for the bulk path
    StringBuilder b = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      int k = chars.nextInt(12) + 2 - escapes;
      b.append(k == 0 ? '"' : k == 1 ? '\\' : (char) ('a' + chars.nextInt(26)));
    }
    return b.toString();
  }

  private static void putRandom(ObjectNode o, String name, Random r) {
    switch (r.nextInt(9)) {
      case 0 -> {} // missing
      case 1 -> o.put(name, r.nextInt(50));
      case 2 -> o.put(name, r.nextInt(1000) / 8.0);
      case 3 -> o.put(name, r.nextBoolean());
      case 4 -> o.putNull(name);
      case 5 -> o.putObject(name); // not a scalar: no key
      case 6 -> o.put(name, "q\"uo\\te-" + r.nextInt(20));
      case 7 -> o.put(name, longText(r)); // every lane alignment, escapes anywhere
      default -> o.put(name, "v" + r.nextInt(300) + (r.nextBoolean() ? "-x" : "é"));
    }
  }
}
