package io.cosmolab.query.exec;

/**
 * One stage of a running query, pulled by the stage after it: each {@link #next} produces one item,
 * or null once the stage is exhausted. A stage does only the work its consumer asks for, so a page
 * that stops after its rows stops the scan beneath it.
 */
@FunctionalInterface
interface Operator<T> {
  /** The next item, or null when there are no more. */
  T next();
}
