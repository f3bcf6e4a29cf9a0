package io.cosmolab.advisor.workload;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One kind of operation at peak.
 *
 * <pre>
 * - name: order history            # optional, for reports
 *   type: query                    # create, upsert, replace, patch, delete, read or query
 *   rate: 300                      # per second at peak
 *   sql: SELECT * FROM c WHERE c.userId = @user ORDER BY c.createdDate DESC
 *   parameters:
 *     "@user": { distribution: zipf, s: 1.2 }
 *   rows: 20                       # documents a query returns (10 when not given)
 * - type: patch
 *   rate: 800
 *   access: { by: /orderId, distribution: uniform }
 *   knows: [/id, /orderId]         # fields the caller has in hand
 *   changes: [/status]             # fields a replace or patch changes
 * </pre>
 *
 * @param name how reports call it (the type and position when not given)
 * @param type what it does
 * @param rate per second at peak
 * @param access which documents a point operation addresses (like the documents when not given)
 * @param knows the fields the caller has: a point operation whose caller lacks a key field must
 *     first find the document with a cross-partition query, and a create cannot supply the key. Not
 *     given: the caller has every field.
 * @param changes the fields a replace, patch or upsert changes
 * @param sql for a query: its Cosmos SQL text
 * @param parameters for a query: each parameter's distribution over the field it is compared with
 * @param rows for a query: the documents it returns
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Operation(
    @JsonProperty("name") String name,
    @JsonProperty("type") Type type,
    @JsonProperty("rate") double rate,
    @JsonProperty("access") Access access,
    @JsonProperty("knows") List<String> knows,
    @JsonProperty("changes") List<String> changes,
    @JsonProperty("sql") String sql,
    @JsonProperty("parameters") Map<String, Access> parameters,
    @JsonProperty("rows") Double rows) {

  /** Documents a query returns when the workload does not say. [I] */
  public static final double DEFAULT_ROWS = 10;

  /** A point operation of {@code type} spread like the documents. */
  public Operation(Type type, double rate) {
    this(null, type, rate, null, null, null, null, null, null);
  }

  /** A query with its parameters' distributions. */
  public static Operation query(String name, String sql, double rate, Map<String, Access> params) {
    return new Operation(name, Type.QUERY, rate, null, null, null, sql, params, null);
  }

  /** This query returning {@code documents} rows. */
  public Operation withRows(double documents) {
    return new Operation(name, type, rate, access, knows, changes, sql, parameters, documents);
  }

  public Operation {
    if (type == null) {
      throw new IllegalArgumentException(
          "an operation needs a type: create, upsert, replace, patch, delete, read or query");
    }
    String t = type.name().toLowerCase(Locale.ROOT);
    if (!(rate > 0)) {
      throw new IllegalArgumentException(
          "the rate of a " + t + " must be positive per second, was " + rate);
    }
    access = access == null ? Access.DATA : access;
    knows = knows == null ? null : List.copyOf(knows);
    changes = changes == null ? List.of() : List.copyOf(changes);
    for (List<String> paths : List.of(knows == null ? List.<String>of() : knows, changes)) {
      for (String p : paths) {
        PartitionKeyDefinition.segmentsOf(p);
      }
    }
    if (access.distribution() != Access.Distribution.DATA && access.by() == null) {
      throw new IllegalArgumentException(
          "the access of a " + t + " needs by: the field whose values choose the documents");
    }
    if (!changes.isEmpty() && type != Type.REPLACE && type != Type.PATCH && type != Type.UPSERT) {
      throw new IllegalArgumentException("changes belongs to a replace, patch or upsert, not " + t);
    }
    if (type == Type.QUERY) {
      if (sql == null || sql.isBlank()) {
        throw new IllegalArgumentException("a query needs sql: its Cosmos SQL text");
      }
      QueryShape.of(sql); // fails naming what is wrong with the text
      parameters = parameters == null ? Map.of() : new LinkedHashMap<>(parameters);
      for (String p : parameters.keySet()) {
        if (!QueryShape.parametersOf(sql).contains(p)) {
          throw new IllegalArgumentException(
              "parameter " + p + " is not used by the sql " + QueryShape.parametersOf(sql));
        }
      }
      parameters = Map.copyOf(parameters);
      if (rows != null && rows < 0) {
        throw new IllegalArgumentException("rows is the documents a query returns, 0 or more");
      }
      if (knows != null) {
        throw new IllegalArgumentException(
            "knows belongs to point operations; a query's filter says what it knows");
      }
    } else if (sql != null || parameters != null || rows != null) {
      throw new IllegalArgumentException("sql, parameters and rows belong to a query, not " + t);
    }
  }

  /** What reports call it. */
  public String label(int index) {
    return name != null ? name : type.name().toLowerCase(Locale.ROOT) + " #" + (index + 1);
  }

  /** The documents a query returns. */
  public double rowsOrDefault() {
    return rows == null ? DEFAULT_ROWS : rows;
  }

  /** Whether the caller has {@code path} in hand. */
  public boolean knows(String path) {
    return knows == null || knows.contains(path);
  }

  /** What an operation does. */
  public enum Type {
    CREATE,
    UPSERT,
    REPLACE,
    PATCH,
    DELETE,
    READ,
    QUERY;

    /** The type a YAML value names, in any case. */
    @JsonCreator
    public static Type parse(String text) {
      return EnumText.parse(Type.class, text, "operation type");
    }

    /** Writes that put a new document (or a whole new version) in place. */
    public boolean createsDocuments() {
      return this == CREATE || this == UPSERT;
    }

    /** Reads: point reads and queries. */
    public boolean isRead() {
      return this == READ || this == QUERY;
    }
  }
}
