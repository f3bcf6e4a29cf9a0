package io.cosmolab.rehearsal.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cosmolab.rehearsal.RehearsalReport;

/** A report as JSON, schema {@code cosmolab.rehearse/v1} ({@code docs/rehearsal.md}). */
public final class JsonReport {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private JsonReport() {}

  /** The report as indented JSON text. */
  public static String render(RehearsalReport report) {
    try {
      return JSON.writeValueAsString(report);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a report's records always serialize", e);
    }
  }
}
