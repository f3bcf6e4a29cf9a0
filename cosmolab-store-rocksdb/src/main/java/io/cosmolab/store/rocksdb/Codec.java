package io.cosmolab.store.rocksdb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.store.ChangeRecord;
import io.cosmolab.engine.store.ContainerStore;
import io.cosmolab.engine.store.StoredDocument;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Keys and values on disk.
 *
 * <pre>
 * document key  = rid 0x00 epk 0x00 id          (UTF-8; EPKs are upper-case hex, so byte order
 *                                                 is the engine's (EPK, id) order for them)
 * change key    = rid 0x00 lsn                  (lsn: 8 bytes, big-endian, so byte order is LSN order)
 * marks key     = "marks/" rid                 (default column family, beside "catalog")
 * values        = JSON: {"k": key, "s": size, "t": terms, "l": lsn, "ts": millis, "b": body,
 *                        "rl": the partition's LSN}
 *                       {"l", "ts", "op", "e", "i", "k", "c", "p", "pl", "s", "x", "rl"} for a change
 *                       {"l": lsn bound, "q": document sequence bound, "h": retention horizon,
 *                        "r": {range id: that partition's LSN bound}} for the marks
 * </pre>
 *
 * "lsn" (l) is the position in the container-wide change log; "rl" is the LSN in the physical
 * partition's own numbering, which clients see. Records written before "rl" existed read it as
 * their position, the number clients saw for them then; marks without "r" read as no partition
 * bounds, and the engine then starts every partition at the container's LSN.
 *
 * <p>JSON rather than a binary layout: the bodies are JSON already, and a data directory stays
 * readable with standard tools. The rid prefix ends in 0x00, which no RID contains, so one
 * container's keys never interleave with another's.
 */
final class Codec {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Codec() {}

  static byte[] prefix(String rid) {
    return (rid + '\u0000').getBytes(StandardCharsets.UTF_8);
  }

  static byte[] marksKey(String rid) {
    return ("marks/" + rid).getBytes(StandardCharsets.UTF_8);
  }

  static byte[] encode(ContainerStore.Marks m) {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("l", m.lsn());
    n.put("q", m.documentSequence());
    n.put("h", m.retentionHorizon());
    if (m.stragglersFrom() > 0) {
      n.put("s", m.stragglersFrom());
    }
    ObjectNode ranges = n.putObject("r");
    new java.util.TreeMap<>(m.rangeLsns()).forEach(ranges::put);
    return bytes(n);
  }

  static ContainerStore.Marks decodeMarks(byte[] value) {
    JsonNode n = tree(value);
    JsonNode h = n.get("h");
    java.util.Map<String, Long> ranges = new java.util.HashMap<>();
    JsonNode r = n.get("r");
    if (r != null) {
      r.properties().forEach(e -> ranges.put(e.getKey(), e.getValue().longValue()));
    }
    JsonNode s = n.get("s");
    return new ContainerStore.Marks(
        n.get("l").longValue(),
        n.get("q").longValue(),
        h == null ? 0 : h.longValue(),
        ranges,
        s == null ? 0 : s.longValue());
  }

  /** The first key after every key with this prefix. */
  static byte[] prefixEnd(byte[] prefix) {
    byte[] end = prefix.clone();
    end[end.length - 1] = 1;
    return end;
  }

  static byte[] documentKey(byte[] prefix, String epk, String id) {
    byte[] e = epk.getBytes(StandardCharsets.UTF_8);
    byte[] i = id.getBytes(StandardCharsets.UTF_8);
    byte[] out = Arrays.copyOf(prefix, prefix.length + e.length + 1 + i.length);
    System.arraycopy(e, 0, out, prefix.length, e.length);
    out[prefix.length + e.length] = 0;
    System.arraycopy(i, 0, out, prefix.length + e.length + 1, i.length);
    return out;
  }

  static byte[] changeKey(byte[] prefix, long lsn) {
    return ByteBuffer.allocate(prefix.length + 8).put(prefix).putLong(lsn).array();
  }

  static byte[] encode(StoredDocument d) {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.set("k", d.partitionKey().toJson());
    n.put("e", d.epk());
    n.put("i", d.id());
    n.put("s", d.sizeBytes());
    n.put("t", d.indexedTermsOrNotIndexed()); // -1: written with the Exclude directive
    n.put("l", d.lsn());
    n.put("ts", d.timestampMillis());
    n.put("rl", d.rangeLsn());
    // the body as the version's own JSON ("b"), which reads answer with too: made once, not again
    return withRaw(bytes(n), "b", d.json(), null, null);
  }

  /**
   * A small JSON object's bytes with up to two more fields appended whose values are JSON already
   * (a null value leaves its field out): the bodies of documents, written as they are rather than
   * serialized again.
   */
  private static byte[] withRaw(byte[] head, String name1, byte[] raw1, String name2, byte[] raw2) {
    if (raw1 == null && raw2 == null) {
      return head;
    }
    java.io.ByteArrayOutputStream out =
        new java.io.ByteArrayOutputStream(
            head.length + 16 + (raw1 == null ? 0 : raw1.length) + (raw2 == null ? 0 : raw2.length));
    out.write(head, 0, head.length - 1); // without its closing brace
    appendField(out, name1, raw1);
    appendField(out, name2, raw2);
    out.write('}');
    return out.toByteArray();
  }

  private static void appendField(java.io.ByteArrayOutputStream out, String name, byte[] raw) {
    if (raw == null) {
      return;
    }
    byte[] label = (",\"" + name + "\":").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    out.write(label, 0, label.length);
    out.write(raw, 0, raw.length);
  }

  static StoredDocument decodeDocument(byte[] value) {
    JsonNode n = tree(value);
    return new StoredDocument(
        n.get("e").textValue(),
        n.get("i").textValue(),
        PartitionKeyValue.fromJson(n.get("k")),
        (ObjectNode) n.get("b"),
        n.get("s").intValue(),
        n.get("t").intValue(),
        n.get("l").longValue(),
        n.get("ts").longValue(),
        (n.hasNonNull("rl") ? n.get("rl") : n.get("l")).longValue());
  }

  static byte[] encode(ChangeRecord c) {
    return encode(c, null);
  }

  /**
   * A change record; {@code current} is its current version's JSON when the caller has it (the
   * document written in the same commit), else null and it is serialized here.
   */
  static byte[] encode(ChangeRecord c, byte[] current) {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("l", c.lsn());
    n.put("ts", c.timestampMillis());
    n.put("op", c.operation().name());
    n.put("e", c.epk());
    n.put("i", c.id());
    n.set("k", c.partitionKey().toJson());
    n.put("pl", c.previousLsn());
    n.put("s", c.sizeBytes());
    n.put("x", c.timeToLiveExpired());
    n.put("rl", c.rangeLsn());
    byte[] cur =
        c.current() == null
            ? null
            : current != null ? current : io.cosmolab.engine.document.JsonTrees.write(c.current());
    byte[] prev =
        c.previous() == null ? null : io.cosmolab.engine.document.JsonTrees.write(c.previous());
    return withRaw(bytes(n), "c", cur, "p", prev);
  }

  static ChangeRecord decodeChange(byte[] value) {
    JsonNode n = tree(value);
    return new ChangeRecord(
        n.get("l").longValue(),
        n.get("ts").longValue(),
        ChangeRecord.Operation.valueOf(n.get("op").textValue()),
        n.get("e").textValue(),
        n.get("i").textValue(),
        PartitionKeyValue.fromJson(n.get("k")),
        n.hasNonNull("c") ? (ObjectNode) n.get("c") : null,
        n.hasNonNull("p") ? (ObjectNode) n.get("p") : null,
        n.get("pl").longValue(),
        n.get("s").intValue(),
        n.get("x").booleanValue(),
        (n.hasNonNull("rl") ? n.get("rl") : n.get("l")).longValue());
  }

  private static byte[] bytes(JsonNode n) {
    try {
      return JSON.writeValueAsBytes(n);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonNode tree(byte[] value) {
    try {
      return JSON.readTree(value);
    } catch (IOException e) {
      throw new UncheckedIOException("a stored record is not valid JSON; the store is damaged", e);
    }
  }

  /** The EPK part of a document key, or null if the key is not under {@code prefix}. */
  static String epkOf(byte[] key, byte[] prefix) {
    if (!startsWith(key, prefix)) {
      return null;
    }
    int end = prefix.length;
    while (end < key.length && key[end] != 0) {
      end++;
    }
    return new String(key, prefix.length, end - prefix.length, StandardCharsets.UTF_8);
  }

  static boolean startsWith(byte[] key, byte[] prefix) {
    if (key.length < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (key[i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }
}
