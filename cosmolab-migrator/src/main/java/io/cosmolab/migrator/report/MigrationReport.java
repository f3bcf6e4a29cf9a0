package io.cosmolab.migrator.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cosmolab.migrator.MigrationState;
import io.cosmolab.migrator.VerifyReport;
import java.util.List;
import java.util.Objects;

/**
 * The end of a {@code cutover} or a {@code verify}: what was compared, what it found and what to
 * do.
 *
 * @param schema {@value #SCHEMA}
 * @param command {@code cutover} or {@code verify}
 * @param safe for a cutover, whether the application may switch now; for a verify, whether the
 *     containers are equal
 * @param verdict what to do, in words
 * @param switchTo where the application goes once safe (null for a verify, or when not safe)
 * @param state the migration's state at the end (counts, per-range progress, RU, 429s, lag)
 * @param verify the comparison
 * @param verifyRequestUnits request units the comparison spent, both sides
 * @param generatedAtMillis when the report was made (the injected clock)
 */
public record MigrationReport(
    String schema,
    String command,
    boolean safe,
    String verdict,
    Switch switchTo,
    MigrationState state,
    VerifyReport verify,
    double verifyRequestUnits,
    long generatedAtMillis) {

  public static final String SCHEMA = "cosmolab.migrate.report/v1";

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  public MigrationReport {
    Objects.requireNonNull(command, "command");
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(state, "state");
  }

  /**
   * What to point the application at.
   *
   * @param endpoint the target account's URL
   * @param container {@code DB/CONTAINER}
   * @param partitionKeyPaths the target's key paths, for the application's partition keys
   * @param computedProperty the property the migrator writes (for {@code /a+/b}, {@code /a*N}) that
   *     the application must now write itself, or null
   */
  public record Switch(
      String endpoint, String container, List<String> partitionKeyPaths, String computedProperty) {
    public Switch {
      partitionKeyPaths = List.copyOf(partitionKeyPaths);
    }
  }

  /** The report as JSON (this record's fields). */
  public String json() {
    try {
      return JSON.writeValueAsString(this);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the report as JSON", e);
    }
  }

  /** The report as terminal text. */
  public String text() {
    return ReportText.render(this);
  }

  /** The report as one HTML page that opens offline. */
  public String html() {
    return HtmlReport.render(this);
  }
}
