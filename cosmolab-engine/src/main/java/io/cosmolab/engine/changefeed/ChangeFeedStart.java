package io.cosmolab.engine.changefeed;

import java.time.Instant;

/** Where a change feed starts reading. */
public sealed interface ChangeFeedStart {
  /** Every change still in the log. */
  record Beginning() implements ChangeFeedStart {}

  /** Only changes made after this request. */
  record Now() implements ChangeFeedStart {}

  /** Changes made at or after a moment. */
  record PointInTime(Instant time) implements ChangeFeedStart {}

  /** Changes after the continuation of an earlier page (a position in the container's log). */
  record Continuation(long lsn) implements ChangeFeedStart {}

  static ChangeFeedStart beginning() {
    return new Beginning();
  }

  static ChangeFeedStart now() {
    return new Now();
  }

  static ChangeFeedStart pointInTime(Instant time) {
    return new PointInTime(time);
  }

  static ChangeFeedStart continuation(long lsn) {
    return new Continuation(lsn);
  }
}
