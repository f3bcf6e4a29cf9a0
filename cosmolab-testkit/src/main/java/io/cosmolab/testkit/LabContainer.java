package io.cosmolab.testkit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The fresh container {@link CosmosLabExtension} injects into a {@code CosmosContainer} parameter:
 * its partition key paths (one path: {@code Hash}; two or three: hierarchical {@code MultiHash})
 * and its physical partitions.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface LabContainer {
  /** The partition key paths. */
  String[] partitionKey() default {"/id"};

  /** Physical partitions; 0 uses the lab's default. */
  int partitions() default 0;
}
