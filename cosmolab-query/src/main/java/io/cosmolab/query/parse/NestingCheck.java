package io.cosmolab.query.parse;

import io.cosmolab.query.QueryException;
import java.util.List;
import java.util.Locale;
import org.antlr.v4.runtime.Token;

/**
 * Refuses, from the tokens alone and before the parser sees them, a query nested deeper than
 * {@value #MAX_NESTING} levels, or with more ANDs or ORs than the service's query engine allows.
 *
 * <p>Why before parsing: the parser, the tree builder, the planner and the executor all recurse
 * once per level of nesting, so a query of a few kilobytes ({@code (((…true…)))}, {@code NOT NOT
 * …}, {@code ABS(ABS(…))}, {@code [[[…]]]}) would otherwise exhaust a thread's stack. Measured on a
 * 1 MB stack (the JVM's default for server threads), the parser overflowed at 725 nested
 * parentheses and the executor at 545 nested subqueries; the limit leaves a margin of four and more
 * below those, and no query a person writes comes near it.
 *
 * <p>What counts as a level: an opening parenthesis, bracket or brace, and each prefix operator
 * ({@code NOT}, unary {@code - + ~}) until the operand it applies to, which is where the parser
 * recurses. Long flat chains ({@code a + b + …}, {@code c.a.a.a…}) recurse in the tree builder
 * instead; {@link QueryParser} bounds those by the depth of the tree it builds.
 */
final class NestingCheck {
  /**
   * Levels of nesting a query may have. [A] The service refuses overly complex queries without
   * publishing a number; this one is ours, chosen from the measurements above.
   */
  static final int MAX_NESTING = 128;

  /** {@code maxLogicalAndPerSqlQuery} and {@code maxLogicalOrPerSqlQuery} of the service. [S] */
  static final int MAX_LOGICAL_OPERATORS = 500;

  private NestingCheck() {}

  static void check(List<Token> tokens) {
    int[] bases = new int[MAX_NESTING + 2];
    int[] chains = new int[MAX_NESTING + 2];
    int open = 0; // how many brackets are open
    int chain = 0; // property and index steps in a row at this level (c.a.b[0]: 3)
    int base = 0; // nesting of the current bracket level
    int pending = 0; // prefix operators at this level still waiting for their operand
    int ands = 0;
    int ors = 0;
    Token previous = null;
    for (Token t : tokens) {
      int type = t.getType();
      switch (type) {
        case CosmosSqlLexer.LPAREN, CosmosSqlLexer.LBRACKET, CosmosSqlLexer.LBRACE -> {
          int level = base + pending + 1;
          if (level > MAX_NESTING) {
            throw tooDeep(t);
          }
          // c[...] after an operand is one more step of its chain; any other bracket starts anew
          chain = type == CosmosSqlLexer.LBRACKET && endsOperand(previous) ? step(chain, t) : 0;
          chains[open] = chain;
          bases[open++] = base;
          base = level;
          pending = 0;
          chain = 0;
        }
        case CosmosSqlLexer.RPAREN, CosmosSqlLexer.RBRACKET, CosmosSqlLexer.RBRACE -> {
          if (open > 0) {
            base = bases[--open];
            chain = chains[open];
          }
          pending = 0; // the bracket closed an operand; unbalanced text is the parser's to report
        }
        case CosmosSqlLexer.DOT -> chain = endsOperand(previous) ? step(chain, t) : 0;
        case CosmosSqlLexer.NOT,
            CosmosSqlLexer.MINUS,
            CosmosSqlLexer.PLUS,
            CosmosSqlLexer.TILDE -> {
          if (!endsOperand(previous)) {
            pending++;
            if (base + pending > MAX_NESTING) {
              throw tooDeep(t);
            }
          }
        }
        case CosmosSqlLexer.AND -> {
          ands = count(ands, "AND", previous, t);
          chain = isAfterDot(previous) ? chain : 0;
        }
        case CosmosSqlLexer.OR -> {
          ors = count(ors, "OR", previous, t);
          chain = isAfterDot(previous) ? chain : 0;
        }
        default -> {
          if (endsOperandByItself(type) || isAfterDot(previous)) {
            pending = 0;
          }
          if (!isAfterDot(previous)) {
            chain = 0; // a name after a dot is the step the dot began; anything else ends it
          }
        }
      }
      previous = t;
    }
  }

  /**
   * One more step of a chain of property and index accesses: the tree builder nests a level per
   * step and refuses more than {@link QueryParser#MAX_EXPRESSION_DEPTH}, but only after the parser
   * has built them all (a 500 KB chain took about a second and 300 MB); this refuses it first.
   */
  private static int step(int chain, Token t) {
    if (chain + 1 > QueryParser.MAX_EXPRESSION_DEPTH) {
      throw new QueryException(
          "SC3021",
          String.format(
              Locale.ROOT,
              "The query is too complex: a chain of property and index accesses is longer than %d"
                  + " steps, at offset %d",
              QueryParser.MAX_EXPRESSION_DEPTH,
              t.getStartIndex()),
          t.getStartIndex(),
          t.getStopIndex() + 1);
    }
    return chain + 1;
  }

  private static int count(int sofar, String operator, Token previous, Token t) {
    if (isAfterDot(previous)) {
      return sofar; // c.and is a property name
    }
    if (sofar + 1 > MAX_LOGICAL_OPERATORS) {
      // The service's wording (seen in its answers); the code is ours [A].
      throw new QueryException(
          "SC3022",
          String.format(
              Locale.ROOT,
              "The SQL query exceeded the maximum number of '%s' operators. The allowed limit is"
                  + " %d. Use IN (...) or ARRAY_CONTAINS for long lists of alternatives.",
              operator,
              MAX_LOGICAL_OPERATORS),
          t.getStartIndex(),
          t.getStopIndex() + 1);
    }
    return sofar + 1;
  }

  private static QueryException tooDeep(Token t) {
    return new QueryException(
        "SC3021",
        String.format(
            Locale.ROOT,
            "The query is too complex: it nests deeper than %d levels (parentheses, brackets,"
                + " braces, function calls, subqueries and prefix operators such as NOT, each one"
                + " level), at offset %d",
            MAX_NESTING,
            t.getStartIndex()),
        t.getStartIndex(),
        t.getStopIndex() + 1);
  }

  /** True when {@code t} completes an operand, so that a following - + ~ NOT is infix. */
  private static boolean endsOperand(Token t) {
    if (t == null) {
      return false;
    }
    int type = t.getType();
    return endsOperandByItself(type)
        || type == CosmosSqlLexer.RPAREN
        || type == CosmosSqlLexer.RBRACKET
        || type == CosmosSqlLexer.RBRACE;
  }

  private static boolean endsOperandByItself(int type) {
    return type == CosmosSqlLexer.IDENTIFIER
        || type == CosmosSqlLexer.STRING_LITERAL
        || type == CosmosSqlLexer.NUMBER_LITERAL
        || type == CosmosSqlLexer.PARAMETER
        || type == CosmosSqlLexer.TRUE
        || type == CosmosSqlLexer.FALSE
        || type == CosmosSqlLexer.NULL
        || type == CosmosSqlLexer.UNDEFINED
        || type == CosmosSqlLexer.ROOT;
  }

  private static boolean isAfterDot(Token previous) {
    return previous != null && previous.getType() == CosmosSqlLexer.DOT;
  }
}
