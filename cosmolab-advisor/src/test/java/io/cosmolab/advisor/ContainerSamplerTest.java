package io.cosmolab.advisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.input.ContainerSampler;
import io.cosmolab.advisor.input.SdkClients;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.testkit.CosmosLab;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Sampling a live container through the official Java SDK, against a cosmolab server. */
class ContainerSamplerTest {
  private static CosmosLab lab;
  private static CosmosClient client;

  @BeforeAll
  static void start() throws InterruptedException {
    lab = CosmosLab.builder().start();
    client = lab.clientBuilder().buildClient();
    client.createDatabase("shop");
    client
        .getDatabase("shop")
        .createContainer(
            new CosmosContainerProperties("orders", "/tenantId"),
            ThroughputProperties.createManualThroughput(24_000));
    CosmosContainer orders = client.getDatabase("shop").getContainer("orders");
    ObjectMapper json = new ObjectMapper();
    for (int i = 0; i < 300; i++) {
      orders.createItem(order(json, "old-" + i, "t" + (i % 50)));
    }
    Thread.sleep(1100); // _ts has whole seconds: the newer documents get a later one
    for (int i = 0; i < 500; i++) {
      orders.createItem(order(json, "new-" + i, i % 2 == 0 ? "vip" : "t" + (i % 50)));
    }
  }

  private static ObjectNode order(ObjectMapper json, String id, String tenant) {
    ObjectNode d = json.createObjectNode();
    d.put("id", id);
    d.put("tenantId", tenant);
    d.put("total", id.length());
    return d;
  }

  @AfterAll
  static void stop() {
    client.close();
    lab.close();
  }

  @ParameterizedTest
  @EnumSource(SdkClients.Mode.class)
  void theSample_isTheNewestDocuments_andKnowsTheContainersSizeAndThroughput(SdkClients.Mode mode) {
    try (ContainerSampler sampler =
        ContainerSampler.connect(lab.endpoint(), lab.key(), mode, "shop", "orders", 500)) {
      assertThat(sampler.containerDocuments()).isEqualTo(800);
      assertThat(sampler.throughputOrNull()).isEqualTo(Throughput.manual(24_000));
      List<String> ids = new ArrayList<>();
      sampler.forEachRemaining(d -> ids.add(d.get("id").asText()));
      assertThat(ids).hasSize(500).allMatch(id -> id.startsWith("new-"));
    }
  }

  @Test
  void theAdvisor_ranksKeysOverALiveSample() {
    try (ContainerSampler sampler = ContainerSampler.of(client, "shop", "orders", 10_000)) {
      List<Advice> ranked =
          Advisor.analyze(
              sampler,
              List.of(Candidate.single("/tenantId"), Candidate.single("/id")),
              new AdvisorOptions(Throughput.manual(24_000), 0));
      assertThat(ranked.get(0).candidate()).isEqualTo("/id");
      assertThat(ranked.get(1).reasons())
          .anyMatch(r -> r.startsWith("hot key [\"vip\"] holds 31% of documents"));
    }
  }

  @Test
  void aContainerThatDoesNotIndexTs_isSampledInStorageOrder_andSaysSo() {
    var properties = new CosmosContainerProperties("unordered", "/tenantId");
    var policy = new com.azure.cosmos.models.IndexingPolicy();
    policy.setIncludedPaths(List.of(new com.azure.cosmos.models.IncludedPath("/tenantId/?")));
    policy.setExcludedPaths(List.of(new com.azure.cosmos.models.ExcludedPath("/*")));
    properties.setIndexingPolicy(policy);
    client.getDatabase("shop").createContainer(properties);
    CosmosContainer unordered = client.getDatabase("shop").getContainer("unordered");
    ObjectMapper json = new ObjectMapper();
    for (int i = 0; i < 50; i++) {
      unordered.createItem(order(json, "u-" + i, "t" + (i % 5)));
    }
    try (ContainerSampler sampler = ContainerSampler.of(client, "shop", "unordered", 1000)) {
      List<String> ids = new ArrayList<>();
      sampler.forEachRemaining(d -> ids.add(d.get("id").asText()));
      assertThat(ids).hasSize(50);
      assertThat(sampler.inArrivalOrder()).isFalse();
    }
    try (ContainerSampler sampler = ContainerSampler.of(client, "shop", "orders", 10)) {
      assertThat(sampler.inArrivalOrder()).isTrue();
    }
  }

  @Test
  void anEndpointNothingListensOn_failsNamingIt() throws java.io.IOException {
    int port;
    try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
      port = free.getLocalPort();
    }
    java.net.URI nowhere = java.net.URI.create("https://localhost:" + port + "/");
    assertThatThrownBy(
            () ->
                ContainerSampler.connect(
                    nowhere, lab.key(), SdkClients.Mode.GATEWAY, "shop", "orders", 10))
        .hasMessageStartingWith("cannot connect to " + nowhere + ": is the endpoint reachable");
  }

  @Test
  void directMode_onAPlainHttpEndpoint_isRefusedNamingBothWaysOut() {
    java.net.URI http = java.net.URI.create("http://localhost:8081/");
    assertThatThrownBy(
            () ->
                ContainerSampler.connect(
                    http, lab.key(), SdkClients.Mode.DIRECT, "shop", "orders", 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("direct mode is RNTBD over TLS")
        .hasMessageContaining("connect over https://")
        .hasMessageContaining("leave out --direct");
  }

  @Test
  void aMissingContainer_failsNamingIt() {
    try (ContainerSampler sampler = ContainerSampler.of(client, "shop", "nosuch", 10)) {
      assertThatThrownBy(sampler::hasNext)
          .hasMessageContaining(
              "cannot sample shop/nosuch: there is no such database or container");
    }
  }
}
