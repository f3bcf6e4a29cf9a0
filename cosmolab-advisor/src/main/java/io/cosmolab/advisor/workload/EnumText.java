package io.cosmolab.advisor.workload;

import java.util.Locale;
import java.util.StringJoiner;

/** Enum constants as a workload file writes them: in any case, named in errors in lower case. */
final class EnumText {
  private EnumText() {}

  /**
   * The constant of {@code type} that {@code text} names.
   *
   * @throws IllegalArgumentException naming {@code what} and the accepted values
   */
  static <E extends Enum<E>> E parse(Class<E> type, String text, String what) {
    StringJoiner known = new StringJoiner(", ");
    for (E e : type.getEnumConstants()) {
      if (e.name().equalsIgnoreCase(text.strip())) {
        return e;
      }
      known.add(e.name().toLowerCase(Locale.ROOT));
    }
    throw new IllegalArgumentException(what + " '" + text + "' is not one of " + known);
  }
}
