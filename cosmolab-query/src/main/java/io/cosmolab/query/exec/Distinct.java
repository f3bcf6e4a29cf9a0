package io.cosmolab.query.exec;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.Set;

/** DISTINCT: passes each result the first time its value is seen. */
final class Distinct implements Operator<Keyed<JsonNode>> {
  private final Operator<Keyed<JsonNode>> upstream;
  private final Budget budget;
  private final Set<Values.Key> seen = new HashSet<>();

  Distinct(Operator<Keyed<JsonNode>> upstream, Budget budget) {
    this.upstream = upstream;
    this.budget = budget;
  }

  @Override
  public Keyed<JsonNode> next() {
    for (Keyed<JsonNode> r = upstream.next(); r != null; r = upstream.next()) {
      if (seen.add(new Values.Key(r.item()))) {
        budget.hold(seen.size());
        budget.holdValue(r.item());
        return r;
      }
    }
    return null;
  }
}
