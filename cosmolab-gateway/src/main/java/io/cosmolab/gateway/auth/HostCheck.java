package io.cosmolab.gateway.auth;

import io.cosmolab.engine.error.CosmosError;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Answers only requests whose {@code Host} names this server: {@code localhost}, an IP address, the
 * host it was bound to, or a name the operator allowed.
 *
 * <p>Why: the emulator's key is public, so anything that can reach the port can use the account. A
 * page in the developer's browser can't reach {@code 127.0.0.1} across origins — unless its own
 * domain is re-pointed there (DNS rebinding), after which the browser sends the page's domain as
 * the Host. Refusing unknown names closes that door; IP literals are safe, since a rebinding page
 * cannot make the browser send one for a domain of its own.
 *
 * <p>A request without a Host header (HTTP/1.0) is served: browsers always send one.
 */
public final class HostCheck {
  private final Set<String> names;

  /** The Host last found allowed (a benign race: at worst a thread checks a Host again). */
  private volatile String lastAllowed;

  /**
   * @param allowed names besides {@code localhost} and IP addresses, case-insensitive; may be empty
   */
  public HostCheck(Set<String> allowed) {
    Set<String> n = new TreeSet<>();
    n.add("localhost");
    for (String a : allowed) {
      if (a != null && !a.isBlank()) {
        n.add(a.strip().toLowerCase(Locale.ROOT));
      }
    }
    this.names = Set.copyOf(n);
  }

  /**
   * Passes when the Host header names this server.
   *
   * @param host the Host header as sent, perhaps with a port; null when absent
   * @throws io.cosmolab.engine.error.CosmosException 403 naming the host and how to allow it
   */
  public void check(String host) {
    if (host == null || host.equals(lastAllowed)) {
      return;
    }
    String name = hostName(host.strip());
    if (name != null && (names.contains(name) || isIpLiteral(name))) {
      lastAllowed = host; // a client sends the same Host on every request: check it once
      return;
    }
    throw CosmosError.FORBIDDEN_HOST.exception(
        "the Host header '%s' does not name this emulator, which answers only to %s and IP"
            + " addresses (a guard against DNS rebinding from a browser); to reach it by another"
            + " name, start it with --allow-host <name>",
        host.length() > 100 ? host.substring(0, 100) + "..." : host, String.join(", ", names));
  }

  /** The name part of {@code host[:port]} or {@code [v6]:port}, lower case; null if malformed. */
  private static String hostName(String host) {
    if (host.startsWith("[")) {
      int end = host.indexOf(']');
      return end < 0 ? null : host.substring(0, end + 1).toLowerCase(Locale.ROOT);
    }
    int colon = host.indexOf(':');
    String name = colon >= 0 ? host.substring(0, colon) : host;
    if (name.endsWith(".")) {
      name = name.substring(0, name.length() - 1); // "localhost." is localhost
    }
    return name.toLowerCase(Locale.ROOT);
  }

  /** True for a dotted IPv4 address or a bracketed IPv6 one, without resolving anything. */
  static boolean isIpLiteral(String name) {
    if (name.startsWith("[") && name.endsWith("]")) {
      String inner = name.substring(1, name.length() - 1);
      return !inner.isEmpty()
          && inner
              .chars()
              .allMatch(c -> c == ':' || c == '.' || c == '%' || Character.digit(c, 16) >= 0);
    }
    String[] parts = name.split("\\.", -1);
    if (parts.length != 4) {
      return false;
    }
    for (String p : parts) {
      if (p.isEmpty()
          || p.length() > 3
          || !p.chars().allMatch(Character::isDigit)
          || Integer.parseInt(p) > 255) {
        return false;
      }
    }
    return true;
  }
}
