package io.cosmolab.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.changefeed.ChangeFeedPage;
import io.cosmolab.engine.changefeed.ChangeFeedRequest;
import io.cosmolab.engine.changefeed.ChangeFeedStart;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.query.QueryPage;
import io.cosmolab.engine.query.QueryRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Injected faults: 4,000 documents written through the engine, the store closed, one file of the
 * data directory damaged by bytes flipped at seeded positions, and the store opened again. It must
 * then either refuse with "data directory damaged", or give only correct answers: every request
 * that succeeds says 4,000 documents, returns them all, and the change feed returns all 4,000
 * creates; a request may instead fail with "data directory damaged". A short count is the bug this
 * suite exists for.
 *
 * <p>Each test prints its seed; {@code -Dcosmolab.damage.seed=...} replays it, and {@code
 * -Dcosmolab.damage.rounds=N} tries N seeds per test.
 */
class RocksDbDamageTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int DOCS = 4000;

  @TempDir static Path written;

  /** Documents and change log flushed to table files; the catalog too. */
  private static Path flushed;

  /** Everything still in the write-ahead log: closed without a flush. */
  private static Path logOnly;

  /** A copy taken while the store was open, as a killed process leaves it. */
  private static Path killed;

  private static List<String> documentTables;
  private static List<String> changeTables;

  @TempDir Path work;

  @BeforeAll
  static void writeTheDirectories() {
    flushed = written.resolve("flushed");
    logOnly = written.resolve("log-only");
    killed = written.resolve("killed");
    try (RocksDbDocumentStore store = RocksDbDocumentStore.open(flushed);
        CosmosEngine e = StoreEngines.on(store)) {
      fill(e);
      store.flush();
      documentTables = names(store.tableFiles("documents"));
      changeTables = names(store.tableFiles("changes"));
    }
    try (CosmosEngine e = StoreEngines.on(RocksDbDocumentStore.open(logOnly))) {
      fill(e);
    }
    try (CosmosEngine e = StoreEngines.on(RocksDbDocumentStore.open(written.resolve("live")))) {
      fill(e);
      copy(written.resolve("live"), killed);
    }
    assertThat(documentTables).as("document table files").isNotEmpty();
    assertThat(changeTables).as("change log table files").isNotEmpty();
  }

  @Test
  void aFlippedByteInTheDocumentSstFailsTheScanNotTheCount() {
    forEachSeed(
        "document table, 1 byte",
        flushed,
        (dir, r) -> flip(dir.resolve(documentTables.get(0)), r, 1),
        Verdict.ANY);
  }

  @Test
  void twoHundredFiftySixFlippedBytesInTheDocumentSstNeverGiveAShortCount() {
    forEachSeed(
        "document table, 256 bytes",
        flushed,
        (dir, r) -> flip(dir.resolve(documentTables.get(0)), r, 256),
        Verdict.ANY);
  }

  @Test
  void aFlippedByteInTheChangeLogSstFailsTheFeedNotCatchesItUp() {
    forEachSeed(
        "change log table, 1 byte",
        flushed,
        (dir, r) -> flip(dir.resolve(changeTables.get(0)), r, 1),
        Verdict.ANY);
  }

  @Test
  void twoHundredFiftySixFlippedBytesInTheChangeLogSstNeverEndTheFeedEarly() {
    forEachSeed(
        "change log table, 256 bytes",
        flushed,
        (dir, r) -> flip(dir.resolve(changeTables.get(0)), r, 256),
        Verdict.ANY);
  }

  @Test
  void aFlippedByteInTheWriteAheadLogRefusesTheStartRatherThanDropAcknowledgedWrites() {
    forEachSeed(
        "write-ahead log, 1 byte", logOnly, (dir, r) -> flip(wal(dir), r, 1), Verdict.REFUSED);
  }

  @Test
  void flippedBytesInTheWriteAheadLogRefuseTheStartSayingSo() {
    forEachSeed(
        "write-ahead log, 16 bytes", logOnly, (dir, r) -> flip(wal(dir), r, 16), Verdict.REFUSED);
  }

  @Test
  void aDamagedLengthInTheLastLogBlockOfACleanlyClosedStoreRefusesTheStart() {
    // TolerateCorruptedTailRecords reads a length that runs past the end of the file as a torn
    // tail, and would drop the record silently; after a clean close there is no torn tail
    Path dir = work.resolve("length");
    copy(logOnly, dir);
    overrunLastRecord(wal(dir));
    assertThat(verdict(dir, "write-ahead log, last record's length")).isEqualTo(Verdict.REFUSED);
  }

  @Test
  void aFlippedByteBeforeTheLastLogBlockOfAKilledProcessRefusesTheStart() {
    // after a kill the tail may be torn, but damage before the last block is never a torn tail
    forEachSeed(
        "write-ahead log of a killed process, 1 byte before the last block",
        killed,
        (dir, r) -> {
          Path log = wal(dir);
          flipWithin(log, r, 1, size(log) - BLOCK);
        },
        Verdict.REFUSED);
  }

  @Test
  void aTornLastRecordOfAKilledProcessStillOpensAndSaysWhatItDropped() {
    Path dir = work.resolve("torn");
    copy(killed, dir);
    Path log = wal(dir);
    try {
      long size = Files.size(log);
      // the last record is one create (a document and its change, ~300 bytes); cut inside it
      try (var ch =
          java.nio.channels.FileChannel.open(log, java.nio.file.StandardOpenOption.WRITE)) {
        ch.truncate(size - 40);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try (RocksDbDocumentStore store = RocksDbDocumentStore.open(dir);
        CosmosEngine e = StoreEngines.on(store)) {
      assertThat(store.recoveryNotes())
          .singleElement()
          .asString()
          .contains("write-ahead log")
          .contains("incomplete record");
      Container c = e.database("db").container("c");
      // the torn write is the last create; everything before it is there, and nothing else
      assertAllAnswersCorrect(c, DOCS - 1);
    }
  }

  @Test
  void aKilledProcessWithAnIntactLogOpensWithEveryWrite() {
    Path dir = work.resolve("intact");
    copy(killed, dir);
    try (RocksDbDocumentStore store = RocksDbDocumentStore.open(dir);
        CosmosEngine e = StoreEngines.on(store)) {
      assertThat(store.recoveryNotes()).isEmpty();
      assertAllAnswersCorrect(e.database("db").container("c"), DOCS);
    }
  }

  @Test
  void aFlippedByteInTheManifestRefusesTheStartOrServesEverything() {
    forEachSeed(
        "MANIFEST, 1 byte", flushed, (dir, r) -> flip(only(dir, "MANIFEST-"), r, 1), Verdict.ANY);
  }

  @Test
  void aDamagedLengthInTheManifestsLastRecordRefusesTheStartNotForgetsATableFile() {
    // seed 5093102781949511723 found it: RocksDB read the MANIFEST as ending early, dropped the
    // table file of the change log, and the change feed returned 0 of 4,000
    List<Verdict> seen = new ArrayList<>();
    for (int k = 0; ; k++) {
      Path dir = work.resolve("manifest-length-" + k);
      copy(flushed, dir);
      if (!overrunRecord(only(dir, "MANIFEST-"), k)) {
        break;
      }
      seen.add(verdict(dir, "MANIFEST, length of record " + k));
    }
    System.out.println("RocksDbDamageTest MANIFEST, each record's length: " + tally(seen));
    assertThat(seen).as("records damaged").hasSizeGreaterThan(2).contains(Verdict.REFUSED);
  }

  @Test
  void aFlippedByteInCurrentRefusesTheStartOrServesEverything() {
    forEachSeed(
        "CURRENT, 1 byte", flushed, (dir, r) -> flip(dir.resolve("CURRENT"), r, 1), Verdict.ANY);
  }

  @Test
  void flippedBytesInTheOptionsFileChangeNothing() {
    // RocksDB writes OPTIONS for people and tools; opening with explicit options never reads it
    forEachSeed(
        "OPTIONS, 16 bytes",
        flushed,
        (dir, r) -> {
          try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.filter(p -> name(p).startsWith("OPTIONS-")).toList()) {
              flip(p, r, 16);
            }
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        },
        Verdict.SERVED);
  }

  // ---------------------------------------------------------------------------------------------

  private enum Verdict {
    /** Refused at open or at the engine's start, saying the directory is damaged. */
    REFUSED,
    /** Opened, and every request answered correctly. */
    SERVED,
    /** Opened; some requests failed saying the directory is damaged, the rest were correct. */
    FAILED_REQUESTS,
    /** For an expectation: any of the above, never a wrong answer. */
    ANY
  }

  private interface Damage {
    void apply(Path dir, Random r);
  }

  private void forEachSeed(String what, Path source, Damage damage, Verdict expected) {
    String fixed = System.getProperty("cosmolab.damage.seed");
    int rounds = Integer.getInteger("cosmolab.damage.rounds", 1);
    List<Verdict> seen = new ArrayList<>();
    for (int i = 0; i < (fixed != null ? 1 : rounds); i++) {
      long seed = fixed != null ? Long.parseLong(fixed) : new Random().nextLong();
      Path dir = work.resolve("round-" + i);
      copy(source, dir);
      damage.apply(dir, new Random(seed));
      Verdict v = verdict(dir, what + ", seed " + seed);
      System.out.println("RocksDbDamageTest " + what + ": seed " + seed + " -> " + v);
      seen.add(v);
      if (expected != Verdict.ANY) {
        assertThat(v).as("%s, seed %d", what, seed).isEqualTo(expected);
      }
    }
    if (rounds > 1) {
      System.out.println("RocksDbDamageTest " + what + ": " + rounds + " rounds: " + tally(seen));
    }
  }

  private static String tally(List<Verdict> seen) {
    StringBuilder out = new StringBuilder();
    for (Verdict v : Verdict.values()) {
      long n = seen.stream().filter(v::equals).count();
      if (n > 0) {
        out.append(v).append(' ').append(n).append("  ");
      }
    }
    return out.toString().trim();
  }

  /** Opens the damaged directory and asks every question; fails the test on a wrong answer. */
  private static Verdict verdict(Path dir, String as) {
    RocksDbDocumentStore store;
    try {
      store = RocksDbDocumentStore.open(dir);
    } catch (CosmosException e) {
      assertDamaged(e, dir, as);
      return Verdict.REFUSED;
    }
    CosmosEngine e;
    try {
      e = StoreEngines.on(store);
    } catch (CosmosException ex) {
      store.close();
      assertDamaged(ex, dir, as);
      return Verdict.REFUSED;
    }
    try (e) {
      Container c;
      try {
        c = e.database("db").container("c");
      } catch (CosmosException ex) {
        assertDamaged(ex, dir, as);
        return Verdict.FAILED_REQUESTS;
      }
      int failed = 0;
      failed += ask(dir, as, () -> assertThat(count(c)).as(as + ": COUNT(1)").isEqualTo(DOCS));
      failed += ask(dir, as, () -> assertThat(ids(c)).as(as + ": SELECT *").hasSize(DOCS));
      failed += ask(dir, as, () -> assertThat(feed(c)).as(as + ": change feed").hasSize(DOCS));
      failed += ask(dir, as, () -> assertPointReads(c, as));
      assertThat(c.documentCount()).as(as + ": document count").isEqualTo(DOCS);
      return failed == 0 ? Verdict.SERVED : Verdict.FAILED_REQUESTS;
    }
  }

  /** 0 when the answer was right, 1 when the request failed saying the data is damaged. */
  private static int ask(Path dir, String as, Runnable question) {
    try {
      question.run();
      return 0;
    } catch (CosmosException e) {
      assertDamaged(e, dir, as);
      return 1;
    }
  }

  private static void assertDamaged(CosmosException e, Path dir, String as) {
    System.out.println("RocksDbDamageTest " + as + ": " + e.getMessage());
    assertThat(e.getMessage())
        .as("%s: the failure says the directory is damaged, and which", as)
        .startsWith("data directory damaged: ")
        .contains(dir.toString());
    assertThat(e.status()).as(as).isEqualTo(500);
  }

  private static void assertAllAnswersCorrect(Container c, int docs) {
    assertThat(count(c)).isEqualTo(docs);
    assertThat(ids(c)).hasSize(docs);
    assertThat(feed(c)).hasSize(docs);
    assertThat(c.documentCount()).isEqualTo(docs);
  }

  private static void assertPointReads(Container c, String as) {
    for (int i = 0; i < DOCS; i++) {
      String id = "d" + i;
      JsonNode body = c.read(PartitionKeyValue.of(id), id).documentView();
      assertThat(body.get("n").intValue()).as("%s: %s", as, id).isEqualTo(i);
    }
  }

  private static long count(Container c) {
    return c.query(QueryRequest.of("SELECT VALUE COUNT(1) FROM c")).rows().get(0).longValue();
  }

  private static Set<String> ids(Container c) {
    Set<String> out = new HashSet<>();
    String token = null;
    do {
      QueryPage page =
          c.query(
              QueryRequest.of("SELECT c.id, c.n FROM c")
                  .withMaxItemCount(1000)
                  .withContinuation(token));
      for (JsonNode row : page.rows()) {
        assertThat(row.get("n").intValue())
            .isEqualTo(Integer.parseInt(row.get("id").asText().substring(1)));
        out.add(row.get("id").asText());
      }
      token = page.continuation();
    } while (token != null);
    return out;
  }

  private static Set<String> feed(Container c) {
    Set<String> out = new HashSet<>();
    ChangeFeedRequest request =
        ChangeFeedRequest.wholeContainer(ChangeFeedStart.beginning()).withMaxItems(1000);
    for (int pages = 0; pages < 100; pages++) {
      ChangeFeedPage page = c.readChangeFeed(request);
      if (page.notModified()) {
        return out;
      }
      for (ObjectNode d : page.items()) {
        out.add(d.get("id").asText());
      }
      request = request.withStart(ChangeFeedStart.continuation(page.continuation()));
    }
    return fail("the change feed did not catch up in 100 pages");
  }

  // ---------------------------------------------------------------------------------------------

  private static void fill(CosmosEngine e) {
    Container c =
        e.createDatabase("db")
            .createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/id")));
    for (int i = 0; i < DOCS; i++) {
      ObjectNode d = JSON.createObjectNode().put("id", "d" + i).put("n", i);
      d.put("text", "document number " + i + " of the damage suite");
      c.create(d);
    }
  }

  /** XORs {@code count} bytes at random positions with a random non-zero value. */
  private static void flip(Path file, Random r, int count) {
    flipWithin(file, r, count, size(file));
  }

  /** As {@link #flip}, in the first {@code limit} bytes of the file. */
  private static void flipWithin(Path file, Random r, int count, long limit) {
    try {
      byte[] bytes = Files.readAllBytes(file);
      assertThat(limit).as("bytes of %s to damage", file).isPositive();
      for (int i = 0; i < count; i++) {
        bytes[r.nextInt((int) limit)] ^= (byte) (1 + r.nextInt(255));
      }
      Files.write(file, bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /*
   * The write-ahead log's format (RocksDB's log_format.h): 32 KiB blocks of records, each with a
   * 7-byte header
   *
   *   +----------+----------+------+---------+
   *   | crc32c 4 | length 2 | type | payload |     length little-endian; a block's last < 7
   *   +----------+----------+------+---------+     bytes are zero padding
   */
  private static final int BLOCK = 32 * 1024;
  private static final int HEADER = 7;

  /** Sets the length of the log's last record past the end of the file. */
  private static void overrunLastRecord(Path log) {
    List<Integer> headers = headers(log);
    assertThat(headers).as("records in %s", log).isNotEmpty();
    overrun(log, headers.get(headers.size() - 1));
  }

  /**
   * Sets the length of the {@code k}th record of the last block past the end of the file; false if
   * there is no such record.
   */
  private static boolean overrunRecord(Path log, int k) {
    long lastBlock = size(log) / BLOCK * BLOCK;
    List<Integer> inLastBlock = headers(log).stream().filter(h -> h >= lastBlock).toList();
    if (k >= inLastBlock.size()) {
      return false;
    }
    overrun(log, inLastBlock.get(k));
    return true;
  }

  private static List<Integer> headers(Path log) {
    try {
      byte[] b = Files.readAllBytes(log);
      List<Integer> out = new ArrayList<>();
      int pos = 0;
      while (pos + HEADER <= b.length) {
        int left = BLOCK - pos % BLOCK;
        if (left < HEADER) {
          pos += left;
          continue;
        }
        int length = (b[pos + 4] & 0xFF) | (b[pos + 5] & 0xFF) << 8;
        out.add(pos);
        pos += HEADER + length;
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void overrun(Path log, int header) {
    try {
      byte[] b = Files.readAllBytes(log);
      b[header + 4] = (byte) 0xFF;
      b[header + 5] = (byte) 0x7F;
      Files.write(log, b);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path wal(Path dir) {
    return only(dir, ".log");
  }

  /**
   * The one file whose name starts (or, for ".log", ends) with {@code part}; the largest if
   * several.
   */
  private static Path only(Path dir, String part) {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(p -> part.startsWith(".") ? name(p).endsWith(part) : name(p).startsWith(part))
          .max(java.util.Comparator.comparingLong(RocksDbDamageTest::size))
          .orElseThrow(() -> new AssertionError("no " + part + " file in " + dir));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long size(Path p) {
    try {
      return Files.size(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String name(Path p) {
    return p.getFileName().toString();
  }

  private static List<String> names(List<Path> files) {
    return files.stream().map(RocksDbDamageTest::name).toList();
  }

  private static void copy(Path from, Path to) {
    try (Stream<Path> files = Files.list(from)) {
      Files.createDirectories(to);
      for (Path f : files.toList()) {
        if (!name(f).equals("LOCK")) {
          Files.copy(f, to.resolve(name(f)));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
