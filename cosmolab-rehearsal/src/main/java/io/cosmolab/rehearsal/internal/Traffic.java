package io.cosmolab.rehearsal.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.workload.Access;
import io.cosmolab.advisor.workload.Operation;
import io.cosmolab.advisor.workload.QueryShape;
import io.cosmolab.rehearsal.Event;
import io.cosmolab.rehearsal.Phase;
import io.cosmolab.rehearsal.Scenario;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * What the application sends, second by second: the scenario's documents at the start and its
 * requests, generated once by one seeded random and the same for every candidate, whatever answers
 * them (the engine in virtual time, {@link Driver}, or a live endpoint, {@link LiveDriver}). Not
 * thread-safe: one thread generates.
 */
final class Traffic {
  private static final long PRELOAD_SPREAD_MILLIS = 90L * 24 * 3600 * 1000;

  /** Hears each request generated, with the epoch millis it is due. */
  interface Sink {
    void request(long due, Request r);
  }

  private final Scenario scenario;
  private final double scale;
  private final long startMillis;
  private final Random random;
  private final List<Op> ops = new ArrayList<>();
  private final List<String> hotFields;
  private final List<Event> events;
  private final List<Event> activeHot = new ArrayList<>();
  private final Documents docs;
  private int nextEvent;

  /** One operation of the workload, prepared. */
  static final class Op {
    final Operation op;
    final boolean write;
    final List<String> changes;
    final String sql;
    final Map<String, String> fixedPaths = new LinkedHashMap<>(); // path -> parameter or null
    final Map<String, JsonNode> literals = new LinkedHashMap<>();
    final Access drawBy; // how a query chooses the document its parameters come from
    final int rows;
    double carry;

    Op(Operation op, Set<String> keyPaths) {
      this.op = op;
      this.write = op.type() != Operation.Type.READ && op.type() != Operation.Type.QUERY;
      List<String> ch = new ArrayList<>();
      for (String c : op.changes()) {
        if (!keyPaths.contains(c)) { // a key field cannot change in place: not rehearsed [I]
          ch.add(c);
        }
      }
      this.changes = List.copyOf(ch);
      this.sql = op.sql();
      Access draw = op.access();
      if (op.type() == Operation.Type.QUERY) {
        QueryShape shape = QueryShape.of(op.sql());
        for (Map.Entry<String, QueryShape.Fixed> f : shape.fixed().entrySet()) {
          QueryShape.Fixed fixed = f.getValue();
          if (fixed.count() != 1) {
            continue; // IN lists: taken as reaching every partition [I]
          }
          if (fixed.parameter() != null) {
            fixedPaths.put(f.getKey(), fixed.parameter());
          } else {
            literals.put(f.getKey(), fixed.literals().get(0));
          }
        }
        draw = Access.DATA;
        for (Map.Entry<String, String> p : fixedPaths.entrySet()) {
          Access a = op.parameters().get(p.getValue());
          draw = (a == null ? Access.DATA : a).withBy(p.getKey());
          break;
        }
      }
      this.drawBy = draw;
      this.rows = (int) Math.max(1, Math.ceil(op.rowsOrDefault()));
    }
  }

  /** One request of the application, as every candidate receives it. */
  static final class Request {
    final int op;
    final Documents.Doc doc;
    final ObjectNode json; // creates, upserts and replaces: the document to write
    final Map<String, JsonNode> parameters;
    final Map<String, JsonNode> fixedValues;
    final int phase;

    Request(
        int op,
        Documents.Doc doc,
        ObjectNode json,
        Map<String, JsonNode> parameters,
        Map<String, JsonNode> fixedValues,
        int phase) {
      this.op = op;
      this.doc = doc;
      this.json = json;
      this.parameters = parameters;
      this.fixedValues = fixedValues;
      this.phase = phase;
    }
  }

  Traffic(Scenario scenario, double scale) {
    this.scenario = scenario;
    this.scale = scale;
    this.startMillis = scenario.start().toEpochMilli();
    this.random = new Random(scenario.seed());
    List<Candidate> candidates = scenario.candidates();
    this.events = new ArrayList<>(scenario.events());
    events.sort(Comparator.comparing(Event::at));
    Set<String> hot = new LinkedHashSet<>();
    for (Event e : events) {
      if (e.kind() == Event.Kind.HOT) {
        hot.add(e.field());
      }
    }
    this.hotFields = List.copyOf(hot);
    Set<String> keyPaths = new LinkedHashSet<>();
    for (Candidate c : candidates) {
      keyPaths.addAll(c.paths());
    }
    Set<String> indexed = new LinkedHashSet<>(hot);
    for (Operation o : scenario.workload().operations()) {
      Op p = new Op(o, keyPaths);
      ops.add(p);
      if (p.drawBy.by() != null) {
        indexed.add(p.drawBy.by());
      }
      if (o.access().by() != null) {
        indexed.add(o.access().by());
      }
    }
    this.docs =
        new Documents(
            scenario.sample(),
            candidates,
            scenario.clockFields(),
            hotFields,
            List.copyOf(indexed),
            "doc-");
  }

  /** The operation a request belongs to. */
  Op op(Request r) {
    return ops.get(r.op);
  }

  Documents docs() {
    return docs;
  }

  /** Hears each document of the start, with its JSON (before a candidate's own fields). */
  interface PreloadSink {
    void document(Documents.Doc d, ObjectNode json);
  }

