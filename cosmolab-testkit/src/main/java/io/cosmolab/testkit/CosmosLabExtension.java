package io.cosmolab.testkit;

import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.PartitionKeyDefinition;
import com.azure.cosmos.models.PartitionKeyDefinitionVersion;
import com.azure.cosmos.models.PartitionKind;
import com.azure.cosmos.models.ThroughputProperties;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.Database;
import io.cosmolab.engine.limits.Limits;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5: starts a {@link CosmosLab} for a test class (or once per run, with {@link
 * LabConfig#perRun()}), stops it afterwards, and injects into constructors and test methods:
 *
 * <ul>
 *   <li>{@link CosmosLab} — the lab itself;
 *   <li>{@link CosmosClient} / {@link CosmosAsyncClient} — a client shared by the class;
 *   <li>{@link CosmosContainer} — a fresh container for this test in database {@code cosmolab},
 *       shaped by {@link LabContainer} on the parameter.
 * </ul>
 *
 * <pre>{@code
 * @ExtendWith(CosmosLabExtension.class)
 * @LabConfig(throttling = ThrottlingMode.ENFORCE, partitions = 8)
 * class OrdersTest {
 *   @Test
 *   void hotTenantIsThrottled(@LabContainer(partitionKey = "/tenantId") CosmosContainer orders) {...}
 * }
 * }</pre>
 */
public final class CosmosLabExtension implements BeforeAllCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NS =
      ExtensionContext.Namespace.create(CosmosLabExtension.class);
  private static final String DATABASE = "cosmolab";
  private static final AtomicInteger CONTAINERS = new AtomicInteger();

  /** Made by JUnit, for {@code @ExtendWith(CosmosLabExtension.class)}. */
  public CosmosLabExtension() {}

  /** The lab and the clients made for it, closed together when the store is. */
  private record Running(CosmosLab lab, CosmosClient client, CosmosAsyncClient asyncClient)
      implements AutoCloseable {
    @Override
    public void close() {
      try {
        client.close();
        asyncClient.close();
      } finally {
        lab.close();
      }
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    running(context);
  }

  private static Running running(ExtensionContext context) {
    LabConfig config =
        context.getTestClass().map(c -> c.getAnnotation(LabConfig.class)).orElse(null);
    boolean perRun = config != null && config.perRun();
    ExtensionContext owner = perRun ? context.getRoot() : classContext(context);
    String key = "lab:" + describe(config);
    return owner.getStore(NS).getOrComputeIfAbsent(key, k -> start(config), Running.class);
  }

  private static ExtensionContext classContext(ExtensionContext context) {
    ExtensionContext c = context;
    while (c.getTestMethod().isPresent() && c.getParent().isPresent()) {
      c = c.getParent().get();
    }
    return c;
  }

  private static String describe(LabConfig config) {
    return config == null
        ? "default"
        : config.throttling() + "/" + config.partitions() + "/" + config.scale();
  }

  private static Running start(LabConfig config) {
    CosmosLab.Builder b = CosmosLab.builder();
    if (config != null) {
      b.throttling(config.throttling()).scale(config.scale());
      if (config.partitions() > 0) {
        b.defaultPartitions(config.partitions());
      }
    }
    CosmosLab lab = b.start();
    try {
      CosmosClient client = lab.clientBuilder().buildClient();
      CosmosAsyncClient async = lab.clientBuilder().buildAsyncClient();
      return new Running(lab, client, async);
    } catch (RuntimeException e) {
      lab.close();
      throw e;
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == CosmosLab.class
        || type == CosmosClient.class
        || type == CosmosAsyncClient.class
        || type == CosmosContainer.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Running r = running(context);
    Class<?> type = parameter.getParameter().getType();
    if (type == CosmosLab.class) {
      return r.lab();
    }
    if (type == CosmosClient.class) {
      return r.client();
    }
    if (type == CosmosAsyncClient.class) {
      return r.asyncClient();
    }
    Optional<LabContainer> spec = parameter.findAnnotation(LabContainer.class);
    return freshContainer(r, spec.orElse(null), context);
  }

  private static CosmosContainer freshContainer(
      Running r, LabContainer spec, ExtensionContext context) {
    String[] paths = spec == null ? new String[] {"/id"} : spec.partitionKey();
    if (paths.length < 1 || paths.length > Limits.MAX_HIERARCHY_LEVELS) {
      throw new ParameterResolutionException(
          "@LabContainer needs 1 to 3 partition key paths, got " + Arrays.toString(paths));
    }
    String id =
        context.getTestMethod().map(m -> m.getName()).orElse("container")
            + "-"
            + CONTAINERS.incrementAndGet();
    PartitionKeyDefinition key = new PartitionKeyDefinition();
    key.setPaths(Arrays.asList(paths));
    key.setKind(paths.length == 1 ? PartitionKind.HASH : PartitionKind.MULTI_HASH);
    key.setVersion(PartitionKeyDefinitionVersion.V2);
    r.client().createDatabaseIfNotExists(DATABASE);
    int partitions = spec == null ? 0 : spec.partitions();
    if (partitions > 0) {
      // Create through the engine to fix the layout, then hand out the SDK's view of it.
      Database db = r.lab().engine().database(DATABASE);
      db.createContainer(
          ContainerSettings.of(
                  id,
                  new io.cosmolab.engine.partitioning.PartitionKeyDefinition(
                      Arrays.asList(paths),
                      paths.length == 1
                          ? io.cosmolab.engine.partitioning.PartitionKind.HASH
                          : io.cosmolab.engine.partitioning.PartitionKind.MULTI_HASH,
                      2))
              .withPhysicalPartitions(partitions));
    } else {
      r.client()
          .getDatabase(DATABASE)
          .createContainer(
              new CosmosContainerProperties(id, key),
              ThroughputProperties.createManualThroughput(400));
    }
    return r.client().getDatabase(DATABASE).getContainer(id);
  }
}
