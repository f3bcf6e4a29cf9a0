package io.cosmolab.advisor.load;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.workload.Access;
import io.cosmolab.advisor.workload.Operation;
import io.cosmolab.advisor.workload.QueryShape;
import java.util.List;
import java.util.Map;

/**
 * How one operation reaches the partitions under one candidate key.
 *
 * <ul>
 *   <li>{@code SINGLE}: one logical partition — a point operation whose caller has every key field,
 *       or a query whose filter fixes the whole key to one value;
 *   <li>{@code TARGETED}: a few — a query whose IN list gives several keys, a hierarchical prefix,
 *       or the buckets of a bucketed key ({@link #fanOut} of them per request);
 *   <li>{@code ALL}: every partition — a query that does not fix the key, or a point operation
 *       whose caller lacks a key field and must first find the document with a query.
 * </ul>
 *
 * A synthetic key counts as fixed when the filter fixes each of its fields: the application can
 * then compute it. [I] The rule is the one the engine's query plan uses.
 *
 * @param reach how many partitions a request visits
 * @param fanOut for TARGETED: the keys or prefixes each request visits
 * @param access which documents the requests address
 * @param lookup a point operation whose caller lacks the key: a query over every partition first
 * @param inDocumentOrder a query whose rows come as the documents are read (see {@link
 *     QueryShape#inDocumentOrder}); false for point operations
 */
public record Route(
    Reach reach, int fanOut, Access access, boolean lookup, boolean inDocumentOrder) {

  /** How many partitions a request visits. */
  public enum Reach {
    SINGLE,
    TARGETED,
    ALL
  }

  /** The route of {@code op} under {@code candidate}. */
  public static Route of(Operation op, Candidate candidate) {
    if (op.type() != Operation.Type.QUERY) {
      boolean known = candidate.paths().stream().allMatch(op::knows);
      boolean lookup = !known && !op.type().createsDocuments();
      return new Route(lookup ? Reach.ALL : Reach.SINGLE, 1, op.access(), lookup, false);
    }
    QueryShape shape = QueryShape.of(op.sql());
    Map<String, QueryShape.Fixed> fixed = shape.fixed();
    List<String> paths = candidate.paths();
    int leading = 0;
    int combinations = 1;
    while (leading < paths.size() && fixed.containsKey(paths.get(leading))) {
      combinations *= fixed.get(paths.get(leading)).count();
      leading++;
    }
    Access access = leading > 0 ? accessOf(fixed, paths.get(0), op) : anyAccess(shape, op);
    boolean whole = leading == paths.size();
    boolean prefix = candidate.kind() == Candidate.Kind.HIERARCHICAL && leading > 0 && !whole;
    boolean ordered = shape.inDocumentOrder();
    if (candidate.kind() == Candidate.Kind.BUCKETED && whole) {
      return new Route(Reach.TARGETED, combinations * candidate.buckets(), access, false, ordered);
    }
    if (whole && combinations == 1) {
      return new Route(Reach.SINGLE, 1, access, false, ordered);
    }
    if (whole || prefix) {
      return new Route(Reach.TARGETED, combinations, access, false, ordered);
    }
    return new Route(Reach.ALL, 0, access, false, ordered);
  }

  /** The access of the values that fix {@code path}: a literal, a literal IN list, a parameter. */
  private static Access accessOf(Map<String, QueryShape.Fixed> fixed, String path, Operation op) {
    QueryShape.Fixed f = fixed.get(path);
    if (f.parameter() != null) {
      return op.parameters().getOrDefault(f.parameter(), Access.DATA).withBy(path);
    }
    List<JsonNode> literals = f.literals();
    if (literals.size() == 1) {
      return new Access(path, Access.Distribution.FIXED, null, null, null, null, literals.get(0));
    }
    return new Access(path, Access.Distribution.HOT, null, 1.0, null, literals, null);
  }

  /**
   * For a query that does not fix the key: the rows it returns follow its first parameter with a
   * distribution, else the documents, by the first field its filter fixes (so the share of the
   * documents a request matches is known; a field fixed by a literal is that one value).
   */
  private static Access anyAccess(QueryShape shape, Operation op) {
    for (Map.Entry<String, QueryShape.Fixed> e : shape.fixed().entrySet()) {
      String p = e.getValue().parameter();
      if (p != null && op.parameters().containsKey(p)) {
        return op.parameters().get(p).withBy(e.getKey());
      }
    }
    for (Map.Entry<String, QueryShape.Fixed> e : shape.fixed().entrySet()) {
      if (e.getValue().count() == 1) {
        return accessOf(shape.fixed(), e.getKey(), op);
      }
    }
    return Access.DATA;
  }
}