  /** Generates the {@code count} documents the containers hold at the start. */
  void preload(long count, PreloadSink sink) {
    for (long i = 0; i < count; i++) {
      long created = startMillis - (long) (random.nextDouble() * PRELOAD_SPREAD_MILLIS);
      Documents.Doc d = docs.create(random, created, null);
      sink.document(d, docs.json(d));
    }
    docs.rank();
  }

  int phaseAt(long second) {
    long t = 0;
    List<Phase> phases = scenario.phases();
    for (int i = 0; i < phases.size(); i++) {
      t += phases.get(i).duration().toMillis();
      if (second * 1000 < t) {
        return i;
      }
    }
    return phases.size() - 1;
  }

  double multiplierAt(long second) {
    long t = 0;
    long at = second * 1000 + 500;
    for (Phase p : scenario.phases()) {
      long end = t + p.duration().toMillis();
      if (at < end) {
        return p.multiplierAt(at - t);
      }
      t = end;
    }
    Phase last = scenario.phases().get(scenario.phases().size() - 1);
    return last.to();
  }

  /**
   * The requests of second {@code s} (from the start), generated once for every candidate, handed
   * to {@code sink} in the order they are due. Call once per second, in order; the events due by
   * then are applied first (a hot key here, a throughput change through {@code onThroughput}).
   */
  void second(long s, java.util.function.Consumer<Event> onThroughput, Sink sink) {
    while (nextEvent < events.size() && events.get(nextEvent).at().toSeconds() <= s) {
      Event e = events.get(nextEvent++);
      if (e.kind() == Event.Kind.HOT) {
        activeHot.add(e);
      } else {
        onThroughput.accept(e);
      }
    }
    docs.publish();
    double m = multiplierAt(s);
    int phase = phaseAt(s);
    int[] counts = new int[ops.size()];
    int total = 0;
    for (int j = 0; j < ops.size(); j++) {
      Op o = ops.get(j);
      o.carry += o.op.rate() * m / scale;
      counts[j] = (int) Math.floor(o.carry);
      o.carry -= counts[j];
      total += counts[j];
    }
    long[] at = new long[total];
    int[] which = new int[total];
    int n = 0;
    for (int j = 0; j < ops.size(); j++) {
      double offset = (j + 1.0) / (ops.size() + 1.0);
      for (int k = 0; k < counts[j]; k++) {
        at[n] = (long) ((k + offset) * 1000 / counts[j]);
        which[n++] = j;
      }
    }
    // by time, then by operation and position (the order they were filled in): (at << 24) | i
    long[] order = new long[total];
    for (int i = 0; i < total; i++) {
      order[i] = (at[i] << 24) | i;
    }
    java.util.Arrays.sort(order);
    for (long key : order) {
      int i = (int) (key & 0xFFFFFF);
      long due = startMillis + s * 1000 + at[i];
      Request r = generate(which[i], due, phase);
      if (r != null) {
        sink.request(due, r);
      }
    }
  }

  private Request generate(int j, long due, int phase) {
    Op o = ops.get(j);
    Operation.Type type = o.op.type();
    boolean fresh =
        type == Operation.Type.CREATE
            || (type == Operation.Type.UPSERT && (o.changes.isEmpty() || docs.visible() == 0));
    if (fresh) {
      JsonNode[] hot = null;
      for (Event e : activeHot) {
        if (random.nextDouble() < e.share()) {
          int f = hotFields.indexOf(e.field());
          if (hot == null) {
            hot = new JsonNode[hotFields.size()];
          }
          if (hot[f] == null) {
            hot[f] = e.value();
          }
        }
      }
      Documents.Doc d = docs.create(random, due, hot);
      return new Request(j, d, docs.json(d), null, null, phase);
    }
    int chosen = -1;
    for (Event e : activeHot) {
      if (random.nextDouble() < e.share()) {
        chosen = docs.chooseWith(random, e.field(), e.value());
        if (chosen >= 0) {
          break;
        }
      }
    }
    if (chosen < 0) {
      chosen = docs.choose(random, type == Operation.Type.QUERY ? o.drawBy : o.op.access());
    }
    if (type == Operation.Type.QUERY) {
      Map<String, JsonNode> params = new LinkedHashMap<>();
      Map<String, JsonNode> fixed = new LinkedHashMap<>(o.literals);
      for (Map.Entry<String, String> p : o.fixedPaths.entrySet()) {
        if (chosen < 0) {
          return null; // nothing to ask for yet
        }
        JsonNode v = docs.valueAt(docs.get(chosen), p.getKey());
        if (v == null) {
          v = com.fasterxml.jackson.databind.node.NullNode.getInstance();
        }
        params.put(p.getValue(), v);
        fixed.put(p.getKey(), v);
      }
      return new Request(j, null, null, Map.copyOf(params), fixed, phase);
    }
    if (chosen < 0) {
      return null;
    }
    Documents.Doc d = docs.get(chosen);
    ObjectNode json = null;
    switch (type) {
      case UPSERT, REPLACE, PATCH -> {
        d.version++;
        json = docs.json(d);
        docs.change(json, d, o.changes);
      }
      case DELETE -> d.deleted = true;
      default -> {}
    }
    return new Request(j, d, json, null, null, phase);
  }
}
