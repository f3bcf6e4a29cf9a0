package io.cosmolab.query.exec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.cosmolab.query.QueryException;
import io.cosmolab.query.ast.Expr;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One group of an aggregating SELECT, as its rows arrive: the group's first row (which its
 * non-aggregate expressions read) and one running accumulator per aggregate call, so a group holds
 * a few values whatever its size — except MAKELIST and MAKESET, whose result is the values.
 *
 * <p>Every aggregate's argument is evaluated on every row as it arrives, also for an aggregate in a
 * branch of {@code ? :} that the projection does not take in the end (its calls, a UDF's included,
 * are made and charged). [A] The service's evaluation order here is not documented.
 */
final class Group {
  private final Row first;
  private final Map<Expr.Call, Integer> slots;
  private final Accumulator[] accumulators;

  /**
   * A group that starts with {@code first} (null for the one group of an empty input), over the
   * aggregate calls of {@code calls}, each of which reads {@code arguments.get(i)}.
   */
  Group(Row first, Map<Expr.Call, Integer> slots, List<Expr.Call> calls, List<Eval> arguments) {
    this.first = first;
    this.slots = slots;
    this.accumulators = new Accumulator[calls.size()];
    for (int i = 0; i < accumulators.length; i++) {
      accumulators[i] = new Accumulator(calls.get(i).name(), arguments.get(i));
    }
  }

  /** The call → accumulator index map for {@code calls}, shared by every group of one operator. */
  static Map<Expr.Call, Integer> slots(List<Expr.Call> calls) {
    IdentityHashMap<Expr.Call, Integer> out = new IdentityHashMap<>();
    for (int i = 0; i < calls.size(); i++) {
      out.put(calls.get(i), i);
    }
    return out;
  }

  /** The group's first row, or null for the empty input's group. */
  Row first() {
    return first;
  }

  /**
   * Adds a row to every accumulator.
   *
   * @return the values the group now holds beyond its accumulators' fixed state (MAKELIST and
   *     MAKESET entries added by this row)
   */
  int add(Row r, Budget budget) {
    int held = 0;
    for (Accumulator a : accumulators) {
      held += a.add(r, budget);
    }
    return held;
  }

  /** The value of aggregate call {@code c} over the rows added so far. */
  JsonNode result(Expr.Call c) {
    Integer slot = slots.get(c);
    if (slot == null) {
      throw new QueryException(
          "SC2101", "Aggregate " + c.name() + " used outside an aggregating SELECT");
    }
    return accumulators[slot].result();
  }

  /** One aggregate call's running state. */
  private static final class Accumulator {
    private final String name;
    private final Eval argument;
    private long count;
    private double sum;
    private boolean nonNumber;
    private boolean nonPrimitive; // an array or object was aggregated
    private JsonNode best;
    // MAKELIST: the defined values in input order; MAKESET: the distinct ones [D "MAKELIST"]
    private final ArrayNode list;
    private final Set<Values.Key> seen;

    Accumulator(String name, Eval argument) {
      this.name = name;
      this.argument = argument;
      this.list = name.startsWith("MAKE") ? Values.NODES.arrayNode() : null;
      this.seen = name.equals("MAKESET") ? new HashSet<>() : null;
    }

    /** Adds the argument's value on {@code r}; returns the values newly held (0 or 1). */
    int add(Row r, Budget budget) {
      JsonNode v = argument.eval(r.bindings(), null);
      if (v == null) {
        return 0;
      }
      if (list != null) {
        if (seen != null && !seen.add(new Values.Key(v))) {
          return 0;
        }
        list.add(v);
        budget.holdValue(v);
        return 1;
      }
      count++;
      if (v.isNumber()) {
        sum += v.doubleValue();
      } else {
        nonNumber = true;
        nonPrimitive |= v.isContainerNode();
      }
      if (best == null) {
        best = v;
      } else {
        int cmp = Values.ORDER.compare(v, best);
        if ((name.equals("MIN") && cmp < 0) || (name.equals("MAX") && cmp > 0)) {
          best = v;
        }
      }
      return 0;
    }

    JsonNode result() {
      return switch (name) {
        case "COUNT" -> Values.number(count);
        // SUM starts at 0, so over no values it is 0, as the service answers (its emulator tests:
        // "sum and count default the counter at 0"); a non-number makes it undefined.
        case "SUM" -> nonNumber ? null : Values.number(sum);
        case "AVG" -> count == 0 || nonNumber ? null : Values.number(sum / count);
        case "MAKELIST", "MAKESET" -> list;
        // MIN, MAX: undefined over no values, and over any array or object: the service orders
        // only primitives (the .NET SDK's AggregateMixedTypes baseline: one object among numbers
        // makes MAX undefined)
        default -> nonPrimitive ? null : best;
      };
    }
  }
}
