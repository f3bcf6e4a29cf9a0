package io.cosmolab.query.ast;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** An expression of the query language. Immutable; built by the parser, read by the evaluator. */
public sealed interface Expr {

  /** A constant; {@code value} is null for {@code undefined}. */
  record Literal(JsonNode value) implements Expr {}

  /** {@code @name}. */
  record Parameter(String name) implements Expr {}

  /** A FROM alias ({@code c}) or, outside any FROM, an unresolved name. */
  record Identifier(String name) implements Expr {}

  /** {@code target.property}. */
  record Member(Expr target, String property) implements Expr {}

  /** {@code target[index]}: a property name (string) or an array index (number). */
  record Index(Expr target, Expr index) implements Expr {}

  /** {@code - + ~ NOT} applied to one operand. */
  record Unary(UnaryOp op, Expr operand) implements Expr {}

  /** A binary operator. */
  record Binary(BinaryOp op, Expr left, Expr right) implements Expr {}

  /** {@code value [NOT] IN (items...)}. */
  record In(Expr value, List<Expr> items, boolean negated) implements Expr {
    public In {
      items = List.copyOf(items);
    }
  }

  /** {@code value [NOT] BETWEEN low AND high}. */
  record Between(Expr value, Expr low, Expr high, boolean negated) implements Expr {}

  /** {@code value [NOT] LIKE pattern [ESCAPE escape]}; escape may be null. */
  record Like(Expr value, Expr pattern, Expr escape, boolean negated) implements Expr {}

  /** {@code condition ? then : otherwise}. */
  record Conditional(Expr condition, Expr then, Expr otherwise) implements Expr {}

  /** A system function call; the name is upper-cased. */
  record Call(String name, List<Expr> arguments) implements Expr {
    public Call {
      arguments = List.copyOf(arguments);
    }
  }

  /** {@code udf.name(...)}: a user-defined function. */
  record UdfCall(String name, List<Expr> arguments) implements Expr {
    public UdfCall {
      arguments = List.copyOf(arguments);
    }
  }

  /** {@code [a, b, ...]}. */
  record ArrayLiteral(List<Expr> items) implements Expr {
    public ArrayLiteral {
      items = List.copyOf(items);
    }
  }

  /** {@code {"a": x, ...}}. */
  record ObjectLiteral(List<Property> properties) implements Expr {
    public ObjectLiteral {
      properties = List.copyOf(properties);
    }
  }

  /** One property of an object literal. */
  record Property(String name, Expr value) {}

  /** {@code (SELECT ...)} as a value: its first result, or undefined. */
  record ScalarSubquery(Query query) implements Expr {}

  /** {@code EXISTS(SELECT ...)}. */
  record Exists(Query query) implements Expr {}

  /** {@code ARRAY(SELECT ...)}. */
  record ArraySubquery(Query query) implements Expr {}

  /** Unary operators. */
  enum UnaryOp {
    NEGATE,
    PLUS,
    BITWISE_NOT,
    NOT
  }

  /** Binary operators. */
  enum BinaryOp {
    MULTIPLY,
    DIVIDE,
    MODULO,
    ADD,
    SUBTRACT,
    CONCAT,
    SHIFT_LEFT,
    SHIFT_RIGHT,
    SHIFT_RIGHT_ZERO_FILL,
    BIT_AND,
    BIT_XOR,
    BIT_OR,
    EQUAL,
    NOT_EQUAL,
    LESS,
    LESS_OR_EQUAL,
    GREATER,
    GREATER_OR_EQUAL,
    AND,
    OR,
    COALESCE
  }
}
