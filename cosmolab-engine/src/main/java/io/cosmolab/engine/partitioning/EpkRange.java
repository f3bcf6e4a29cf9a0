package io.cosmolab.engine.partitioning;

import io.cosmolab.engine.error.CosmosError;

/**
 * A half-open range of effective partition keys, {@code [min, max)}, compared as upper-case hex
 * strings. {@code ""} is the smallest key and {@code "FF"} the exclusive end of the key space.
 */
public record EpkRange(String min, String max) {

  /** The smallest EPK. */
  public static final String MIN = "";

  /** The exclusive end of the key space: every EPK is below it. */
  public static final String MAX = "FF";

  /** The whole key space. */
  public static final EpkRange FULL = new EpkRange(MIN, MAX);

  public EpkRange {
    if (min == null || max == null) {
      throw CosmosError.BAD_REQUEST.exception(
          "an EPK range needs both ends, got [%s, %s)", min, max);
    }
    if (!isHex(min) || !isHex(max)) {
      throw CosmosError.BAD_REQUEST.exception(
          "EPK range ends must be upper-case hex strings, got [%s, %s)", min, max);
    }
    if (min.compareTo(max) >= 0) {
      throw CosmosError.BAD_REQUEST.exception(
          "an EPK range needs min < max, got [%s, %s)", min, max);
    }
  }

  private static boolean isHex(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'F'))) {
        return false;
      }
    }
    return true;
  }

  public boolean contains(String epk) {
    return epk.compareTo(min) >= 0 && epk.compareTo(max) < 0;
  }

  /** True if every key of {@code other} is in this range. */
  public boolean encloses(EpkRange other) {
    return other.min.compareTo(min) >= 0 && other.max.compareTo(max) <= 0;
  }

  public boolean overlaps(EpkRange other) {
    return min.compareTo(other.max) < 0 && other.min.compareTo(max) < 0;
  }

  /** The keys in both ranges, or {@code null} if they do not overlap. */
  public EpkRange intersect(EpkRange other) {
    String lo = min.compareTo(other.min) >= 0 ? min : other.min;
    String hi = max.compareTo(other.max) <= 0 ? max : other.max;
    return lo.compareTo(hi) < 0 ? new EpkRange(lo, hi) : null;
  }

  @Override
  public String toString() {
    return "[" + (min.isEmpty() ? "\"\"" : min) + ", " + max + ")";
  }
}
