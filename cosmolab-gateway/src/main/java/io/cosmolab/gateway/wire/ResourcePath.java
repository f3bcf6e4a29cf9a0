package io.cosmolab.gateway.wire;

import io.cosmolab.engine.error.CosmosError;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A request path, split into the Cosmos resource model ({@code gateway-protocol.md} §3.1).
 *
 * <pre>
 *   /                                   account
 *   /dbs[/{db}]                         databases
 *   /dbs/{db}/colls[/{coll}]            containers
 *   /dbs/{db}/colls/{coll}/{child}[/{id}]   docs, pkranges, sprocs, triggers, udfs, ...
 *   /dbs/{db}/users[/{user}]            users
 *   /dbs/{db}/users/{user}/permissions[/{perm}]   permissions
 *   /offers[/{offer}]                   offers
 * </pre>
 *
 * Segments alternate between a type ({@code dbs}) and a name or RID. A path that ends on a type
 * addresses a feed (create, list, query); one that ends on a name addresses an item. Segments are
 * percent-decoded ({@code +} stays a plus: it is a path, not a form); trailing slashes are ignored,
 * since some SDKs send them.
 *
 * @param segments the decoded segments, without empty ones
 */
public record ResourcePath(List<String> segments) {

  private static final Set<String> CONTAINER_CHILDREN =
      Set.of("docs", "pkranges", "sprocs", "triggers", "udfs", "conflicts");

  public ResourcePath {
    segments = List.copyOf(segments);
  }

  /** Parses the path part of a request URI (no query string). */
  public static ResourcePath parse(String rawPath) {
    List<String> out = new ArrayList<>(8);
    for (int start = 0, end; start <= rawPath.length(); start = end + 1) {
      end = rawPath.indexOf('/', start);
      if (end < 0) {
        end = rawPath.length();
      }
      if (end > start) {
        out.add(decode(rawPath.substring(start, end)));
      }
    }
    return new ResourcePath(out);
  }

  private static String decode(String s) {
    if (s.indexOf('%') < 0) {
      return s; // a '+' in a path is a plus, not a space: nothing to decode
    }
    try {
      return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw CosmosError.BAD_REQUEST.exception(
          "the path segment '%s' is not valid percent-encoding", s);
    }
  }

  public boolean isAccount() {
    return segments.isEmpty();
  }

  /** True when the path ends on a type ({@code /dbs/d/colls}): a feed. */
  public boolean isFeed() {
    return segments.size() % 2 == 1;
  }

  /**
   * The resource type the request signs with: the last type segment, lower case; {@code ""} for the
   * account.
   */
  public String resourceType() {
    if (segments.isEmpty()) {
      return "";
    }
    int i = isFeed() ? segments.size() - 1 : segments.size() - 2;
    return segments.get(i).toLowerCase(Locale.ROOT);
  }

  /**
   * The resource link the request signs with: the parent for a feed, the item itself otherwise,
   * without leading or trailing slash ({@code gateway-protocol.md} §2).
   */
  public String resourceLink() {
    int n = isFeed() ? segments.size() - 1 : segments.size();
    return String.join("/", segments.subList(0, n));
  }

  /** The RID the link names when the request addresses by RID: the link's last id segment. */
  public String lastIdSegment() {
    int n = isFeed() ? segments.size() - 1 : segments.size();
    return n == 0 ? "" : segments.get(n - 1);
  }

  /** The segment at {@code i}, or null. */
  public String segment(int i) {
    return i < segments.size() ? segments.get(i) : null;
  }

  public int size() {
    return segments.size();
  }

  /** The kind of resource the path addresses, or {@link Kind#UNKNOWN}. */
  public Kind kind() {
    int n = segments.size();
    if (n == 0) {
      return Kind.ACCOUNT;
    }
    String first = segments.get(0);
    if (first.equals("offers") && n <= 2) {
      return Kind.OFFERS;
    }
    if (!first.equals("dbs")) {
      return Kind.UNKNOWN;
    }
    if (n <= 2) {
      return Kind.DATABASES;
    }
    String second = segments.get(2);
    if (second.equals("users")) {
      if (n <= 4) {
        return Kind.USERS;
      }
      return n <= 6 && segments.get(4).equals("permissions") ? Kind.PERMISSIONS : Kind.UNKNOWN;
    }
    if (!second.equals("colls")) {
      return Kind.UNKNOWN;
    }
    if (n <= 4) {
      return Kind.CONTAINERS;
    }
    String child = segments.get(4);
    if (n > 6 || !CONTAINER_CHILDREN.contains(child)) {
      return n > 6 && child.equals("docs") ? Kind.ATTACHMENTS : Kind.UNKNOWN;
    }
    return switch (child) {
      case "docs" -> Kind.DOCUMENTS;
      case "pkranges" -> Kind.PARTITION_KEY_RANGES;
      case "sprocs" -> Kind.STORED_PROCEDURES;
      case "triggers" -> Kind.TRIGGERS;
      case "udfs" -> Kind.USER_DEFINED_FUNCTIONS;
      default -> Kind.CONFLICTS;
    };
  }

  @Override
  public String toString() {
    return "/" + String.join("/", segments);
  }

  /** What a path addresses. */
  public enum Kind {
    ACCOUNT,
    DATABASES,
    CONTAINERS,
    DOCUMENTS,
    PARTITION_KEY_RANGES,
    STORED_PROCEDURES,
    TRIGGERS,
    USER_DEFINED_FUNCTIONS,
    CONFLICTS,
    OFFERS,
    USERS,
    PERMISSIONS,
    ATTACHMENTS,
    UNKNOWN
  }
}
