package io.cosmolab.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import com.azure.core.credential.TokenRequestContext;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.testkit.CosmosLab;
import io.cosmolab.testkit.CosmosLabExtension;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Mono;

/**
 * The Java SDK with a {@link TokenCredential} (Entra ID), as the SDKs' emulator tests and the Java
 * samples' {@code AADWithEmulatorQuickStartAsync} run it: a JWT signed with the account key's text,
 * which the emulator accepts; one signed otherwise, or expired, is refused with 401.
 */
@ExtendWith(CosmosLabExtension.class)
class EntraIdEmulatorTokenCompatTest {

  /** The emulator's token: base64url(header).base64url(claims).base64url(key text). */
  private static TokenCredential emulatorCredential(String signingKey, long expiresInSeconds) {
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    return (TokenRequestContext context) -> {
      long now = System.currentTimeMillis() / 1000;
      String header =
          "{\"typ\":\"JWT\",\"alg\":\"RS256\",\"x5t\":\"CosmosEmulatorPrimaryMaster\","
              + "\"kid\":\"CosmosEmulatorPrimaryMaster\"}";
      String claims =
          String.format(
              "{\"aud\":\"https://localhost.localhost\",\"iat\":%d,\"nbf\":%d,\"exp\":%d,"
                  + "\"tid\":\"EmulatorFederation\",\"ver\":\"1.0\"}",
              now, now, now + expiresInSeconds);
      String token =
          b64.encodeToString(header.getBytes(StandardCharsets.UTF_8))
              + "."
              + b64.encodeToString(claims.getBytes(StandardCharsets.UTF_8))
              + "."
              + b64.encodeToString(signingKey.getBytes(StandardCharsets.UTF_8));
      return Mono.just(
          new AccessToken(token, OffsetDateTime.now(java.time.ZoneOffset.UTC).plusHours(2)));
    };
  }

  private static CosmosClient client(CosmosLab lab, TokenCredential credential) {
    return lab.clientBuilder().credential(credential).buildClient();
  }

  @Test
  void aTokenSignedWithTheKey_canDoWhatTheKeyCan(CosmosLab lab) {
    try (CosmosClient c = client(lab, emulatorCredential(lab.key(), 7200))) {
      c.createDatabaseIfNotExists("aad");
      c.getDatabase("aad").createContainerIfNotExists("items", "/pk");
      CosmosContainer items = c.getDatabase("aad").getContainer("items");
      ObjectNode d = JsonNodeFactory.instance.objectNode().put("id", "a").put("pk", "p");
      items.createItem(d);
      assertThat(items.readItem("a", new PartitionKey("p"), ObjectNode.class).getStatusCode())
          .isEqualTo(200);
    }
  }

  @Test
  void aTokenSignedOtherwise_orExpired_isRefusedWith401(CosmosLab lab) {
    // the SDK reads the account first, so the 401 comes when the client is built
    String otherKey = Base64.getEncoder().encodeToString(new byte[32]);
    assertThatThrownBy(() -> client(lab, emulatorCredential(otherKey, 7200)).close())
        .hasMessageContaining("StatusCode: Unauthorized")
        .hasMessageContaining("emulator's form");
    assertThatThrownBy(() -> client(lab, emulatorCredential(lab.key(), -3600)).close())
        .hasMessageContaining("StatusCode: Unauthorized")
        .hasMessageContaining("expired");
  }
}
