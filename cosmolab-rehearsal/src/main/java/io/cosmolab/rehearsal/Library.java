package io.cosmolab.rehearsal;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.workload.Access;
import io.cosmolab.advisor.workload.ContainerWorkload;
import io.cosmolab.advisor.workload.Operation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Built-in scenarios from the reference material's incidents, each runnable by name ({@code
 * cosmolab rehearse --example NAME}) and each checked by a test that shows the failure and the fix
 * in numbers ({@code LibraryTest}).
 */
public enum Library {
  /** Black Friday ×10 on /userId with a reseller's bot as one user; the fix spreads that user. */
  BLACK_FRIDAY(
      "black-friday",
      "orders on Black Friday, a x10 ramp and spike, one reseller placing a quarter of them:"
          + " /userId puts that user on one partition; /userId*10 spreads it over 10 buckets"),
  /** A VIP tenant onboarded with 40 % of the traffic. */
  VIP_TENANT(
      "vip-tenant",
      "sessions of 300 tenants; at 3 minutes a VIP tenant is onboarded with 40 % of the traffic:"
          + " /tenantId and /tenantId>/userId keep it on one partition until a storage split,"
          + " /tenantId+/userId spreads it and fans the tenant dashboard out"),
  /** A chatty IoT device whose logical partition reaches 20 GB. */
  IOT_HOT_DEVICE(
      "iot-hot-device",
      "telemetry: a device that already holds 19.9 GB goes hot at 3 minutes; under /deviceId its"
          + " logical partition reaches 20 GB and its writes fail (403/1014); /deviceId+/day caps"
          + " each logical partition at a day, but the device's day is still one hot partition"),
  /** Time as the key: every new write lands on today's partition. */
  TIME_KEY(
      "time-key",
      "orders keyed by /createdDate or /yyyyMM: every write of the day lands on one logical and"
          + " one physical partition, which throttles while the others idle; /userId spreads"),
  /** Player positions on game servers; a launch crowds 40 % of the players onto one server. */
  GAME_HOT_SERVER(
      "game-hot-server",
      "player positions: at 2 minutes a launch event crowds 40 % of the players onto one server;"
          + " /serverId puts every position update of that server on one partition; /serverId*20"
          + " spreads it over 20 buckets, and the 'players on a server' query reads all 20"),
  /** A hierarchical key whose levels are in the wrong order for the queries. */
  HIERARCHICAL_ORDER(
      "hierarchical-order",
      "sessions of 300 tenants whose traffic doubles at month end: /tenantId>/userId sends each"
          + " dashboard query to its tenant's partition; /userId>/tenantId, the same paths in the"
          + " wrong order, cannot route a query by tenant alone and sends it to every partition"),
  /** Random suffix buckets where no key needed them: every read by the device scans everything. */
  SUFFIX_FAN_OUT(
      "suffix-fan-out",
      "events of 4,000 devices, indexed for cheap writes (only /ts: the key routed every read):"
          + " /deviceId*100, random buckets added 'for scale', sends each 'a device's events' query"
          + " to every partition, where it scans all the events for a few (retrieved/output far"
          + " above 50); /deviceId reads one logical partition, and no device writes enough to"
          + " need buckets"),
  /** Order pages look up their products: a products key other than the join's fans each out. */
  ORDERS_JOIN_PRODUCTS(
      "orders-join-products",
      "orders (keyed by /userId) show each line's product, a lookup of the order's /productId"
          + " by /id in the products container: products keyed by /category send every lookup to"
          + " all partitions and throttle them all at the sale; /id answers each from one"
          + " partition, and only the rarer category browse fans out");

  private final String cliName;
  private final String description;

  Library(String cliName, String description) {
    this.cliName = cliName;
    this.description = description;
  }

  public String cliName() {
    return cliName;
  }

  public String description() {
    return description;
  }

  /** The scenario named {@code name} on the command line. */
  public static Library named(String name) {
    for (Library l : values()) {
      if (l.cliName.equalsIgnoreCase(name.strip())) {
        return l;
      }
    }
    List<String> names = new ArrayList<>();
    for (Library l : values()) {
      names.add(l.cliName);
    }
    throw new IllegalArgumentException(
        "--example " + name + " is not one of: " + String.join(", ", names));
  }

  private static final Instant BLACK_FRIDAY_2026 = Instant.parse("2026-11-27T08:00:00Z");

