package io.cosmolab.migrator;

/**
 * One source feed range's progress: where the change feed stands in it and what came from it.
 *
 * @param min the range's inclusive lower effective partition key (hex; "" is the first)
 * @param max its exclusive upper one ("FF" is the end of the key space)
 * @param position the range's own change-feed position inside the SDK's continuation (the token of
 *     the range, e.g. a quoted LSN); null when the continuation could not be read
 * @param copied documents of this range written by the snapshot copy
 * @param applied change-feed records of this range applied
 * @param lagDocuments changes in this range not yet read at its last page: the partition's LSN in
 *     the page's session token less the page's newest record LSN (0 once the feed was drained); -1
 *     when not known
 * @param split true once the range is gone, replaced by its children after a split (or by their
 *     union after a merge): its counts stay, frozen, and the children count from zero
 */
public record RangeProgress(
    String min,
    String max,
    String position,
    long copied,
    long applied,
    long lagDocuments,
    boolean split) {

  /** Whether this range holds the effective partition key {@code epk}. */
  public boolean holds(String epk) {
    return min.compareTo(epk) <= 0 && (max.equals("FF") || epk.compareTo(max) < 0);
  }

  /** The range as {@code [min,max)}. */
  public String label() {
    return "[" + min + "," + max + ")";
  }
}
