package io.cosmolab.testkit;

import io.cosmolab.engine.throughput.ThrottlingMode;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How {@link CosmosLabExtension} starts its lab, on a test class. Without it: observe mode, the
 * throughput rule for partitions, scale 1, one lab per class.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface LabConfig {
  ThrottlingMode throttling() default ThrottlingMode.OBSERVE;

  /** Physical partitions for new containers; 0 follows the throughput rule. */
  int partitions() default 0;

  double scale() default 1;

  /**
   * True to share one lab across every test class that asks for the same configuration in this run
   * (faster); false for one lab per class (isolated).
   */
  boolean perRun() default false;
}