  /** The scenario, with its seed (42). */
  public Scenario scenario() {
    return switch (this) {
      case BLACK_FRIDAY ->
          new Scenario(
              cliName,
              description,
              workload(
                  30_000,
                  1_000_000,
                  List.of(
                      new Operation(Operation.Type.CREATE, 150),
                      new Operation(Operation.Type.READ, 600),
                      query(
                          "my orders", "SELECT * FROM c WHERE c.userId = @user", 20, "@user", 5))),
              List.of(Candidate.single("/userId"), Candidate.bucketed("/userId", 10)),
              orders(4000, 11),
              BLACK_FRIDAY_2026,
              List.of(
                  Phase.constant("normal", minutes(2), 1),
                  Phase.ramp("ramp", minutes(2), 1, 10),
                  Phase.constant("spike", minutes(4), 10),
                  Phase.ramp("cool-down", minutes(2), 10, 2)),
              List.of(
                  Event.hot(
                      Duration.ZERO,
                      "a reseller's bot orders as one user",
                      "/userId",
                      TextNode.valueOf("u-reseller"),
                      0.25)),
              Map.of("/createdDate", "yyyy-MM-dd"),
              Duration.ofSeconds(5),
              null,
              0,
              42);
      case VIP_TENANT ->
          new Scenario(
              cliName,
              description,
              workload(
                  24_000,
                  1_000_000,
                  List.of(
                      new Operation(Operation.Type.CREATE, 300),
                      new Operation(Operation.Type.READ, 1200),
                      query(
                          "tenant dashboard",
                          "SELECT * FROM c WHERE c.tenantId = @tenant",
                          30,
                          "@tenant",
                          10),
                      query(
                          "a user's sessions",
                          "SELECT * FROM c WHERE c.userId = @user AND c.tenantId = @tenant",
                          200,
                          "@tenant",
                          5))),
              List.of(
                  Candidate.single("/tenantId"),
                  Candidate.synthetic("/tenantId", "/userId"),
                  Candidate.hierarchical("/tenantId", "/userId")),
              sessions(4000, 12),
              BLACK_FRIDAY_2026,
              List.of(
                  Phase.constant("before", minutes(3), 1),
                  Phase.constant("onboarded", minutes(3), 1),
                  Phase.ramp("growth", minutes(2), 1, 2.5),
                  Phase.constant("busy", minutes(4), 2.5)),
              List.of(
                  Event.hot(
                      minutes(3),
                      "VIP tenant onboarded",
                      "/tenantId",
                      TextNode.valueOf("t-vip"),
                      0.4)),
              Map.of(),
              Duration.ofSeconds(5),
              null,
              40,
              42);
      case IOT_HOT_DEVICE ->
          new Scenario(
              cliName,
              description,
              workload(
                  30_000,
                  14_600_000,
                  List.of(
                      new Operation(Operation.Type.CREATE, 1000),
                      query(
                          "a device's day",
                          "SELECT * FROM c WHERE c.day = @day AND c.deviceId = @device",
                          100,
                          "@device",
                          20))),
              List.of(Candidate.single("/deviceId"), Candidate.synthetic("/deviceId", "/day")),
              telemetry(4000, 13),
              BLACK_FRIDAY_2026,
              List.of(
                  Phase.constant("steady", minutes(3), 1), Phase.constant("hot", minutes(7), 1)),
              List.of(
                  Event.hot(
                      minutes(3),
                      "dev-chatty goes hot",
                      "/deviceId",
                      TextNode.valueOf("dev-chatty"),
                      0.15)),
              Map.of("/day", "yyyy-MM-dd"),
              Duration.ofSeconds(5),
              null,
              200,
              42);
      case TIME_KEY ->
          new Scenario(
              cliName,
              description,
              workload(
                  30_000,
                  500_000,
                  List.of(
                      new Operation(Operation.Type.CREATE, 800),
                      new Operation(Operation.Type.READ, 1000),
                      query(
                          "my orders", "SELECT * FROM c WHERE c.userId = @user", 50, "@user", 5))),
              List.of(
                  Candidate.single("/createdDate"),
                  Candidate.single("/yyyyMM"),
                  Candidate.single("/userId")),
              orders(4000, 14),
              BLACK_FRIDAY_2026,
              List.of(
                  Phase.constant("steady", minutes(2), 1), Phase.constant("peak", minutes(3), 2)),
              List.of(),
              Map.of("/createdDate", "yyyy-MM-dd", "/yyyyMM", "yyyyMM"),
              Duration.ofSeconds(5),
              null,
              20,
              42);
      case GAME_HOT_SERVER ->
          new Scenario(
              cliName,
              description,
              workload(
                  30_000,
                  2_000_000,
                  List.of(
                      new Operation(Operation.Type.UPSERT, 800),
                      query(
                          "players on a server",
                          "SELECT * FROM c WHERE c.serverId = @server",
                          20,
                          "@server",
                          20))),
              List.of(Candidate.single("/serverId"), Candidate.bucketed("/serverId", 20)),
              positions(4000, 15),
              BLACK_FRIDAY_2026,
              List.of(
                  Phase.constant("normal", minutes(2), 1),
                  Phase.ramp("launch", minutes(2), 1, 3),
                  Phase.constant("crowded", minutes(4), 3)),
              List.of(
                  Event.hot(
                      minutes(2),
                      "the launch server fills up",
                      "/serverId",
                      TextNode.valueOf("srv-launch"),
                      0.4)),
              Map.of(),
              Duration.ofSeconds(5),
              null,
              100,
              42);
      case HIERARCHICAL_ORDER ->
          new Scenario(
              cliName,
              description,
              workload(
                  30_000,
                  1_000_000,
                  List.of(
                      new Operation(Operation.Type.CREATE, 300),
                      new Operation(Operation.Type.READ, 1200),
                      query(
                          "tenant dashboard",
                          "SELECT * FROM c WHERE c.tenantId = @tenant",
                          200,
                          "@tenant",
                          10),
                      query(
                          "a user's sessions",
                          "SELECT * FROM c WHERE c.userId = @user AND c.tenantId = @tenant",
                          300,
                          "@tenant",
                          5))),
              List.of(
                  Candidate.hierarchical("/tenantId", "/userId"),
                  Candidate.hierarchical("/userId", "/tenantId")),
              sessions(4000, 13),
              BLACK_FRIDAY_2026,
              List.of(
                  Phase.constant("normal", minutes(2), 1),
                  Phase.ramp("month end", minutes(1), 1, 2),
                  Phase.constant("reports", minutes(3), 2)),
              List.of(),
              Map.of(),
              Duration.ofSeconds(5),
              null,
              40,
              42);
      case SUFFIX_FAN_OUT ->
          new Scenario(
                  cliName,
                  description,
                  workload(
                      30_000,
                      1_000_000,
                      List.of(
                          new Operation(Operation.Type.CREATE, 2000),
                          query(
                              "a device's events",
                              "SELECT * FROM c WHERE c.deviceId = @device",
                              20,
                              "@device",
                              20))),
                  List.of(Candidate.bucketed("/deviceId", 100), Candidate.single("/deviceId")),
                  events(4000, 16),
                  BLACK_FRIDAY_2026,
                  List.of(
                      Phase.constant("normal", minutes(1), 1),
                      Phase.ramp("evening", minutes(1), 1, 2),
                      Phase.constant("peak", minutes(2), 2)),
                  List.of(),
                  Map.of("/ts", "epoch"),
                  Duration.ofSeconds(5),
                  null,
                  0,
                  42)
              .withIndexingPolicy(WRITE_OPTIMISED_INDEX);
      case ORDERS_JOIN_PRODUCTS ->
          new Scenario(
              cliName,
              description,
              ScenarioFile.rehearsed(
                  List.of(
                      new ContainerWorkload(
                          "products",
                          null,
                          List.of("/category", "/id"),
                          IntNode.valueOf(20_000),
                          null,
                          200_000L,
                          null,
                          null,
                          List.of(
                              new Operation(Operation.Type.READ, 500),
                              query(
                                  "browse a category",
                                  "SELECT * FROM c WHERE c.category = @category",
                                  40,
                                  "@category",
                                  20)),
                          null),
                      new ContainerWorkload(
                          "orders",
                          null,
                          null,
                          null,
                          null,
                          null,
                          null,
                          null,
                          null,
                          List.of(
                              new io.cosmolab.advisor.workload.Join(
                                  "products", "/productId = /id", 1500))))),
              List.of(Candidate.single("/category"), Candidate.single("/id")),
              products(4000, 17),
              BLACK_FRIDAY_2026,
              List.of(
                  Phase.constant("normal", minutes(1), 1),
                  Phase.ramp("sale opens", minutes(1), 1, 2),
                  Phase.constant("sale", minutes(2), 2)),
              List.of(),
              Map.of(),
              Duration.ofSeconds(5),
              null,
              0,
              42);
    };
  }

