package io.cosmolab.rehearsal.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The partition key a client sends with a query under a candidate, from the values its filter fixes
 * with {@code =}: the whole key (one logical partition), a hierarchical key's leading levels (the
 * prefix's ranges), or none (every partition). As the SDK routes it: a synthetic key needs all its
 * parts; a bucketed key's query is sent to every partition here [I] (the SDK would send one per
 * bucket, B targeted requests).
 */
final class QueryKeys {
  private QueryKeys() {}

  static PartitionKeyValue keyOf(Candidate k, Map<String, JsonNode> fixed) {
    if (fixed == null || fixed.isEmpty()) {
      return null;
    }
    switch (k.kind()) {
      case SINGLE -> {
        JsonNode v = fixed.get(k.paths().get(0));
        return v == null ? null : PartitionKeyValue.of(plain(v));
      }
      case SYNTHETIC -> {
        StringBuilder b = new StringBuilder();
        for (String p : k.paths()) {
          JsonNode v = fixed.get(p);
          if (v == null) {
            return null;
          }
          b.append(b.length() == 0 ? "" : "-").append(Documents.text(v));
        }
        return PartitionKeyValue.of(b.toString());
      }
      case HIERARCHICAL -> {
        List<Object> prefix = new ArrayList<>();
        for (String p : k.paths()) {
          JsonNode v = fixed.get(p);
          if (v == null) {
            break;
          }
          prefix.add(plain(v));
        }
        return prefix.isEmpty() ? null : PartitionKeyValue.of(prefix.toArray());
      }
      default -> {
        return null;
      }
    }
  }

  private static Object plain(JsonNode v) {
    if (v.isTextual()) {
      return v.textValue();
    }
    if (v.isNumber()) {
      return v.doubleValue();
    }
    if (v.isBoolean()) {
      return v.booleanValue();
    }
    return null;
  }
}
