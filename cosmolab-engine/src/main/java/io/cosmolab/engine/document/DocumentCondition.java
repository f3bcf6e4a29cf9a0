package io.cosmolab.engine.document;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The condition of a conditional patch ({@code "condition": "FROM c WHERE c.status = 'open'"}): the
 * patch applies only if the current document satisfies it, otherwise 412.
 *
 * <p>The engine evaluates it as a predicate; the query module compiles the SQL text into one.
 */
public interface DocumentCondition {

  /** The condition as the client wrote it, for error messages. */
  String text();

  /** Whether the current version of the document satisfies the condition. */
  boolean test(ObjectNode document);

  /** A condition from a predicate, with the text that describes it. */
  static DocumentCondition of(String text, java.util.function.Predicate<ObjectNode> predicate) {
    return new DocumentCondition() {
      @Override
      public String text() {
        return text;
      }

      @Override
      public boolean test(ObjectNode document) {
        return predicate.test(document);
      }
    };
  }
}