  /**
   * An indexing policy for write-heavy containers, the standard RU saving: only the path the reads
   * sort or filter by across partitions is indexed; the rest, the key's path included, is not.
   */
  private static final ObjectNode WRITE_OPTIMISED_INDEX;

  static {
    ObjectNode p = JsonNodeFactory.instance.objectNode();
    p.put("indexingMode", "consistent");
    p.putArray("includedPaths").addObject().put("path", "/ts/?");
    p.putArray("excludedPaths").addObject().put("path", "/*");
    WRITE_OPTIMISED_INDEX = p;
  }

  private static Duration minutes(long m) {
    return Duration.ofMinutes(m);
  }

  private static ContainerWorkload workload(
      double throughput, long documents, List<Operation> operations) {
    return new ContainerWorkload(
        "c",
        null,
        null,
        IntNode.valueOf((int) throughput),
        null,
        documents,
        null,
        null,
        operations,
        null);
  }

  private static Operation query(String name, String sql, double rate, String param, double rows) {
    return Operation.query(name, sql, rate, Map.of(param, Access.DATA)).withRows(rows);
  }

  private static String pad(Random r, int around) {
    return "x".repeat(around - around / 5 + r.nextInt(Math.max(1, around / 2)));
  }

  /** Orders of 200,000 users (about 1 KB each). */
  static List<ObjectNode> orders(int n, long seed) {
    Random r = new Random(seed);
    List<ObjectNode> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ObjectNode d = JsonNodeFactory.instance.objectNode();
      d.put("id", "sample-" + i);
      d.put("userId", "u" + r.nextInt(200_000));
      d.put("productId", "p" + r.nextInt(20_000));
      d.put("createdDate", "2026-11-01");
      d.put("yyyyMM", "202611");
      d.put("total", 5 + r.nextInt(500));
      d.put("status", "placed");
      d.put("note", pad(r, 700));
      out.add(d);
    }
    return out;
  }

  /** Sessions of 300 tenants with 500 users each (about 1 KB each). */
  static List<ObjectNode> sessions(int n, long seed) {
    Random r = new Random(seed);
    List<ObjectNode> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ObjectNode d = JsonNodeFactory.instance.objectNode();
      String tenant = "t-" + r.nextInt(300);
      d.put("id", "sample-" + i);
      d.put("tenantId", tenant);
      d.put("userId", "u" + r.nextInt(500));
      d.put("sessionId", "s" + i);
      d.put("state", "active");
      d.put("payload", pad(r, 750));
      out.add(d);
    }
    return out;
  }

  /** Positions of players on 500 game servers (about 300 B each). */
  static List<ObjectNode> positions(int n, long seed) {
    Random r = new Random(seed);
    List<ObjectNode> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ObjectNode d = JsonNodeFactory.instance.objectNode();
      d.put("id", "player-" + i);
      d.put("serverId", "srv-" + r.nextInt(500));
      d.put("x", r.nextInt(10_000));
      d.put("y", r.nextInt(256));
      d.put("z", r.nextInt(10_000));
      d.put("state", pad(r, 200));
      out.add(d);
    }
    return out;
  }

  /** Telemetry of 5,000 devices, dev-chatty sending a third of it (4 KB each, the others 600 B). */
  static List<ObjectNode> telemetry(int n, long seed) {
    Random r = new Random(seed);
    List<ObjectNode> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ObjectNode d = JsonNodeFactory.instance.objectNode();
      d.put("id", "sample-" + i);
      boolean chatty = r.nextDouble() < 0.33;
      d.put("deviceId", chatty ? "dev-chatty" : "dev-" + r.nextInt(5000));
      d.put("day", "2026-11-01");
      d.put("temperature", Math.round((15 + r.nextDouble() * 10) * 100) / 100.0);
      d.put("firmware", String.format(Locale.ROOT, "1.%d.%d", r.nextInt(4), r.nextInt(10)));
      d.put("readings", pad(r, chatty ? 4000 : 400)); // the chatty one sends full waveforms
      out.add(d);
    }
    return out;
  }

  /** Events of 4,000 devices, evenly (about 600 B each). */
  static List<ObjectNode> events(int n, long seed) {
    Random r = new Random(seed);
    List<ObjectNode> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ObjectNode d = JsonNodeFactory.instance.objectNode();
      d.put("id", "sample-" + i);
      d.put("deviceId", "dev-" + r.nextInt(4_000));
      d.put("ts", 1_790_000_000L);
      d.put("type", new String[] {"reading", "alarm", "heartbeat"}[r.nextInt(3)]);
      d.put("payload", pad(r, 500));
      out.add(d);
    }
    return out;
  }

  /** Products in 40 categories (about 1 KB each); each one's id is what orders name it by. */
  static List<ObjectNode> products(int n, long seed) {
    Random r = new Random(seed);
    List<ObjectNode> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ObjectNode d = JsonNodeFactory.instance.objectNode();
      d.put("id", "p" + i);
      d.put("category", "cat-" + r.nextInt(40));
      d.put("price", 1 + r.nextInt(500));
      d.put("description", pad(r, 800));
      out.add(d);
    }
    return out;
  }
}
