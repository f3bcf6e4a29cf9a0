package io.cosmolab.engine;

import io.cosmolab.engine.error.CosmosError;
import java.util.Locale;

/** What a permission allows on its resource: reading only, or everything a data client does. */
public enum PermissionMode {
  /** Reads, read feeds and queries. */
  READ,
  /** Reads and writes: create, replace, upsert, patch, delete, batches, stored procedure runs. */
  ALL;

  /**
   * The mode a permission's {@code permissionMode} names, in any case ({@code Read}, {@code read},
   * {@code All}, {@code all}: the REST reference writes the first, the SDKs send the second).
   *
   * @throws io.cosmolab.engine.error.CosmosException 400 for anything else
   */
  public static PermissionMode parse(String text) {
    if (text != null) {
      String t = text.strip().toLowerCase(Locale.ROOT);
      if (t.equals("read")) {
        return READ;
      }
      if (t.equals("all")) {
        return ALL;
      }
    }
    throw CosmosError.BAD_REQUEST.exception(
        "a permission's permissionMode must be Read or All, was %s",
        text == null ? "missing" : "'" + text + "'");
  }
}
