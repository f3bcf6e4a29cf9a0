package io.cosmolab.advisor.input;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.document.JsonTrees;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.zip.GZIPInputStream;

/**
 * Streams documents from a file: JSON Lines (one object per line, or any whitespace-separated
 * objects) or one JSON array of objects, plain or gzip (recognized by its magic bytes, whatever the
 * name). Memory stays flat: one document at a time. A value that is not an object, or JSON that
 * does not parse, fails naming the file, line and column.
 */
public final class DocumentReader implements Iterator<ObjectNode>, AutoCloseable {
  private static final JsonFactory FACTORY = new JsonFactory();

  private final Path file;
  private final CountingStream counted;
  private final JsonParser parser;
  private final boolean array;
  private ObjectNode next;
  private long documents;

  private DocumentReader(Path file) throws IOException {
    this.file = file;
    this.counted = new CountingStream(Files.newInputStream(file));
    BufferedInputStream in = new BufferedInputStream(counted, 1 << 16);
    in.mark(2);
    int b1 = in.read();
    int b2 = in.read();
    in.reset();
    InputStream body = b1 == 0x1f && b2 == 0x8b ? new GZIPInputStream(in, 1 << 16) : in;
    this.parser = FACTORY.createParser(body);
    JsonToken first = parser.nextToken();
    this.array = first == JsonToken.START_ARRAY;
    if (array) {
      parser.nextToken();
    }
    advance();
  }

  /** Opens a file of documents. */
  public static DocumentReader open(Path file) {
    try {
      return new DocumentReader(file);
    } catch (JsonProcessingException e) {
      throw invalid(file, e);
    } catch (java.nio.file.NoSuchFileException e) {
      throw new UncheckedIOException("cannot read " + file + ": there is no such file", e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  private void advance() {
    try {
      JsonToken t = parser.currentToken();
      if (t == null || (array && t == JsonToken.END_ARRAY)) {
        next = null;
        return;
      }
      int startLine = parser.currentTokenLocation().getLineNr();
      JsonNode node;
      try {
        node = JsonTrees.readValue(parser);
      } catch (JsonProcessingException e) {
        throw invalid(file, e, startLine, documents + 1);
      }
      if (node == null || !node.isObject()) {
        throw new IllegalArgumentException(
            String.format(
                "%s, line %d: document %d is %s, not a JSON object",
                file,
                parser.currentLocation().getLineNr(),
                documents + 1,
                node == null
                    ? "missing"
                    : node.getNodeType().name().toLowerCase(java.util.Locale.ROOT)));
      }
      next = (ObjectNode) node;
      documents++;
      parser.nextToken();
    } catch (JsonProcessingException e) {
      throw invalid(file, e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  private static IllegalArgumentException invalid(Path file, JsonProcessingException e) {
    return invalid(file, e, 0, 0);
  }

  /**
   * The parse error where the parser found it and, when that is past the line the document began on
   * (an unterminated document runs on into the next line), the document and its first line.
   */
  private static IllegalArgumentException invalid(
      Path file, JsonProcessingException e, int startLine, long document) {
    int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
    String begun =
        startLine > 0 && line > startLine
            ? String.format(
                java.util.Locale.ROOT,
                " (in document %d, which begins on line %d and is not complete there)",
                document,
                startLine)
            : "";
    return new IllegalArgumentException(
        String.format(
            "%s, line %d, column %d: not valid JSON%s: %s",
            file,
            line,
            e.getLocation() == null ? 0 : e.getLocation().getColumnNr(),
            begun,
            e.getOriginalMessage()),
        e);
  }

  @Override
  public boolean hasNext() {
    return next != null;
  }

  @Override
  public ObjectNode next() {
    if (next == null) {
      throw new NoSuchElementException();
    }
    ObjectNode out = next;
    advance();
    return out;
  }

  /** Bytes read from the file so far (compressed bytes for gzip), for progress. */
  public long bytesRead() {
    return counted.count;
  }

  @Override
  public void close() {
    try {
      parser.close();
      counted.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Counts the bytes that pass. */
  private static final class CountingStream extends java.io.FilterInputStream {
    long count;

    CountingStream(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        count++;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      if (n > 0) {
        count += n;
      }
      return n;
    }
  }
}
