package io.cosmolab.engine;

import static io.cosmolab.engine.Json.obj;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.engine.index.IndexingPolicy;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.time.ManualClock;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A version written with the {@code Exclude} indexing directive is in no range index: a query that
 * an index serves does not find it, a point read does. Evidence: the JavaScript SDK's
 * IndexManagement sample fails unless {@code SELECT * FROM root r WHERE r.foo=@foo} finds nothing
 * after such a create, and the .NET v2 samples say the same ("won't get returned when querying on
 * non-ID property"). [A] A query no index serves (no filter, or a filter only on excluded paths)
 * scans, and the scan here returns it.
 */
class ExcludedFromIndexTest {
  private static final PartitionKeyValue P = PartitionKeyValue.of("p");
  private static final ItemOptions EXCLUDE = ItemOptions.NONE.excludedFromIndexing();

  private final Database db =
      Engines.onClock(ManualClock.startingAtEpoch2026(), ThrottlingMode.OFF).createDatabase("db");
  private int containers;

  private Container container(int partitions) {
    return db.createContainer(
        ContainerSettings.of("c" + containers++, PartitionKeyDefinition.hash("/pk"))
            .withIndexingPolicy(
                new IndexingPolicy("consistent", List.of("/*"), List.of("/secret/?")))
            .withPhysicalPartitions(partitions));
  }

  private static List<String> ids(Container c, String query) {
    return Engines.drainQuery(c, QueryRequest.of(query), 3).stream()
        .map(r -> r.isObject() ? r.path("id").asText() : r.asText())
        .sorted()
        .toList();
  }

  @Test
  void aQueryAnIndexServes_leavesTheExcludedVersionOut_whetherTheIndexWasBuiltBeforeOrAfter() {
    for (int partitions : new int[] {1, 4}) {
      Container c = container(partitions);
      c.create(obj("{'id':'early','pk':'p','foo':'bar','n':1}"));
      // the index on /foo is built by this query, before the excluded write: the write maintains it
      assertThat(ids(c, "SELECT * FROM c WHERE c.foo = 'bar'")).containsExactly("early");
      c.create(P, obj("{'id':'hidden','pk':'p','foo':'bar','n':2}"), EXCLUDE);
      c.create(obj("{'id':'late','pk':'p','foo':'bar','n':3}"));
      assertThat(ids(c, "SELECT * FROM c WHERE c.foo = 'bar'")).containsExactly("early", "late");
      // the index on /n is built after it: the build leaves it out too, and so does ORDER BY
      assertThat(ids(c, "SELECT * FROM c WHERE c.n >= 1")).containsExactly("early", "late");
      assertThat(ids(c, "SELECT VALUE c.id FROM c ORDER BY c.n")).containsExactly("early", "late");
      // it is stored all the same
      assertThat(c.read(P, "hidden").status()).isEqualTo(200);
      // [A] a query no index serves scans, and the scan finds it
      assertThat(ids(c, "SELECT * FROM c")).containsExactly("early", "hidden", "late");
      assertThat(ids(c, "SELECT * FROM c WHERE c.secret = null OR NOT IS_DEFINED(c.secret)"))
          .contains("hidden");
    }
  }

  @Test
  void aReplaceMovesTheDocumentInAndOutOfTheIndex_withTheDirectiveOfEachWrite() {
    Container c = container(1);
    c.create(obj("{'id':'d','pk':'p','foo':'bar'}"));
    assertThat(ids(c, "SELECT * FROM c WHERE c.foo = 'bar'")).containsExactly("d");
    c.replace(P, "d", obj("{'id':'d','pk':'p','foo':'bar'}"), EXCLUDE);
    assertThat(ids(c, "SELECT * FROM c WHERE c.foo = 'bar'")).isEmpty();
    c.replace(P, "d", obj("{'id':'d','pk':'p','foo':'baz'}"));
    assertThat(ids(c, "SELECT * FROM c WHERE c.foo = 'baz'")).containsExactly("d");
    assertThat(ids(c, "SELECT * FROM c WHERE c.foo = 'bar'")).isEmpty();
    c.upsert(P, obj("{'id':'d','pk':'p','foo':'baz'}"), EXCLUDE);
    assertThat(ids(c, "SELECT * FROM c WHERE c.foo = 'baz'")).isEmpty();
    JsonNode stored = c.read(P, "d").document();
    assertThat(stored.path("foo").asText()).isEqualTo("baz");
    c.delete(P, "d");
    assertThat(ids(c, "SELECT * FROM c")).isEmpty();
  }

  @Test
  void aPatch_takesItsOwnRequestsDirective_andIsChargedForTheTermsItAdds() {
    Container c = container(1);
    c.create(P, obj("{'id':'d','pk':'p','foo':'bar'}"), EXCLUDE);
    assertThat(ids(c, "SELECT * FROM c WHERE c.foo = 'bar'")).isEmpty();
    List<io.cosmolab.engine.document.PatchOperation> setN =
        List.of(
            io.cosmolab.engine.document.PatchOperation.set(
                "/n", com.fasterxml.jackson.databind.node.IntNode.valueOf(1)));
    c.patch(P, "d", setN, null, EXCLUDE);
    assertThat(ids(c, "SELECT * FROM c WHERE c.foo = 'bar'")).isEmpty();
    // without the directive the patched version is indexed again, and pays for all its terms
    double back = c.patch(P, "d", setN, null, ItemOptions.NONE).requestCharge();
    double again = c.patch(P, "d", setN, null, ItemOptions.NONE).requestCharge();
    assertThat(ids(c, "SELECT * FROM c WHERE c.foo = 'bar'")).containsExactly("d");
    assertThat(back).isGreaterThan(again);
  }
}
