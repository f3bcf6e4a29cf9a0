package io.cosmolab.engine.routing;

import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * Where a physical partition splits.
 *
 * <ul>
 *   <li>Throughput splits cut the parent's share of the hash space in half ({@code
 *       partitioning-model.md} §1.4: the key-space midpoint).
 *   <li>Storage splits cut at the median of the stored bytes, moved to a logical-partition boundary
 *       so one logical key never spans two partitions (§1.4: "a split cannot divide a single
 *       logical partition").
 * </ul>
 */
/*
 * How the midpoint is found. V2 EPKs are 32 hex characters whose first byte is at most 3F, so a
 * level's hash space is [0, 4 * 16^31); "" is its start and "FF" its exclusive end. For MultiHash
 * the EPK is 32 characters per level. We try the first level first (a 32-character boundary, as the
 * service splits a hierarchical container at the first level), and go one level deeper only when
 * the range lies inside one first-level value (a large hierarchical prefix that spans partitions).
 *
 * V1 EPKs are "05" + an order-preserving encoding of the 32-bit hash as a double, followed by the
 * key's components. For those we decode the hash number from each end, take the middle hash, and
 * encode it back: a boundary between two hash values.
 */
public final class SplitPoints {
  private SplitPoints() {}

  private static final int LEVEL_CHARS = 32;

  /**
   * The midpoint of {@code range} in the hash space of {@code definition}, or {@code null} if the
   * range holds a single hash value and cannot be cut.
   */
  public static String midpoint(EpkRange range, PartitionKeyDefinition definition) {
    if (definition.version() == 1) {
      return midpointV1(range);
    }
    int levels = definition.isHierarchical() ? definition.paths().size() : 1;
    for (int level = 1; level <= levels; level++) {
      int width = LEVEL_CHARS * level;
      BigInteger lo = valueOf(range.min(), width, false);
      BigInteger hi = valueOf(range.max(), width, true);
      BigInteger mid = lo.add(hi).shiftRight(1);
      String candidate = toHex(mid, width);
      if (candidate.compareTo(range.min()) > 0 && candidate.compareTo(range.max()) < 0) {
        return candidate;
      }
    }
    return null;
  }

  private static BigInteger valueOf(String epk, int width, boolean upperEnd) {
    if (upperEnd && epk.equals(EpkRange.MAX)) {
      // every level-one block is below 4000..., the exclusive end of the hash space
      return BigInteger.valueOf(4).shiftLeft(4 * width - 4);
    }
    String padded =
        epk.length() >= width ? epk.substring(0, width) : epk + "0".repeat(width - epk.length());
    BigInteger v = padded.isEmpty() ? BigInteger.ZERO : new BigInteger(padded, 16);
    if (upperEnd && epk.length() > width && !onlyZeros(epk, width)) {
      v = v.add(BigInteger.ONE); // the end lies past this truncated value
    }
    return v;
  }

  private static boolean onlyZeros(String s, int from) {
    for (int i = from; i < s.length(); i++) {
      if (s.charAt(i) != '0') {
        return false;
      }
    }
    return true;
  }

  private static String toHex(BigInteger v, int width) {
    String s = v.toString(16).toUpperCase(Locale.ROOT);
    return "0".repeat(Math.max(0, width - s.length())) + s;
  }

  private static String midpointV1(EpkRange range) {
    double lo = range.min().isEmpty() ? 0 : decodeV1Hash(range.min());
    double hi = range.max().equals(EpkRange.MAX) ? 4294967296.0 : decodeV1Hash(range.max());
    if (Double.isNaN(lo) || Double.isNaN(hi)) {
      return null;
    }
    double mid = Math.floor((lo + hi) / 2);
    String candidate = EffectivePartitionKey.encodeV1Number(mid);
    return candidate.compareTo(range.min()) > 0 && candidate.compareTo(range.max()) < 0
        ? candidate
        : null;
  }

  /** The leading number of a V1 EPK (its hash), or NaN if it does not start with one. */
  static double decodeV1Hash(String epk) {
    if (epk.length() < 4 || !epk.startsWith("05")) {
      return Double.NaN;
    }
    long payload = Long.parseLong(epk.substring(2, 4), 16) << 56;
    int shift = 56;
    for (int i = 4; i + 2 <= epk.length() && shift > 0; i += 2) {
      int group = Integer.parseInt(epk.substring(i, i + 2), 16);
      shift -= 7;
      payload |= ((long) (group >>> 1)) << shift; // 7 bits below the previous ones
      if ((group & 1) == 0) {
        break;
      }
    }
    long bits = payload < 0 ? payload ^ Long.MIN_VALUE : -payload;
    return Double.longBitsToDouble(bits);
  }

  /**
   * Boundaries that cut the key space into {@code count} equal parts of the hash space (the layout
   * of a new container, [D] PART: "the hash space is split evenly").
   */
  public static List<String> evenBoundaries(PartitionKeyDefinition definition, int count) {
    List<String> out = new ArrayList<>(Math.max(0, count - 1));
    if (definition.version() == 1) {
      for (int i = 1; i < count; i++) {
        out.add(EffectivePartitionKey.encodeV1Number(Math.floor(4294967296.0 * i / count)));
      }
      return out;
    }
    BigInteger space = BigInteger.valueOf(4).shiftLeft(4 * LEVEL_CHARS - 4);
    for (int i = 1; i < count; i++) {
      out.add(
          toHex(
              space.multiply(BigInteger.valueOf(i)).divide(BigInteger.valueOf(count)),
              LEVEL_CHARS));
    }
    return out;
  }

  /** The width of a range in the first level's hash space, for choosing which range to split. */
  public static BigInteger width(EpkRange range) {
    return valueOf(range.max(), LEVEL_CHARS, true)
        .subtract(valueOf(range.min(), LEVEL_CHARS, false));
  }

  /** One logical partition's share of a physical partition's storage, in EPK order. */
  public record KeyBytes(String epk, long bytes) {}

  /**
   * The logical-partition boundary closest to the median of the stored bytes, or {@code null} if
   * the partition holds a single logical partition (which can never be split).
   *
   * @param logicalPartitions every logical partition of the physical partition, in EPK order
   * @param totalBytes their summed size
   */
  public static String storageMedian(Iterator<KeyBytes> logicalPartitions, long totalBytes) {
    long half = totalBytes / 2;
    long before = 0;
    String best = null;
    long bestDistance = Long.MAX_VALUE;
    boolean first = true;
    while (logicalPartitions.hasNext()) {
      KeyBytes lp = logicalPartitions.next();
      if (!first) {
        long distance = Math.abs(before - half);
        if (distance < bestDistance) {
          bestDistance = distance;
          best = lp.epk();
        } else if (before > half) {
          break; // distances only grow from here
        }
      }
      first = false;
      before += lp.bytes();
    }
    return best;
  }
}
