package io.cosmolab.migrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.testkit.CosmosLab;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** 429s honoured, nothing lost; the RU cap kept. */
class MigratorThrottlingTest {

  @Test
  void aStormOf429s_fromATargetFarBelowTheCopyRate_losesNothing(@TempDir Path tmp) {
    try (CosmosLab lab = CosmosLab.builder().throttling(ThrottlingMode.ENFORCE).start();
        CosmosClient client = lab.clientBuilder().buildClient()) {
      Lab.orders(client, "t1", "orders", 250);
      MigrationSpec spec = Lab.spec(lab, "t1", "orders", "byRegion", "/region");
      spec =
          new MigrationSpec(
              spec.source(),
              spec.sourceContainer(),
              spec.target(),
              spec.targetContainer(),
              spec.partitionKey(),
              spec.onMissing(),
              0,
              400);
      try (Migrator m = Migrator.open(spec, tmp, Lab.options())) {
        MigrationState s = m.run(true, () -> false);
        System.out.println(
            "429 storm: copied "
                + s.copied()
                + ", 429s "
                + s.throttled()
                + ", RU "
                + Math.round(s.requestUnits()));
        assertThat(s.throttled()).isPositive();
        assertThat(s.copied()).isEqualTo(250);
        VerifyReport v = m.verify();
        assertThat(v.differences()).isEmpty();
        assertThat(v.targetDocuments()).isEqualTo(250);
      }
    }
  }

  @Test
  void theRuCap_boundsTheRequestUnitsSpentPerSecond(@TempDir Path tmp) {
    try (CosmosLab lab = CosmosLab.builder().start();
        CosmosClient client = lab.clientBuilder().buildClient()) {
      Lab.orders(client, "t2", "orders", 150);
      double cap = 400;
      MigrationSpec spec = Lab.spec(lab, "t2", "orders", "byRegion", "/region").withMaxRu(cap);
      try (Migrator m = Migrator.open(spec, tmp, Lab.options())) {
        long t0 = System.nanoTime();
        MigrationState s = m.run(true, () -> false);
        double seconds = (System.nanoTime() - t0) / 1e9;
        double rate = s.requestUnits() / seconds;
        System.out.printf(
            "RU cap %.0f: %.0f RU in %.2f s = %.0f RU/s%n", cap, s.requestUnits(), seconds, rate);
        // the bucket starts empty; a charge is known after its request, so the writes in
        // flight (8, ~10 RU each) may overrun by one round
        assertThat(s.requestUnits()).isLessThanOrEqualTo(cap * seconds + 8 * 15);
        assertThat(seconds).isGreaterThan(1);
        assertThat(m.verify().equal()).isTrue();
      }
    }
  }
}
