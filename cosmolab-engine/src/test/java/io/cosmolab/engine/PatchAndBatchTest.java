package io.cosmolab.engine;

import static io.cosmolab.engine.ContainerDocumentsTest.assertCosmosError;
import static io.cosmolab.engine.Json.node;
import static io.cosmolab.engine.Json.obj;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.batch.BatchOperation;
import io.cosmolab.engine.batch.BatchResult;
import io.cosmolab.engine.document.DocumentCondition;
import io.cosmolab.engine.document.PatchOperation;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PatchAndBatchTest {
  private final ManualClock clock = ManualClock.startingAtEpoch2026();
  private final Container c = Engines.container(clock, 2);
  private final PartitionKeyValue p = PartitionKeyValue.of("p");

  @BeforeEach
  void seed() {
    c.create(obj("{'id':'d','pk':'p','n':1,'tags':['a','b'],'o':{'x':1},'s':'text'}"));
  }

  private ObjectNode patch(PatchOperation... ops) {
    return c.patch(p, "d", List.of(ops)).document();
  }

  /* --- patch operations --- */

  @Test
  void anIncrementThatOverflowsADoubleIsRefusedAndTheDocumentKeepsItsValue() {
    patch(PatchOperation.set("/big", node("1.7e308")));
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> patch(PatchOperation.increment("/big", node("1.7e308"))))
        .hasMessageContaining("overflows");
    assertThat(c.read(p, "d").document().get("big").doubleValue()).isEqualTo(1.7e308);
  }

  @Test
  void add_createsOrReplacesProperties_andInsertsIntoArrays() {
    ObjectNode d =
        patch(
            PatchOperation.add("/new", node("5")),
            PatchOperation.add("/n", node("2")),
            PatchOperation.add("/tags/1", node("'x'")),
            PatchOperation.add("/tags/-", node("'z'")));
    assertThat(d.get("new").intValue()).isEqualTo(5);
    assertThat(d.get("n").intValue()).isEqualTo(2);
    assertThat(d.get("tags")).isEqualTo(node("['a','x','b','z']"));
  }

  @Test
  void set_overwritesArrayElements() {
    ObjectNode d =
        patch(PatchOperation.set("/tags/0", node("'A'")), PatchOperation.set("/o/y", node("2")));
    assertThat(d.get("tags")).isEqualTo(node("['A','b']"));
    assertThat(d.get("o")).isEqualTo(node("{'x':1,'y':2}"));
  }

  @Test
  void replace_requiresTheTarget() {
    assertThat(patch(PatchOperation.replace("/s", node("'t'"))).get("s").textValue())
        .isEqualTo("t");
    assertCosmosError(
        () -> patch(PatchOperation.replace("/missing", node("1"))),
        CosmosError.BAD_REQUEST,
        "For Operation(0): Node(/missing) to be replaced is absent.");
  }

  @Test
  void remove_requiresTheTarget() {
    ObjectNode d = patch(PatchOperation.remove("/s"), PatchOperation.remove("/tags/0"));
    assertThat(d.has("s")).isFalse();
    assertThat(d.get("tags")).isEqualTo(node("['b']"));
    assertCosmosError(
        () -> patch(PatchOperation.remove("/nope")),
        CosmosError.BAD_REQUEST,
        "For Operation(0): Node(/nope) to be removed is absent.");
  }

  @Test
  void increment_addsToNumbers_createsMissing_andRejectsNonNumbers() {
    ObjectNode d =
        patch(
            PatchOperation.increment("/n", node("4")),
            PatchOperation.increment("/fresh", node("1.5")),
            PatchOperation.increment("/o/x", node("0.5")));
    assertThat(d.get("n").longValue()).isEqualTo(5);
    assertThat(d.get("n").isIntegralNumber()).isTrue();
    assertThat(d.get("fresh").doubleValue()).isEqualTo(1.5);
    assertThat(d.get("o").get("x").doubleValue()).isEqualTo(1.5);
    assertCosmosError(
        () -> patch(PatchOperation.increment("/s", node("1"))),
        CosmosError.BAD_REQUEST,
        "For Operation(0): Node(/s) isn't a number.");
  }

  /**
   * A path that cannot apply fails in the service's words, which applications match (to create a
   * missing parent, then patch again): the Java SDK's PatchTest, the documented troubleshooting
   * table.
   */
  @Test
  void aPathThatCannotApply_failsInTheServicesWords() {
    assertCosmosError(
        () -> patch(PatchOperation.add("/nonExistentParent/child", node("1"))),
        CosmosError.BAD_REQUEST,
        "Add Operation only support adding a leaf node of an existing node(array or object), no"
            + " path found beyond: 'nonExistentParent'");
    assertCosmosError(
        () -> patch(PatchOperation.set("/o/missing/deeper", node("1"))),
        CosmosError.BAD_REQUEST,
        "no path found beyond: 'missing'");
    assertCosmosError(
        () -> patch(PatchOperation.remove("/absent")),
        CosmosError.BAD_REQUEST,
        "For Operation(0): Node(/absent) to be removed is absent.");
    assertCosmosError(
        () -> patch(PatchOperation.replace("/absent", node("1"))),
        CosmosError.BAD_REQUEST,
        "For Operation(0): Node(/absent) to be replaced is absent.");
  }

  @Test
  void move_relocatesAValue() {
    ObjectNode d = patch(PatchOperation.move("/s", "/o/moved"));
    assertThat(d.has("s")).isFalse();
    assertThat(d.get("o").get("moved").textValue()).isEqualTo("text");
    assertCosmosError(
        () -> patch(PatchOperation.move("/o", "/o/inner")), CosmosError.BAD_REQUEST, "inside");
  }

  @Test
  void patch_onMissingParent_failsNamingThePath_andChangesNothing() {
    String etag = c.read(p, "d").etag();
    assertCosmosError(
        () -> patch(PatchOperation.set("/n", node("9")), PatchOperation.add("/a/b/c", node("1"))),
        CosmosError.BAD_REQUEST,
        "For Operation(1): Add Operation",
        "no path found beyond: 'a'",
        "/a/b/c needs a parent");
    assertThat(c.read(p, "d").etag()).isEqualTo(etag);
    assertThat(c.read(p, "d").document().get("n").intValue()).isEqualTo(1);
  }

  @Test
  void patch_ofIdOrPartitionKeyOrSystemProperty_isRefused() {
    assertCosmosError(
        () -> patch(PatchOperation.set("/id", node("'e'"))), CosmosError.BAD_REQUEST, "id");
    assertCosmosError(
        () -> patch(PatchOperation.set("/pk", node("'q'"))),
        CosmosError.BAD_REQUEST,
        "partition key");
    assertCosmosError(
        () -> patch(PatchOperation.remove("/_etag")), CosmosError.BAD_REQUEST, "system property");
  }

  @Test
  void patch_withFalseCondition_returns412_andTrueConditionApplies() {
    DocumentCondition big =
        DocumentCondition.of("FROM c WHERE c.n > 5", d -> d.get("n").intValue() > 5);
    assertCosmosError(
        () -> c.patch(p, "d", List.of(PatchOperation.set("/n", node("7"))), big, ItemOptions.NONE),
        CosmosError.PRECONDITION_FAILED,
        "FROM c WHERE c.n > 5");
    DocumentCondition small =
        DocumentCondition.of("FROM c WHERE c.n < 5", d -> d.get("n").intValue() < 5);
    assertThat(
            c.patch(p, "d", List.of(PatchOperation.set("/n", node("7"))), small, ItemOptions.NONE)
                .document()
                .get("n")
                .intValue())
        .isEqualTo(7);
  }

  @Test
  void patch_withMoreThanTenOperations_isRejected() {
    List<PatchOperation> ops = new ArrayList<>();
    for (int i = 0; i < 11; i++) {
      ops.add(PatchOperation.set("/f" + i, node("1")));
    }
    assertCosmosError(() -> c.patch(p, "d", ops), CosmosError.BAD_REQUEST, "11 operations", "10");
  }

  @Test
  void patchType_parsesWireNames_includingTheOldIncForm() {
    assertThat(PatchOperation.Type.fromWireName("incr")).isEqualTo(PatchOperation.Type.INCREMENT);
    assertThat(PatchOperation.Type.fromWireName("inc")).isEqualTo(PatchOperation.Type.INCREMENT);
    assertCosmosError(
        () -> PatchOperation.Type.fromWireName("copy"), CosmosError.BAD_REQUEST, "'copy'");
  }

  /* --- transactional batch --- */

  @Test
  void batch_ofSuccessfulOperations_commitsAll_with200() {
    BatchResult r =
        c.executeBatch(
            p,
            List.of(
                new BatchOperation.Create(obj("{'id':'x','pk':'p'}")),
                new BatchOperation.Upsert(obj("{'id':'d','pk':'p','n':10}"), null),
                new BatchOperation.Read("x", null),
                new BatchOperation.Patch(
                    "d", List.of(PatchOperation.increment("/n", node("1"))), null, null),
                new BatchOperation.Delete("x", null)));
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.operations())
        .extracting(BatchResult.OperationResult::status)
        .containsExactly(201, 200, 200, 200, 204);
    assertThat(c.read(p, "d").document().get("n").intValue()).isEqualTo(11);
    assertCosmosError(() -> c.read(p, "x"), CosmosError.NOT_FOUND);
    assertThat(r.requestCharge()).isGreaterThan(0);
  }

  @Test
  void batch_withAFailingOperation_returns207_with424ForOthers_andWritesNothing() {
    long lsnBefore = c.lsn();
    BatchResult r =
        c.executeBatch(
            p,
            List.of(
                new BatchOperation.Create(obj("{'id':'y','pk':'p'}")),
                new BatchOperation.Create(obj("{'id':'d','pk':'p'}")),
                new BatchOperation.Create(obj("{'id':'z','pk':'p'}"))));
    assertThat(r.status()).isEqualTo(207);
    assertThat(r.operations())
        .extracting(BatchResult.OperationResult::status)
        .containsExactly(424, 409, 424);
    assertThat(r.operations().get(1).message()).contains("already exists");
    assertCosmosError(() -> c.read(p, "y"), CosmosError.NOT_FOUND);
    assertThat(c.lsn()).isEqualTo(lsnBefore);
  }

  @Test
  void batch_acrossLogicalPartitions_failsThatOperationWith1001() {
    BatchResult r =
        c.executeBatch(
            p,
            List.of(
                new BatchOperation.Create(obj("{'id':'y','pk':'p'}")),
                new BatchOperation.Create(obj("{'id':'w','pk':'other'}"))));
    assertThat(r.status()).isEqualTo(207);
    assertThat(r.operations().get(1).status()).isEqualTo(400);
    assertThat(r.operations().get(1).subStatus()).isEqualTo(1001);
    assertThat(r.operations().get(1).message()).contains("one logical partition");
  }

  @Test
  void batch_overOneHundredOperations_isRejected() {
    List<BatchOperation> ops = new ArrayList<>();
    for (int i = 0; i < 101; i++) {
      ops.add(new BatchOperation.Create(obj("{'id':'b" + i + "','pk':'p'}")));
    }
    assertCosmosError(
        () -> c.executeBatch(p, ops), CosmosError.BAD_REQUEST, "more operations", "101", "100");
    assertThat(c.executeBatch(p, ops.subList(0, 100)).status()).isEqualTo(200);
  }

  @Test
  void batch_seesItsOwnWrites() {
    BatchResult r =
        c.executeBatch(
            p,
            List.of(
                new BatchOperation.Create(obj("{'id':'k','pk':'p','v':1}")),
                new BatchOperation.Replace("k", obj("{'id':'k','pk':'p','v':2}"), null),
                new BatchOperation.Read("k", null)));
    assertThat(r.operations().get(2).document().get("v").intValue()).isEqualTo(2);
  }
}
