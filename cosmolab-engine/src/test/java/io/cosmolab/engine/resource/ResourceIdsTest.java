package io.cosmolab.engine.resource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ResourceIdsTest {
  @Test
  void theDocumentPartReadFromTheText_isThatOfTheDecodedBytes() {
    Random r = new Random(42);
    for (int i = 0; i < 20_000; i++) {
      byte[] container = new byte[8];
      r.nextBytes(container);
      long sequence = r.nextLong() & ((1L << 55) - 1);
      byte[] rid = ResourceIds.document(container, sequence);
      String text = ResourceIds.encode(rid);
      assertThat(ResourceIds.documentPart(text))
          .as(text)
          .isEqualTo(ResourceIds.documentPart(rid))
          .isEqualTo(sequence << 8);
    }
  }

  @Test
  void aTextThatIsNotADocumentRid_isRefused() {
    assertThatThrownBy(() -> ResourceIds.documentPart("abc"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ResourceIds.documentPart("AAAAAAAAAAAAAAAAAAAAA*=="))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
