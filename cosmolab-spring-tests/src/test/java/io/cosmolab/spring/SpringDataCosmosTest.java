package io.cosmolab.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.models.PartitionKey;
import com.azure.spring.data.cosmos.core.query.CosmosPageRequest;
import io.cosmolab.testkit.CosmosLab;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Sort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A Spring Boot application on Spring Data Cosmos, in the SDK's default connection mode (direct),
 * against cosmolab: only the endpoint and the key point at it, and the emulator's certificate is
 * accepted as for the Microsoft emulator. Repository save and find, derived queries, a written
 * query, paging (across a split too) and the reactive repository; every response's diagnostics say
 * DIRECT.
 */
@SpringBootTest(classes = ShopApplication.class)
class SpringDataCosmosTest {
  static final CosmosLab LAB = CosmosLab.builder().start();

  @DynamicPropertySource
  static void cosmos(DynamicPropertyRegistry r) {
    // what a team sets to use the Microsoft emulator with the Java SDK (azure-cosmos 4.64+)
    System.setProperty("COSMOS.EMULATOR_SERVER_CERTIFICATE_VALIDATION_DISABLED", "true");
    r.add("azure.cosmos.uri", () -> LAB.endpoint().toString());
    r.add("azure.cosmos.key", LAB::key);
  }

  @AfterAll
  static void stop() {
    LAB.close();
  }

  @Autowired UserRepository users;
  @Autowired ReactiveUserRepository reactive;
  @Autowired OrderRepository orders;

  @BeforeEach
  void empty() {
    users.deleteAll();
    orders.deleteAll();
  }

