package io.cosmolab.engine.partitioning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bit-exactness with the SDKs: every vector of {@code gateway-protocol.md} §5.5 and the Java SDK's
 * string-truncation vectors, kept as a golden file ({@code epk-vectors.tsv}).
 */
class EffectivePartitionKeyTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  static Stream<Arguments> vectors() throws IOException {
    List<Arguments> rows = new ArrayList<>();
    try (InputStream in = EffectivePartitionKeyTest.class.getResourceAsStream("epk-vectors.tsv");
        BufferedReader reader =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        if (line.startsWith("#") || line.isBlank()) {
          continue;
        }
        String[] f = line.split("\t", -1);
        rows.add(Arguments.of(f[0], f[1], f[2], f[3]));
      }
    }
    assertThat(rows).hasSizeGreaterThan(80);
    return rows.stream();
  }

  @ParameterizedTest(name = "{0} {3}")
  @MethodSource("vectors")
  void epk_matchesSdkVector(String kind, String keyJson, String expected, String source)
      throws IOException {
    JsonNode key = JSON.readTree(keyJson);
    List<PartitionKeyComponent> components = PartitionKeyValue.fromJson(key).components();
    String actual =
        switch (kind) {
          case "V1" -> EffectivePartitionKey.hashV1(components);
          case "V2" -> EffectivePartitionKey.hashV2(components);
          case "MULTIHASH" -> EffectivePartitionKey.multiHash(components);
          default -> throw new IllegalArgumentException(kind);
        };
    assertThat(actual).as("%s %s (%s)", kind, keyJson, source).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0} {3}")
  @MethodSource("vectors")
  void leadingBits_areTheFirstSixteenHexDigitsOfTheEpk(
      String kind, String keyJson, String expected, String source) throws IOException {
    if (kind.equals("V1")) {
      return; // not a uniform hash: no leading bits
    }
    PartitionKeyValue value = PartitionKeyValue.fromJson(JSON.readTree(keyJson));
    String[] paths = new String[value.size()];
    for (int i = 0; i < paths.length; i++) {
      paths[i] = "/p" + i;
    }
    PartitionKeyDefinition definition =
        kind.equals("MULTIHASH") && paths.length > 1
            ? PartitionKeyDefinition.hierarchical(paths)
            : PartitionKeyDefinition.hash(paths.length == 1 ? paths[0] : "/p");
    if (!definition.isHierarchical() && paths.length > 1) {
      return; // a multi-component V2 vector without a definition to carry it
    }
    assertThat(EffectivePartitionKey.leadingBits(definition, value))
        .as("%s %s (%s)", kind, keyJson, source)
        .isEqualTo(Long.parseUnsignedLong(expected.substring(0, 16), 16));
  }

  /**
   * A key that starts in ASCII and goes on past it hashes its whole UTF-8 encoding (the encoder
   * writes ASCII itself and hands the rest to the JDK from the start). Golden values made by the
   * encoder before that fast path, which took every string through the JDK; the SDK vectors above
   * hold pure ASCII and pure non-ASCII keys.
   */
  @Test
  void aKeyGoingPastAscii_hashesItsWholeUtf8() {
    assertThat(EffectivePartitionKey.hashV2(PartitionKeyValue.of("ab€d").components()))
        .isEqualTo("2AE2D95092FFD38CCE7390E6A4E91122");
    assertThat(EffectivePartitionKey.hashV2(PartitionKeyValue.of("tenant-42-é").components()))
        .isEqualTo("1116DDD035EB818E6E2A2F73C25A53BF");
    assertThat(EffectivePartitionKey.multiHash(PartitionKeyValue.of("x😀").components()))
        .isEqualTo("1703445CF13E870898B6B0128197716D");
  }

  @Test
  void of_hierarchicalPrefix_isTheFirstBlocksOfTheFullKey() {
    PartitionKeyDefinition def = PartitionKeyDefinition.hierarchical("/t", "/u", "/s");
    String full = EffectivePartitionKey.of(def, PartitionKeyValue.of("acme", "u1", "s9"));
    String prefix = EffectivePartitionKey.of(def, PartitionKeyValue.of("acme"));
    assertThat(full).hasSize(96).startsWith(prefix);
    assertThat(prefix).hasSize(32);
    EpkRange range = EffectivePartitionKey.prefixRange(def, PartitionKeyValue.of("acme", "u1"));
    assertThat(range.contains(full)).isTrue();
    assertThat(range.max()).isEqualTo(range.min() + "FF");
    String otherUser = EffectivePartitionKey.of(def, PartitionKeyValue.of("acme", "u2", "s9"));
    assertThat(range.contains(otherUser)).isFalse();
  }

  @Test
  void of_hashKey_dispatchesByVersion() {
    assertThat(
            EffectivePartitionKey.of(PartitionKeyDefinition.hash("/p"), PartitionKeyValue.of("aa")))
        .isEqualTo("05033626483AE80D00E44FBD35362B19");
    PartitionKeyDefinition v1 = new PartitionKeyDefinition(List.of("/p"), PartitionKind.HASH, 1);
    assertThat(EffectivePartitionKey.of(v1, PartitionKeyValue.of("redmond")))
        .isEqualTo("05C1EFE313830C087366656E706F6500");
  }

  @Test
  void of_wrongComponentCount_isRejectedWith1001() {
    PartitionKeyDefinition def = PartitionKeyDefinition.hash("/p");
    assertThatThrownBy(() -> EffectivePartitionKey.of(def, PartitionKeyValue.of("a", "b")))
        .isInstanceOfSatisfying(
            CosmosException.class,
            e -> {
              assertThat(e.error()).isEqualTo(CosmosError.PARTITION_KEY_MISMATCH);
              assertThat(e.getMessage()).contains("2 component(s)").contains("[/p]");
            });
    PartitionKeyDefinition hier = PartitionKeyDefinition.hierarchical("/a", "/b");
    assertThatThrownBy(() -> EffectivePartitionKey.of(hier, PartitionKeyValue.of()))
        .isInstanceOf(CosmosException.class);
  }

  @Test
  void epk_isAlwaysBelowTheKeySpaceEnd() {
    for (int i = 0; i < 10_000; i++) {
      String epk = EffectivePartitionKey.hashV2(PartitionKeyValue.of("k" + i).components());
      assertThat(epk.compareTo(EpkRange.MAX)).isNegative();
      assertThat(epk.charAt(0)).isBetween('0', '3');
    }
  }
}
