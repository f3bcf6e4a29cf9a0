package io.cosmolab.engine.document;

import java.nio.charset.StandardCharsets;

/**
 * The etags of stored documents: {@code "ssssssss-0000-0000-0000-llllllllllll"}, the container's
 * salt and the LSN of the write in hex, so unique per container and write. Made from the two
 * numbers whenever asked rather than kept: a string per stored version was two objects for the
 * collector to copy (docs/benchmarks.md, "What a stored document keeps").
 */
public final class Etags {
  private Etags() {}

  private static final byte[] TEMPLATE =
      "\"00000000-0000-0000-0000-000000000000\"".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  /** The etag of the write at {@code lsn} in the container whose etags {@code salt} salts. */
  public static String of(int salt, long lsn) {
    byte[] out = TEMPLATE.clone();
    writeHex(salt & 0xFFFFFFFFL, out, 1, 8);
    writeHex(lsn, out, 25, 12);
    return new String(out, StandardCharsets.ISO_8859_1);
  }

  private static void writeHex(long v, byte[] out, int at, int digits) {
    for (int i = at + digits - 1; i >= at; i--) {
      out[i] = HEX[(int) (v & 0xF)];
      v >>>= 4;
    }
  }
}