  private void seed() {
    List<User> all = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      all.add(
          new User("u" + i, i % 3 == 0 ? "ada" : "bob", i % 2 == 0 ? "lovelace" : "babbage", i));
    }
    users.saveAll(all);
  }

  @Test
  void saveAndFind_derivedQueries_andAWrittenQuery() {
    seed();
    assertThat(users.count()).isEqualTo(30);
    assertThat(users.findById("u4", new PartitionKey("lovelace")))
        .hasValueSatisfying(u -> assertThat(u.getAge()).isEqualTo(4));
    assertThat(users.findByLastName("babbage")).hasSize(15);
    assertThat(users.findByAgeGreaterThanOrderByAgeDesc(26))
        .extracting(User::getAge)
        .containsExactly(29, 28, 27);
    assertThat(users.findByFirstNameAndLastName("ada", "lovelace"))
        .extracting(User::getId)
        .containsExactlyInAnyOrder("u0", "u6", "u12", "u18", "u24");
    assertThat(users.countByLastName("lovelace")).isEqualTo(15);
    assertThat(users.withFirstName("ada")).hasSize(10);
    users.deleteById("u4", new PartitionKey("lovelace"));
    assertThat(users.findById("u4", new PartitionKey("lovelace"))).isEmpty();
    assertThat(ShopApplication.DIAGNOSTICS)
        .isNotEmpty()
        .anySatisfy(d -> assertThat(d).contains("\"connectionMode\":\"DIRECT\""))
        .noneSatisfy(d -> assertThat(d).contains("\"connectionMode\":\"GATEWAY\""));
  }

  @Test
  void paging_walksEveryPage_inOrder() {
    seed();
    List<Integer> ages = new ArrayList<>();
    Page<User> page =
        users.findByLastName("lovelace", CosmosPageRequest.of(0, 4, null, Sort.by("age")));
    int pages = 0;
    while (true) {
      pages++;
      page.getContent().forEach(u -> ages.add(u.getAge()));
      if (!page.hasNext()) {
        break;
      }
      page = users.findByLastName("lovelace", page.nextPageable());
    }
    assertThat(pages).isEqualTo(4);
    assertThat(ages).containsExactly(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28);
  }

  /**
   * Spring keeps the SDK's continuation in the next page's request; a split between two pages
   * leaves it naming a range that is gone, and the SDK resumes it on the children.
   */
  @Test
  void crossPartitionPaging_acrossASplit_givesEveryUserOnce_inOrder() {
    seed();
    List<Integer> ages = new ArrayList<>();
    Page<User> page = users.findAll(CosmosPageRequest.of(0, 4, null, Sort.by("age")));
    for (int pages = 1; ; pages++) {
      page.getContent().forEach(u -> ages.add(u.getAge()));
      if (!page.hasNext()) {
        break;
      }
      if (pages == 2) {
        io.cosmolab.engine.Container engine = LAB.engine().database("shop").container("users");
        for (var r : engine.routing().ranges()) {
          engine.splitPartition(r.id());
        }
      }
      page = users.findAll(page.nextPageable());
    }
    assertThat(ages).hasSize(30).isSorted().doesNotHaveDuplicates();
  }

  @Test
  void aWrittenOffsetLimitQuery_returnsItsWindowOfTheRows() {
    seed();
    List<String> all = users.window(0, 100).stream().map(User::getId).toList();
    assertThat(all).hasSize(30).doesNotHaveDuplicates();
    assertThat(users.window(5, 10)).extracting(User::getId).isEqualTo(all.subList(5, 15));
    assertThat(users.window(28, 10)).extracting(User::getId).isEqualTo(all.subList(28, 30));
    assertThat(users.window(3, 0)).isEmpty();
  }

  @Test
  void theReactiveRepository_savesAndFinds() {
    reactive.save(new User("r1", "grace", "hopper", 85)).block();
    reactive.save(new User("r2", "grace", "kelly", 52)).block();
    assertThat(reactive.findByFirstName("grace").map(User::getId).collectList().block())
        .containsExactlyInAnyOrder("r1", "r2");
    assertThat(reactive.findById("r1", new PartitionKey("hopper")).map(User::getAge).block())
        .isEqualTo(85);
    assertThat(reactive.count().block()).isEqualTo(2);
  }

  /**
   * {@code @Version}: a new entity's first save sends {@code If-Match: null} on an upsert, which
   * the service ignores for an item that does not exist (the Java SDK's {@code setIfMatchETag} says
   * so); a save of a copy read before another save fails, as optimistic locking should.
   */
  @Test
  void aVersionedEntity_savesWhenNew_andASaveOfAStaleCopyFails() {
    Order saved = orders.save(new Order("o1", "acme", "open", null, 10));
    assertThat(saved.get_etag()).isNotBlank();
    assertThat(orders.count()).isEqualTo(1);
    orders.saveAll(
        List.of(
            new Order("o2", "acme", "open", "x", 20), new Order("o3", "zeta", "closed", null, 30)));
    assertThat(orders.count()).isEqualTo(3);

    Order first = orders.findById("o1", new PartitionKey("acme")).orElseThrow();
    Order second = orders.findById("o1", new PartitionKey("acme")).orElseThrow();
    first.setNote("first");
    orders.save(first);
    second.setNote("second");
    assertThatThrownBy(() -> orders.save(second))
        .isInstanceOf(
            com.azure.spring.data.cosmos.exception.CosmosPreconditionFailedException.class);
    assertThat(orders.findById("o1", new PartitionKey("acme")).orElseThrow().getNote())
        .isEqualTo("first");
  }

  @Test
  void derivedQueries_beyondEquality_findWhatTheirNamesSay() {
    List<Order> all = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      all.add(
          new Order(
              (i % 4 == 0 ? "big" : "small") + i,
              "c" + (i % 3),
              i % 2 == 0 ? "open" : "closed",
              i % 3 == 0 ? null : "n",
              i * 1.5));
    }
    orders.saveAll(all);
    assertThat(orders.findByStatusIn(List.of("open")))
        .extracting(Order::getId)
        .containsExactlyInAnyOrder("big0", "small2", "big4", "small6", "big8", "small10");
    assertThat(orders.findByIdStartsWith("big"))
        .extracting(Order::getId)
        .containsExactlyInAnyOrder("big0", "big4", "big8");
    assertThat(orders.findByNoteIsNull())
        .extracting(Order::getId)
        .containsExactlyInAnyOrder("big0", "small3", "small6", "small9");
    assertThat(orders.findByAmountBetween(3, 6))
        .extracting(Order::getId)
        .containsExactlyInAnyOrder("small2", "small3", "big4");
    assertThat(orders.findByStatusIgnoreCase("OPEN")).hasSize(6);
    assertThat(orders.findTop3ByOrderByAmountDesc())
        .extracting(Order::getId)
        .containsExactly("small11", "small10", "small9");
    assertThat(orders.existsByStatus("closed")).isTrue();
    assertThat(orders.existsByStatus("lost")).isFalse();
    orders.deleteByStatus("closed");
    assertThat(orders.count()).isEqualTo(6);
  }
}
