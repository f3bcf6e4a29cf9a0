package io.cosmolab.engine.partitioning;

/**
 * MurmurHash3 (Austin Appleby's public-domain algorithm), the two variants the service uses for
 * partition keys: x86 32-bit (hash V1) and x64 128-bit (hash V2 and MultiHash), both seed 0.
 * Written from the algorithm's description; checked by the SDKs' EPK test vectors.
 */
final class MurmurHash3 {
  private MurmurHash3() {}

  private static final long C1_64 = 0x87c37b91114253d5L;
  private static final long C2_64 = 0x4cf5ad432745937fL;

  /** The 128-bit hash as {h1, h2}; the reference digest is h1 then h2, each little-endian. */
  static long[] hash128(byte[] data, int length, long seed) {
    long h1 = seed;
    long h2 = seed;
    int blocks = length / 16;
    for (int i = 0; i < blocks; i++) {
      int at = i * 16;
      long k1 = getLongLe(data, at);
      long k2 = getLongLe(data, at + 8);
      k1 *= C1_64;
      k1 = Long.rotateLeft(k1, 31);
      k1 *= C2_64;
      h1 ^= k1;
      h1 = Long.rotateLeft(h1, 27);
      h1 += h2;
      h1 = h1 * 5 + 0x52dce729;
      k2 *= C2_64;
      k2 = Long.rotateLeft(k2, 33);
      k2 *= C1_64;
      h2 ^= k2;
      h2 = Long.rotateLeft(h2, 31);
      h2 += h1;
      h2 = h2 * 5 + 0x38495ab5;
    }
    int tail = blocks * 16;
    long k1 = 0;
    long k2 = 0;
    int rest = length & 15;
    for (int i = rest - 1; i >= 8; i--) {
      k2 ^= (data[tail + i] & 0xffL) << ((i - 8) * 8);
    }
    if (rest > 8) {
      k2 *= C2_64;
      k2 = Long.rotateLeft(k2, 33);
      k2 *= C1_64;
      h2 ^= k2;
    }
    for (int i = Math.min(rest, 8) - 1; i >= 0; i--) {
      k1 ^= (data[tail + i] & 0xffL) << (i * 8);
    }
    if (rest > 0) {
      k1 *= C1_64;
      k1 = Long.rotateLeft(k1, 31);
      k1 *= C2_64;
      h1 ^= k1;
    }
    h1 ^= length;
    h2 ^= length;
    h1 += h2;
    h2 += h1;
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 += h2;
    h2 += h1;
    return new long[] {h1, h2};
  }

  /** The 32-bit x86 hash. */
  static int hash32(byte[] data, int length, int seed) {
    final int c1 = 0xcc9e2d51;
    final int c2 = 0x1b873593;
    int h = seed;
    int blocks = length / 4;
    for (int i = 0; i < blocks; i++) {
      int at = i * 4;
      int k =
          (data[at] & 0xff)
              | (data[at + 1] & 0xff) << 8
              | (data[at + 2] & 0xff) << 16
              | (data[at + 3] & 0xff) << 24;
      k *= c1;
      k = Integer.rotateLeft(k, 15);
      k *= c2;
      h ^= k;
      h = Integer.rotateLeft(h, 13);
      h = h * 5 + 0xe6546b64;
    }
    int tail = blocks * 4;
    int k = 0;
    for (int i = (length & 3) - 1; i >= 0; i--) {
      k ^= (data[tail + i] & 0xff) << (i * 8);
    }
    if ((length & 3) != 0) {
      k *= c1;
      k = Integer.rotateLeft(k, 15);
      k *= c2;
      h ^= k;
    }
    h ^= length;
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h;
  }

  private static long fmix64(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }

  private static long getLongLe(byte[] b, int at) {
    long v = 0;
    for (int i = 7; i >= 0; i--) {
      v = (v << 8) | (b[at + i] & 0xffL);
    }
    return v;
  }
}
