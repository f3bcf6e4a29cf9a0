package io.cosmolab.engine.store;

import java.util.Comparator;

/**
 * Orders strings as their UTF-8 bytes order, which is code point order. Both stores order document
 * ids this way (RocksDB compares key bytes), and so does anything that resumes a walk by id: Java's
 * {@link String#compareTo} orders UTF-16 code units instead, which puts a supplementary character
 * (a surrogate pair, U+D800–U+DFFF) before U+E000–U+FFFF, where UTF-8 puts it after.
 */
public final class Utf8Order {
  private Utf8Order() {}

  /** Code point (UTF-8 byte) order. */
  public static final Comparator<String> COMPARATOR = Utf8Order::compare;

  /** Compares by code point: negative, zero or positive as {@code a} sorts before, with, after. */
  public static int compare(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        // below the surrogates, and between two surrogates, UTF-16 order is code point order;
        // a surrogate against U+E000..U+FFFF is the one case where the two orders disagree
        boolean sx = Character.isSurrogate(x);
        boolean sy = Character.isSurrogate(y);
        if (sx != sy && (x >= 0xE000 || y >= 0xE000)) {
          return sx ? 1 : -1;
        }
        return x - y;
      }
    }
    return a.length() - b.length();
  }
}
