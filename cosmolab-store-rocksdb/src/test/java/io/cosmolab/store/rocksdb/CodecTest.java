package io.cosmolab.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.store.ChangeRecord;
import io.cosmolab.engine.store.StoredDocument;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Stored records read back as written: documents and change records, whose bodies are spliced in as
 * their JSON rather than serialized again, with every kind of value and awkward text in them.
 */
class CodecTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static ObjectNode body(Random random, String id) {
    ObjectNode b = JSON.createObjectNode().put("id", id).put("pk", "k\"\\é😀");
    b.put("n", random.nextInt()).put("d", random.nextDouble()).put("big", Long.MAX_VALUE);
    b.putNull("nothing");
    b.put("yes", random.nextBoolean());
    b.putArray("arr").add(1).add("two\n").addObject().put("three", 3.5);
    b.putObject("nested").putObject("deeper").put("text", "}{\",:[]" + random.nextInt());
    b.put("_etag", "\"0000-" + random.nextInt(1000) + "\"");
    return b;
  }

  @Test
  void aVersionWrittenWithTheExcludeDirective_readsBackOutOfTheIndex() {
    ObjectNode body = body(new Random(3), "x");
    StoredDocument d =
        new StoredDocument(
            "epk", "x", PartitionKeyValue.of("k"), body, 99, StoredDocument.NOT_INDEXED, 5, 7, 5);
    StoredDocument back = Codec.decodeDocument(Codec.encode(d));
    assertThat(back.indexed()).isFalse();
    assertThat(back.indexedTerms()).isZero();
  }

  @Test
  void documents_andChangeRecords_readBackAsWritten() {
    Random random = new Random(7);
    for (int i = 0; i < 200; i++) {
      ObjectNode current = body(random, "d" + i);
      StoredDocument d =
          new StoredDocument(
              "epk" + i,
              "d" + i,
              PartitionKeyValue.of("k" + i),
              current,
              321,
              12,
              40 + i,
              1000L * i,
              7 + i);
      StoredDocument back = Codec.decodeDocument(Codec.encode(d));
      assertThat(back.body()).isEqualTo(current);
      assertThat(back)
          .extracting(
              StoredDocument::epk,
              StoredDocument::id,
              StoredDocument::sizeBytes,
              StoredDocument::indexedTerms,
              StoredDocument::lsn,
              StoredDocument::timestampMillis,
              StoredDocument::rangeLsn)
          .containsExactly(d.epk(), d.id(), 321, 12, 40L + i, 1000L * i, 7L + i);
      assertThat(back.partitionKey()).isEqualTo(d.partitionKey());

      ObjectNode previous = i % 3 == 0 ? null : body(random, "d" + i);
      ChangeRecord.Operation op =
          switch (i % 3) {
            case 0 -> ChangeRecord.Operation.CREATE;
            case 1 -> ChangeRecord.Operation.REPLACE;
            default -> ChangeRecord.Operation.DELETE;
          };
      ChangeRecord c =
          new ChangeRecord(
              40 + i,
              1000L * i,
              op,
              d.epk(),
              d.id(),
              d.partitionKey(),
              op == ChangeRecord.Operation.DELETE ? null : current,
              previous,
              i,
              321,
              i % 5 == 0,
              7 + i);
      for (byte[] encoded :
          new byte[][] {Codec.encode(c), Codec.encode(c, c.current() == null ? null : d.json())}) {
        assertThat(Codec.decodeChange(encoded)).isEqualTo(c);
      }
    }
  }
}
