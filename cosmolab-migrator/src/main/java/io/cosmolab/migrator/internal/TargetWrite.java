package io.cosmolab.migrator.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * One write to the target: the whole transformed document upserted under its new key, or the copy
 * of {@code id} under a key deleted (404 tolerated). Both are idempotent, so a replayed page
 * changes nothing. {@link #keyText} is the new key as {@link
 * io.cosmolab.migrator.TargetKey#keyTextOf} gives it (a JSON array); together with the id it names
 * one target document.
 */
public sealed interface TargetWrite {
  String id();

  String keyText();

  /** The target document this write is to: its id and its new key. */
  default String document() {
    return id() + '\u0000' + keyText();
  }

  /** The test hook's name for this write (see {@link io.cosmolab.migrator.MigratorOptions}). */
  String step();

  /** Upserts {@code body} under {@code keyText}. */
  record Upsert(ObjectNode body, String keyText) implements TargetWrite {
    public Upsert {
      Objects.requireNonNull(body, "body");
      Objects.requireNonNull(keyText, "keyText");
      if (!body.path("id").isTextual()) {
        throw new IllegalArgumentException("a target document needs a string id: " + body);
      }
    }

    @Override
    public String id() {
      return body.get("id").textValue();
    }

    @Override
    public String step() {
      return "upsert";
    }
  }

  /** Deletes the copy of {@code id} under {@code keyText}; absent is fine. */
  record Delete(String id, String keyText) implements TargetWrite {
    public Delete {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(keyText, "keyText");
    }

    @Override
    public String step() {
      return "delete";
    }
  }
}
