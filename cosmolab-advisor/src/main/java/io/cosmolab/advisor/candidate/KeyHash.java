package io.cosmolab.advisor.candidate;

/**
 * A 64-bit hash of a key's text, fed piece by piece so the text need not be built: FNV-1a over its
 * chars, then MurmurHash3's finaliser. Never 0, which stands for "no key".
 *
 * <p>Distinct texts collide with probability about 2<sup>-64</sup> per pair; where a collision
 * would merge two keys' counts, we accept that assumption, as the HLL sketch does.
 */
final class KeyHash {
  private KeyHash() {}

  static final long START = 0xcbf29ce484222325L;

  static long chr(long h, char c) {
    return (h ^ c) * 0x100000001b3L;
  }

  static long str(long h, String s) {
    for (int i = 0; i < s.length(); i++) {
      h = chr(h, s.charAt(i));
    }
    return h;
  }

  /** {@code s} as a JSON string the way {@link Candidate.Key#text()} writes it. */
  static long quoted(long h, String s) {
    return chr(escaped(chr(h, '"'), s), '"');
  }

  /** The chars of {@code s} inside a JSON string, without the quotes. */
  static long escaped(long h, String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        h = chr(h, '\\');
      }
      h = chr(h, c);
    }
    return h;
  }

  static long finish(long h) {
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return h == 0 ? 1 : h;
  }

  static long of(String text) {
    return finish(str(START, text));
  }
}
