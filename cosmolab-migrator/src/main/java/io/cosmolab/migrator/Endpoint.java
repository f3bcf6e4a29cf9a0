package io.cosmolab.migrator;

import java.net.URI;
import java.util.Objects;

/** An account to reach: its URL and master key. The key is never written to the state directory. */
public record Endpoint(URI uri, String key) {
  /** A local {@code cosmolab serve} (or the Azure emulator): {@code https://localhost:8081}. */
  public static final URI LOCAL = URI.create("https://localhost:8081");

  public Endpoint {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(key, "key");
  }

  @Override
  public String toString() {
    return uri.toString(); // never the key
  }
}
