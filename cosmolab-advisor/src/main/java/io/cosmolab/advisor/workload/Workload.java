package io.cosmolab.advisor.workload;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A workload file: one container's fields at the top level, or several under {@code containers}.
 * See {@link ContainerWorkload}, {@link Operation}, {@link Access} and {@link Join} for the fields,
 * and {@code docs/advisor.md} for worked examples.
 *
 * @param containers the containers, in the file's order
 */
public record Workload(List<ContainerWorkload> containers) {

  public Workload {
    containers = List.copyOf(containers);
    Set<String> names = new HashSet<>();
    for (ContainerWorkload c : containers) {
      if (!names.add(c.name())) {
        throw new IllegalArgumentException("two containers are named " + c.name());
      }
    }
    for (ContainerWorkload c : containers) {
      for (Join j : c.joins()) {
        if (!names.contains(j.container())) {
          throw new IllegalArgumentException(
              "container " + c.name() + " joins " + j.container() + ", which is not in the file");
        }
      }
    }
  }

  /** The one container, or the one named {@code name}. */
  public ContainerWorkload container(String name) {
    for (ContainerWorkload c : containers) {
      if (c.name().equals(name)) {
        return c;
      }
    }
    throw new IllegalArgumentException("no container " + name + " in the workload");
  }

  /** The file's shape with several containers. */
  private record Containers(@JsonProperty("containers") List<ContainerWorkload> containers) {}

  /**
   * Reads a workload file.
   *
   * @throws IllegalArgumentException naming the file, line and field of what is wrong
   */
  public static Workload read(Path file) {
    return read(file, Set.of());
  }

  /**
   * Reads a workload file whose top level may also hold {@code extraFields}, which another reader
   * of the same file owns (the rehearsal's {@code duration}, {@code phases}, ...): they are skipped
   * here, and every other unknown field still fails.
   *
   * @throws IllegalArgumentException naming the file, line and field of what is wrong
   */
  public static Workload read(Path file, Set<String> extraFields) {
    YAMLMapper yaml = strictMapper();
    if (!extraFields.isEmpty()) {
      yaml.addHandler(new SkipTopLevel(Set.copyOf(extraFields)));
    }
    try {
      JsonNode tree = yaml.readTree(file.toFile());
      if (tree == null || tree.isMissingNode() || tree.isNull()) {
        throw new IllegalArgumentException(file + ": the workload file is empty");
      }
      List<ContainerWorkload> containers;
      if (tree.has("containers")) {
        for (String name : (Iterable<String>) tree::fieldNames) {
          if (!name.equals("containers") && !extraFields.contains(name)) {
            throw new IllegalArgumentException(
                String.format(
                    "%s, line %d: %s is a container's field; give a container's fields either at"
                        + " the top level or under containers, not both",
                    file, lineOf(file, name, 0), name));
          }
        }
        containers = yaml.readValue(file.toFile(), Containers.class).containers();
      } else {
        containers = List.of(yaml.readValue(file.toFile(), ContainerWorkload.class));
      }
      try {
        return new Workload(containers == null ? List.of() : containers);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
      }
    } catch (JsonProcessingException e) {
      throw failure(file, e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /**
   * Reads a YAML file as {@code type} with the workload's strictness (unknown fields and missing
   * primitives fail) and its messages, which name the file, line and field.
   *
   * @throws IllegalArgumentException naming the file, line and field of what is wrong
   */
  public static <T> T readAs(Path file, Class<T> type) {
    try {
      return strictMapper().readValue(file.toFile(), type);
    } catch (JsonProcessingException e) {
      throw failure(file, e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  private static YAMLMapper strictMapper() {
    YAMLMapper yaml = new YAMLMapper();
    yaml.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    yaml.enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
    return yaml;
  }

  /** Skips the named fields at the top level of the file, and nowhere else. */
  private static final class SkipTopLevel
      extends com.fasterxml.jackson.databind.deser.DeserializationProblemHandler {
    private final Set<String> names;

    SkipTopLevel(Set<String> names) {
      this.names = names;
    }

    @Override
    public boolean handleUnknownProperty(
        com.fasterxml.jackson.databind.DeserializationContext ctxt,
        com.fasterxml.jackson.core.JsonParser p,
        com.fasterxml.jackson.databind.JsonDeserializer<?> deserializer,
        Object beanOrClass,
        String propertyName)
        throws IOException {
      if (!names.contains(propertyName)) {
        return false;
      }
      com.fasterxml.jackson.core.JsonStreamContext c = p.getParsingContext();
      if (p.currentToken() != null && p.currentToken().isStructStart()) {
        c = c.getParent();
      }
      if (c == null || c.getParent() == null || !c.getParent().inRoot()) {
        return false;
      }
      p.skipChildren();
      return true;
    }
  }

  /** The message for what a YAML file got wrong: its file, line and field. */
  private static IllegalArgumentException failure(Path file, JsonProcessingException failure) {
    if (!(failure instanceof JsonMappingException e)) {
      return new IllegalArgumentException(
          String.format(
              "%s, line %d: not valid YAML: %s",
              file,
              failure.getLocation() == null ? 0 : failure.getLocation().getLineNr(),
              firstLine(failure.getOriginalMessage())),
          failure);
    }
    String field = e.getPath().isEmpty() ? "" : " (field " + path(e.getPath()) + ")";
    Throwable cause = e.getCause() instanceof RuntimeException ? e.getCause() : e;
    String message = cause == e ? e.getOriginalMessage() : cause.getMessage();
    int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
    if (e instanceof com.fasterxml.jackson.databind.exc.ValueInstantiationException) {
      // a record refused its fields: the parser is at the end of the object by now, so point
      // at the value the message quotes, when the file has it
      java.util.regex.Matcher quoted =
          java.util.regex.Pattern.compile("'([^']+)'").matcher(String.valueOf(message));
      if (quoted.find()) {
        line = lineContaining(file, quoted.group(1), line);
      }
    }
    if (e instanceof com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException u) {
      // the parser is past the value by now; the name's own line is what the user needs
      line = lineOf(file, u.getPropertyName(), line);
      message = "unknown field '" + u.getPropertyName() + "'; known: " + u.getKnownPropertyIds();
    }
    return new IllegalArgumentException(
        String.format("%s, line %d%s: %s", file, line, field, firstLine(message)), e);
  }

  /** The first line that defines {@code name} as a key, or {@code fallback}. */
  private static int lineOf(Path file, String name, int fallback) {
    Pattern key = Pattern.compile("^\\s*(-\\s*)?" + Pattern.quote(name) + "\\s*:");
    return lineWhere(file, line -> key.matcher(line).find(), fallback);
  }

  /** The first line that contains {@code text}, or {@code fallback}. */
  private static int lineContaining(Path file, String text, int fallback) {
    return lineWhere(file, line -> line.contains(text), fallback);
  }

  private static int lineWhere(
      Path file, java.util.function.Predicate<String> matches, int fallback) {
    try {
      List<String> lines = Files.readAllLines(file);
      for (int i = 0; i < lines.size(); i++) {
        if (matches.test(lines.get(i))) {
          return i + 1;
        }
      }
    } catch (IOException e) {
      // keep the parser's line
    }
    return fallback;
  }

  private static String path(List<JsonMappingException.Reference> refs) {
    StringBuilder b = new StringBuilder();
    for (JsonMappingException.Reference r : refs) {
      if (r.getFieldName() != null) {
        b.append(b.length() == 0 ? "" : ".").append(r.getFieldName());
      } else if (r.getIndex() >= 0) {
        b.append('[').append(r.getIndex()).append(']');
      }
    }
    return b.toString();
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
