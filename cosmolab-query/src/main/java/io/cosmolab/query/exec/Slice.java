package io.cosmolab.query.exec;

/**
 * OFFSET/LIMIT and TOP: skips {@code skip} results, then passes at most {@code take}, and pulls no
 * further (so a TOP over a scan stops the scan).
 */
final class Slice<T> implements Operator<T> {
  private final Operator<T> upstream;
  private long skip;
  private long take;

  Slice(Operator<T> upstream, long skip, long take) {
    this.upstream = upstream;
    this.skip = skip;
    this.take = take;
  }

  @Override
  public T next() {
    if (take <= 0) {
      return null; // a LIMIT 0 (or TOP 0) reads nothing, the rows OFFSET would skip included
    }
    for (; skip > 0; skip--) {
      if (upstream.next() == null) {
        skip = 0;
        take = 0;
        return null;
      }
    }
    take--;
    T next = upstream.next();
    if (next == null) {
      take = 0;
    }
    return next;
  }
}
