package io.cosmolab.engine.document;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Strict UTF-8 (RFC 3629): the byte sequences that encode a code point, each in its shortest form,
 * none of them a surrogate or past U+10FFFF. Jackson decodes overlong forms without complaint
 * ({@code C1 A1} as {@code a}, {@code C0 AF} as {@code /}), so a body is checked here before it is
 * parsed: what is stored is then exactly what was sent.
 *
 * <p>Runs of ASCII, most of a typical document, are skipped eight bytes at a time.
 */
public final class Utf8 {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long HIGH_BITS = 0x8080808080808080L;

  private Utf8() {}

  /**
   * The length of {@code s} encoded as UTF-8, without encoding it. An unpaired surrogate counts as
   * the one byte of {@code String.getBytes(UTF_8)}'s replacement, {@code ?}.
   */
  public static long length(String s) {
    long n = s.length(); // one byte per char, and the extra bytes below
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 0x80) {
        if (c < 0x800) {
          n += 1;
        } else if (Character.isHighSurrogate(c)
            && i + 1 < s.length()
            && Character.isLowSurrogate(s.charAt(i + 1))) {
          n += 2; // two chars, four bytes
          i++;
        } else if (!Character.isSurrogate(c)) {
          n += 2;
        }
      }
    }
    return n;
  }

  /** The index of the first byte of the first invalid sequence in {@code b}, or -1 when valid. */
  public static int firstInvalid(byte[] b) {
    int i = 0;
    int n = b.length;
    while (i < n) {
      if (i + 8 <= n && (((long) LONGS.get(b, i)) & HIGH_BITS) == 0) {
        i += 8;
        continue;
      }
      int c = b[i] & 0xFF;
      if (c < 0x80) {
        i++;
        continue;
      }
      int length;
      int low = 0x80; // the second byte's range, narrowed where shorter forms or surrogates lie
      int high = 0xBF;
      if (c >= 0xC2 && c <= 0xDF) {
        length = 2;
      } else if (c >= 0xE0 && c <= 0xEF) {
        length = 3;
        if (c == 0xE0) {
          low = 0xA0; // below: overlong
        } else if (c == 0xED) {
          high = 0x9F; // above: surrogates
        }
      } else if (c >= 0xF0 && c <= 0xF4) {
        length = 4;
        if (c == 0xF0) {
          low = 0x90; // below: overlong
        } else if (c == 0xF4) {
          high = 0x8F; // above: past U+10FFFF
        }
      } else {
        return i; // a continuation byte alone, C0/C1 (overlong) or F5-FF
      }
      if (i + length > n) {
        return i;
      }
      int second = b[i + 1] & 0xFF;
      if (second < low || second > high) {
        return i;
      }
      for (int k = 2; k < length; k++) {
        int next = b[i + k] & 0xFF;
        if (next < 0x80 || next > 0xBF) {
          return i;
        }
      }
      i += length;
    }
    return -1;
  }
}
