package io.cosmolab.rehearsal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.workload.ContainerWorkload;
import io.cosmolab.advisor.workload.Operation;
import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The storage side of the scale model: a VIP tenant with 50 % of 100 GB. At 1:5,000 a physical
 * partition holds 10.7 MB and a logical partition 4.3 MB, so the engine's own rules decide: under
 * /tenantId the VIP's logical partition fills (403/1014) and cannot split; under /tenantId>/userId
 * its partition splits at the median of its bytes, inside the VIP's prefix, and the prefix spans
 * several physical partitions — how a hierarchical key lets a whale tenant grow.
 */
class StorageSplitTest {

  private static List<ObjectNode> sample() {
    Random r = new Random(5);
    List<ObjectNode> out = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      ObjectNode d = JsonNodeFactory.instance.objectNode();
      d.put("id", "s" + i);
      d.put("tenantId", r.nextBoolean() ? "t-vip" : "t-" + r.nextInt(200));
      d.put("userId", "u" + r.nextInt(1000));
      d.put("payload", "x".repeat(900));
      out.add(d);
    }
    return out;
  }

  @Test
  void whaleTenant_fillsItsLogicalPartitionUnderTenantId_andSpansPartitionsUnderTheHierarchy() {
    ContainerWorkload w =
        new ContainerWorkload(
            "sessions",
            null,
            null,
            IntNode.valueOf(12_000),
            null,
            100_000_000L,
            null,
            null,
            List.of(new Operation(Operation.Type.READ, 5_000)),
            null);
    Candidate tenant = Candidate.single("/tenantId");
    Candidate hierarchy = Candidate.hierarchical("/tenantId", "/userId");
    Scenario s =
        new Scenario(
            "whale",
            "",
            w,
            List.of(tenant, hierarchy),
            sample(),
            null,
            List.of(Phase.constant("steady", Duration.ofSeconds(30), 1)),
            List.of(),
            Map.of(),
            Duration.ofSeconds(5),
            null,
            5000,
            42);
    RehearsalReport r = Rehearsal.run(s);

    CandidateResult byTenant = r.candidate("/tenantId");
    assertThat(byTenant.verdict()).isEqualTo("rejected");
    assertThat(byTenant.reasons().get(0)).contains("403/1014").contains("[\"t-vip\"]");
    assertThat(byTenant.headline().largestLogicalPartitionBytes())
        .isGreaterThan((long) (0.99 * byTenant.headline().logicalPartitionLimitBytes()));
    assertThat(byTenant.headline().physicalPartitionsAtStart()).isEqualTo(2);

    CandidateResult byHierarchy = r.candidate("/tenantId>/userId");
    assertThat(byHierarchy.reasons()).noneMatch(x -> x.contains("403/1014"));
    assertThat(byHierarchy.headline().physicalPartitionsAtStart()).isGreaterThan(2);
    EpkRange vip =
        EffectivePartitionKey.prefixRange(hierarchy.definition(), PartitionKeyValue.of("t-vip"));
    long lanesHoldingTheVip =
        byHierarchy.timeline().lanes().stream()
            .filter(l -> l.toStep() > 0)
            .filter(l -> new EpkRange(l.minEpk(), l.maxEpk()).overlaps(vip))
            .count();
    assertThat(lanesHoldingTheVip).isGreaterThanOrEqualTo(2);
  }
}
