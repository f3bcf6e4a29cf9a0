package io.cosmolab.advisor.examples;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.AdvisorOptions;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.workload.Access;
import io.cosmolab.advisor.workload.Operation;
import io.cosmolab.engine.throughput.Throughput;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Random;

/**
 * Built-in scenarios from real incidents, each a generator of sample documents, the candidates a
 * team would weigh, the sizing and the workload at peak; {@code cosmolab advise --example NAME}
 * runs one. Documents are generated lazily from a seed, so an example of any size costs no memory.
 */
// candidates are List.of (unmodifiable) and AdvisorOptions a record of immutable values
@SuppressWarnings("ImmutableEnumChecker")
public enum Example {
  /** Orders: userId spreads; productId has a best-seller; createdDate is a clock. */
  ECOMMERCE(
      "orders: /userId is right; /productId has a best-seller (hot key); /createdDate is"
          + " time-based",
      List.of(
          Candidate.single("/userId"),
          Candidate.single("/productId"),
          Candidate.single("/createdDate")),
      new AdvisorOptions(
          Throughput.manual(30_000),
          0,
          List.of(
              new Operation(Operation.Type.CREATE, 1500),
              read(8000, zipf("/userId")),
              Operation.query(
                  "order history",
                  "SELECT * FROM c WHERE c.userId = @user ORDER BY c.createdDate DESC",
                  500,
                  Map.of("@user", zipf("/userId")))))),
  /** Sessions of 200 tenants, one ten times larger than the others. */
  SAAS(
      "multi-tenant sessions, one tenant 10x the others: /tenantId grows a logical partition"
          + " past 20 GB; the hierarchical key keeps tenant queries targeted and spreads",
      List.of(
          Candidate.single("/tenantId"),
          Candidate.synthetic("/tenantId", "/userId"),
          Candidate.hierarchical("/tenantId", "/userId", "/sessionId")),
      new AdvisorOptions(
          Throughput.manual(40_000),
          1_500_000_000L,
          List.of(
              new Operation(Operation.Type.CREATE, 1000),
              new Operation(Operation.Type.READ, 5000),
              Operation.query(
                  "tenant dashboard",
                  "SELECT * FROM c WHERE c.tenantId = @tenant",
                  500,
                  Map.of())))),
  /** Telemetry where one device reports far more than the rest. */
  IOT(
      "telemetry with one chatty device: /deviceId grows past 20 GB at the horizon; /deviceId"
          + " plus the day spreads it",
      List.of(Candidate.single("/deviceId"), Candidate.synthetic("/deviceId", "/day")),
      new AdvisorOptions(
          Throughput.manual(20_000),
          1_200_000_000L,
          List.of(
              new Operation(Operation.Type.CREATE, 2000),
              Operation.query(
                  "device day",
                  "SELECT * FROM c WHERE c.deviceId = @device AND c.day = @day",
                  200,
                  Map.of())))),
  /** Player positions where one game server hosts 40 % of the players. */
  GAME(
      "player positions, one hot server: /serverId is a hot key; a suffix of 20 buckets"
          + " spreads it, at a read multiplier",
      List.of(Candidate.single("/serverId"), Candidate.bucketed("/serverId", 20)),
      new AdvisorOptions(
          Throughput.manual(60_000),
          0,
          List.of(
              new Operation(Operation.Type.UPSERT, 6000),
              Operation.query(
                  "players on a server",
                  "SELECT * FROM c WHERE c.serverId = @server",
                  300,
                  Map.of()))));

  private static Access zipf(String field) {
    return new Access(field, Access.Distribution.ZIPF, 0.8, null, null, null, null);
  }

  private static Operation read(double rate, Access access) {
    return new Operation(null, Operation.Type.READ, rate, access, null, null, null, null, null);
  }

  private final String description;
  private final List<Candidate> candidates;
  private final AdvisorOptions options;

  Example(String description, List<Candidate> candidates, AdvisorOptions options) {
    this.description = description;
    this.candidates = candidates;
    this.options = options;
  }

  public String description() {
    return description;
  }

  public List<Candidate> candidates() {
    return candidates;
  }

  public AdvisorOptions options() {
    return options;
  }

  /** The name used on the command line. */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** {@code count} documents from {@code seed}, generated one at a time. */
  public Iterator<ObjectNode> documents(int count, long seed) {
    Random random = new Random(seed);
    ObjectMapper json = new ObjectMapper();
    return new Iterator<>() {
      private int i;

      @Override
      public boolean hasNext() {
        return i < count;
      }

      @Override
      public ObjectNode next() {
        if (i >= count) {
          throw new NoSuchElementException();
        }
        return generate(json.createObjectNode(), i++, count, random);
      }
    };
  }

  private ObjectNode generate(ObjectNode d, int i, int count, Random r) {
    d.put("id", cliName() + "-" + i);
    switch (this) {
      case ECOMMERCE -> {
        d.put("userId", "u" + r.nextInt(50_000));
        d.put("productId", r.nextDouble() < 0.3 ? "p-bestseller" : "p" + r.nextInt(5_000));
        d.put("createdDate", String.format(Locale.ROOT, "2026-11-%02d", 1 + i * 28 / count));
        d.put("total", r.nextInt(500));
      }
      case SAAS -> {
        // 200 tenants; tenant-0 draws ten shares, the others one each: ~4.8 % of sessions
        int draw = r.nextInt(209);
        String tenant = draw < 10 ? "tenant-0" : "tenant-" + (draw - 9);
        d.put("tenantId", tenant);
        d.put("userId", tenant + "-u" + r.nextInt(2_000));
        d.put("sessionId", "s" + i);
        d.put("payload", "x".repeat(200 + r.nextInt(200)));
      }
      case IOT -> {
        String device = r.nextDouble() < 0.25 ? "dev-chatty" : "dev-" + r.nextInt(20_000);
        d.put("deviceId", device);
        d.put(
            "day",
            String.format(Locale.ROOT, "2026-%02d-%02d", 1 + r.nextInt(12), 1 + r.nextInt(28)));
        d.put("temperature", 15 + r.nextDouble() * 10);
      }
      case GAME -> {
        d.put("serverId", r.nextDouble() < 0.4 ? "eu-1" : "srv-" + r.nextInt(500));
        d.put("playerId", "pl" + r.nextInt(100_000));
        d.put("x", r.nextInt(1000));
        d.put("y", r.nextInt(1000));
      }
    }
    return d;
  }
}
