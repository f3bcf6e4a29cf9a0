package io.cosmolab.engine.document;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CompactObjectsTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  @Test
  void flatProperties_behaveAsALinkedHashMap_underRandomOperations() {
    // the model: the map ObjectNode has by default; every operation a tree's readers and writers
    // use, with removals through the views' iterators and writes through entries
    for (long seed = 1; seed <= 200; seed++) {
      Random random = new Random(seed);
      // every starting room from none to 5, and up to 40 names: the array grows many times over
      FlatProperties flat = new FlatProperties((int) (seed % 6));
      Map<String, JsonNode> model = new LinkedHashMap<>();
      int names = seed % 2 == 0 ? 12 : 40;
      for (int step = 0; step < 300; step++) {
        String name = "p" + random.nextInt(names);
        JsonNode value = IntNode.valueOf(random.nextInt(100));
        switch (random.nextInt(9)) {
          case 0, 1 -> assertThat(flat.put(name, value)).isEqualTo(model.put(name, value));
          case 2 -> { // a string, kept as its text
            TextNode text = TextNode.valueOf("s" + random.nextInt(100));
            flat.putString(name, text);
            model.put(name, text);
          }
          case 3 -> assertThat(flat.remove(name)).isEqualTo(model.remove(name));
          case 4 -> {
            assertThat(flat.get(name)).isEqualTo(model.get(name));
            assertThat(flat.containsKey(name)).isEqualTo(model.containsKey(name));
          }
          case 5 -> { // remove every other entry through the entry set's iterator
            removeEveryOther(flat.entrySet().iterator());
            removeEveryOther(model.entrySet().iterator());
          }
          case 6 -> { // write through entries
            for (Map.Entry<String, JsonNode> e : flat.entrySet()) {
              e.setValue(IntNode.valueOf(e.getValue().asInt() + 1));
            }
            model.replaceAll((k, v) -> IntNode.valueOf(v.asInt() + 1));
          }
          case 7 -> {
            flat.keySet().remove(name);
            model.keySet().remove(name);
          }
          default -> {
            if (random.nextInt(20) == 0) {
              flat.clear();
              model.clear();
            }
          }
        }
        assertThat(flat).as("seed %d step %d", seed, step).isEqualTo(model);
        assertThat(model).isEqualTo(flat);
        assertThat(flat.hashCode()).isEqualTo(model.hashCode());
        assertThat(new ArrayList<>(flat.keySet())).isEqualTo(new ArrayList<>(model.keySet()));
        assertThat(new ArrayList<>(flat.values())).isEqualTo(new ArrayList<>(model.values()));
        assertThat(flat.size()).isEqualTo(model.size());
      }
    }
  }

  private static void removeEveryOther(Iterator<?> it) {
    boolean remove = false;
    while (it.hasNext()) {
      it.next();
      if (remove) {
        it.remove();
      }
      remove = !remove;
    }
  }

  @Test
  void anEntry_followsItsPropertyAcrossRemovalsBeforeIt_andOnceRemovedLeavesTheMapAlone() {
    FlatProperties flat = new FlatProperties(0);
    Map<String, JsonNode> model = new LinkedHashMap<>();
    for (Map<String, JsonNode> m : List.of(flat, model)) {
      for (int i = 0; i < 5; i++) {
        m.put("p" + i, IntNode.valueOf(i));
      }
      Iterator<Map.Entry<String, JsonNode>> it = m.entrySet().iterator();
      it.next();
      it.next();
      Map.Entry<String, JsonNode> p2 = it.next();
      Map.Entry<String, JsonNode> p1 = null;
      for (Map.Entry<String, JsonNode> e : m.entrySet()) {
        if (e.getKey().equals("p1")) {
          p1 = e;
        }
      }
      m.remove("p0"); // before both: p2 is written where p2 is now
      assertThat(p2.setValue(IntNode.valueOf(20)).intValue()).isEqualTo(2);
      m.remove("p1"); // the entry's own property: it keeps its last value, the map is not touched
      assertThat(p1.getValue().intValue()).isEqualTo(1);
      p1.setValue(IntNode.valueOf(10));
      assertThat(p1.getValue().intValue()).isEqualTo(10);
    }
    assertThat(flat).isEqualTo(model);
    assertThat(flat.get("p2").intValue()).isEqualTo(20);
    assertThat(flat).doesNotContainKey("p1");
  }

  @Test
  void anIterator_failsFast_whenTheMapChangesBehindIt_andRemovesOncePerNext() {
    FlatProperties flat = new FlatProperties(2);
    flat.put("a", IntNode.valueOf(1));
    flat.put("b", IntNode.valueOf(2));
    Iterator<Map.Entry<String, JsonNode>> it = flat.entrySet().iterator();
    assertThatThrownBy(it::remove).isInstanceOf(IllegalStateException.class);
    it.next();
    it.remove();
    assertThatThrownBy(it::remove).isInstanceOf(IllegalStateException.class);
    flat.put("c", IntNode.valueOf(3));
    assertThatThrownBy(it::next).isInstanceOf(ConcurrentModificationException.class);
  }

  private static ObjectNode sample() throws Exception {
    return (ObjectNode)
        JsonTrees.read(
            "{\"id\":\"a\",\"pk\":\"p\",\"n\":1,\"f\":2.5,\"big\":12345678901234567890,"
                + "\"t\":true,\"z\":null,\"nested\":{\"x\":[1,{\"y\":\"deep\"},[]],\"e\":{}},"
                + "\"tags\":[\"a\",\"b\"],\"é\":\"unicode\"}");
  }

  @Test
  void aCopy_isEqualToItsSource_inTheSameOrder_andWritesTheSameBytes() throws Exception {
    ObjectNode source = sample();
    ObjectNode copy = CompactObjects.copyOf(source, 5);
    assertThat(copy).isEqualTo(source);
    assertThat(source).isEqualTo(copy);
    assertThat(copy.hashCode()).isEqualTo(source.hashCode());
    assertThat(JsonTrees.write(copy)).isEqualTo(JsonTrees.write(source));
    assertThat(copy.toString()).isEqualTo(source.toString());
    assertThat(copy.deepCopy()).isEqualTo(source);
    assertThat(copy.properties().stream().map(Map.Entry::getKey).toList())
        .isEqualTo(source.properties().stream().map(Map.Entry::getKey).toList());
    assertThat(copy.at("/nested/x/1/y").asText()).isEqualTo("deep");
  }

  @Test
  void aCopy_isIndependentOfItsSource_atEveryDepth_andSharesOnlyValueNodes() throws Exception {
    ObjectNode source = sample();
    ObjectNode copy = CompactObjects.copyOf(source, 0);
    ((ObjectNode) copy.get("nested")).put("added", 1);
    ((ObjectNode) copy.at("/nested/x/1")).put("y", "changed");
    copy.withArray("tags").add("c");
    copy.remove("id");
    assertThat(source).isEqualTo(sample());
    // value nodes are immutable: shared, as deepCopy shares them; a string keeps only its text
    assertThat(copy.get("big")).isSameAs(source.get("big"));
    assertThat(copy.get("pk").textValue()).isSameAs(source.get("pk").textValue());
  }

  @Test
  void aStringProperty_keepsOnlyItsText_yetReadsWritesAndRemovesAsATextNode() throws Exception {
    ObjectNode copy = CompactObjects.copyOf(sample(), 0);
    JsonNode pk = copy.get("pk");
    assertThat(pk).isInstanceOf(TextNode.class).isEqualTo(TextNode.valueOf("p"));
    assertThat(copy.get("pk")).isNotSameAs(pk); // a new node at each read: none is kept
    assertThat(copy.get("nested").at("/x/1/y").textValue()).isEqualTo("deep"); // at every depth
    assertThat(copy.get("é").textValue()).isEqualTo("unicode");
    assertThat(copy.deepCopy().get("pk").textValue()).isSameAs(pk.textValue());
    for (Map.Entry<String, JsonNode> e : copy.properties()) {
      if (e.getKey().equals("id")) {
        assertThat(e.setValue(IntNode.valueOf(3))).isEqualTo(TextNode.valueOf("a"));
      }
    }
    assertThat(copy.get("id")).isEqualTo(IntNode.valueOf(3));
    assertThat(copy.remove("pk")).isEqualTo(TextNode.valueOf("p"));
    assertThat(copy.put("é", "other").get("é").textValue()).isEqualTo("other");
  }

  @Test
  void aCopy_takesSystemPropertiesAfterItsOwn_andRemovesAnyInTheMiddle() throws Exception {
    ObjectNode source = sample();
    ObjectNode copy = CompactObjects.copyOf(source, 1);
    copy.remove("n");
    copy.put("_rid", "r");
    copy.set("_attachments", TextNode.valueOf("attachments/"));
    copy.put("_ts", 7L); // past the room asked for (1, and the 1 "n" left): the array grows
    ObjectNode expected = source.deepCopy();
    expected.remove("n");
    expected.put("_rid", "r");
    expected.put("_attachments", "attachments/");
    expected.put("_ts", 7L);
    assertThat(copy).isEqualTo(expected);
    assertThat(JsonTrees.write(copy)).isEqualTo(JsonTrees.write(expected));
  }

  /** Texts made from two numbers, as a stored version's are; counts how often it is asked. */
  private static final class Texts implements SystemText {
    int asked;

    @Override
    public String text(String name) {
      asked++;
      return name + "-of-7";
    }

    @Override
    public long documentPart() {
      return 7L << 8;
    }
  }

  @Test
  void systemText_readsAsTextNodesEverywhere_yetKeepsOnlyItsMaker() throws Exception {
    ObjectNode source = sample();
    ObjectNode copy = CompactObjects.copyOf(source, 3);
    Texts texts = new Texts();
    for (String name : List.of("_rid", "_self", "_etag")) {
      CompactObjects.putSystemText(copy, name, texts);
    }
    ObjectNode expected = source.deepCopy();
    expected.put("_rid", "_rid-of-7").put("_self", "_self-of-7").put("_etag", "_etag-of-7");

    assertThat(texts.asked).isZero(); // nothing made until read
    assertThat(copy.get("_rid")).isEqualTo(TextNode.valueOf("_rid-of-7"));
    assertThat(copy.path("_etag").textValue()).isEqualTo("_etag-of-7");
    assertThat(copy).isEqualTo(expected);
    assertThat(expected).isEqualTo(copy);
    assertThat(copy.hashCode()).isEqualTo(expected.hashCode());
    assertThat(JsonTrees.write(copy)).isEqualTo(JsonTrees.write(expected));
    assertThat(copy.deepCopy()).isEqualTo(expected);
    assertThat(copy.properties().stream().map(Map.Entry::getValue).toList())
        .isEqualTo(expected.properties().stream().map(Map.Entry::getValue).toList());
    assertThat(CompactObjects.systemText(copy, "_self")).isSameAs(texts);
    assertThat(CompactObjects.systemText(copy, "pk")).isNull();
    assertThat(CompactObjects.systemText(expected, "_rid")).isNull();

    // written over or removed like any property; the old value reads as its text
    assertThat(copy.put("_etag", "other").get("_etag").textValue()).isEqualTo("other");
    assertThat(CompactObjects.systemText(copy, "_etag")).isNull();
    assertThat(copy.remove("_rid")).isEqualTo(TextNode.valueOf("_rid-of-7"));
    assertThat(copy.has("_rid")).isFalse();
  }

  @Test
  void systemText_intoAnObjectOfManyProperties_isPutAsItsText() {
    ObjectNode copy = CompactObjects.copyOf(wide(40), 3);
    Texts texts = new Texts();
    CompactObjects.putSystemText(copy, "_rid", texts);
    assertThat(copy.get("_rid").textValue()).isEqualTo("_rid-of-7");
    assertThat(CompactObjects.systemText(copy, "_rid")).isNull();
    assertThat(texts.asked).isEqualTo(1);
  }

  @Test
  void anObjectOfManyProperties_isCopiedWhole_inItsOrder() {
    ObjectNode wide = wide(100);
    ObjectNode copy = CompactObjects.copyOf(wide, 5);
    assertThat(copy).isEqualTo(wide);
    assertThat(JsonTrees.write(copy)).isEqualTo(JsonTrees.write(wide));
    assertThat(copy.get("p99").intValue()).isEqualTo(99);
  }

  /** An object of {@code n} properties, {@code p0: 0} onwards: past the flat array's limit. */
  private static ObjectNode wide(int n) {
    ObjectNode wide = NODES.objectNode();
    for (int i = 0; i < n; i++) {
      wide.put("p" + i, i);
    }
    return wide;
  }
}
