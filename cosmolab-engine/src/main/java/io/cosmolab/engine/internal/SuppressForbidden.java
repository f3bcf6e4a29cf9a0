package io.cosmolab.engine.internal;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Lets one method, field or class call an API that build/forbidden-apis.txt bans (the build's
 * forbiddenapis check honours any annotation of this name). Use it only where the ban does not
 * apply, and say why in {@link #value}: a composition root taking the system clock as its default,
 * a signature checked against the wall clock the clients sign with.
 */
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.FIELD, ElementType.TYPE, ElementType.CONSTRUCTOR})
public @interface SuppressForbidden {
  /** Why the banned call is right here. */
  String value();
}
