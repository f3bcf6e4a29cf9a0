package io.cosmolab.cli.commands;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.Advice;
import io.cosmolab.advisor.Advisor;
import io.cosmolab.advisor.AdvisorOptions;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.input.DocumentReader;
import io.cosmolab.engine.throughput.Throughput;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code cosmolab advise}: rank candidate partition keys over sample documents. */
@Command(
    name = "advise",
    mixinStandardHelpOptions = true,
    description = {
      "Reads sample documents (JSON Lines or JSON arrays, gzip or not) and ranks candidate"
          + " partition keys, best first, with the numbers that decide them: distinct values,"
          + " heaviest keys, the largest logical partition against 20 GB, each physical"
          + " partition's share, and one reason per finding. Keys are hashed and laid out by the"
          + " emulator's own engine."
    })
public final class AdviseCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "FILE", description = "Files of sample documents.")
  List<Path> files;

  @Option(
      names = "--key",
      paramLabel = "KEY",
      description =
          "A candidate to weigh (repeatable): /a, /a+/b (synthetic), /a>/b[>/c] (hierarchical)."
              + " Default: discovered from the first 1,000 documents.")
  List<String> keys;

  @Option(
      names = "--throughput",
      defaultValue = "10000",
      description = "The container's RU/s (${DEFAULT-VALUE}).")
  double throughput;

  @Option(names = "--autoscale", description = "Treat --throughput as an autoscale maximum.")
  boolean autoscale;

  @Option(
      names = "--documents",
      defaultValue = "0",
      description =
          "Documents the container will hold at the horizon; the sample is scaled up to it"
              + " (default: the sample is all the data).")
  long projectedDocuments;

  @Option(names = "--json", description = "Print the ranking as JSON (for CI gates).")
  boolean json;

  @Override
  public Integer call() throws Exception {
    List<Candidate> candidates = keys == null ? null : parse(keys);
    Throughput t = autoscale ? Throughput.autoscale(throughput) : Throughput.manual(throughput);
    List<Advice> ranked;
    try (Documents docs = new Documents(files)) {
      ranked = Advisor.analyze(docs, candidates, new AdvisorOptions(t, projectedDocuments));
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(
          new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(ranked));
    } else {
      print(ranked, out);
    }
    out.flush();
    return 0;
  }

  static List<Candidate> parse(List<String> keys) {
    List<Candidate> out = new ArrayList<>();
    for (String k : keys) {
      String key = k.strip();
      if (key.contains(">")) {
        out.add(Candidate.hierarchical(split(key, ">")));
      } else if (key.contains("+")) {
        out.add(Candidate.synthetic(split(key, "\\+")));
      } else {
        out.add(Candidate.single(key));
      }
    }
    return out;
  }

  private static String[] split(String key, String separator) {
    String[] parts = key.split(separator, -1);
    for (int i = 0; i < parts.length; i++) {
      parts[i] = parts[i].strip();
    }
    return parts;
  }

  private static void print(List<Advice> ranked, PrintWriter out) {
    out.printf(
        Locale.ROOT,
        "%-3s %-28s %-11s %5s %10s %5s %6s %9s  %s%n",
        "#",
        "candidate",
        "verdict",
        "score",
        "distinct",
        "parts",
        "hot",
        "largest",
        "why");
    int i = 1;
    for (Advice a : ranked) {
      out.printf(
          Locale.ROOT,
          "%-3d %-28s %-11s %5d %10.0f %5d %5.2fx %9s  %s%n",
          i++,
          a.candidate(),
          a.verdict(),
          a.score(),
          a.distinct().estimate(),
          a.physicalPartitions(),
          a.hotPartitionRatio(),
          bytes(a.largestLogicalPartitionBytes()),
          a.reasons().isEmpty() ? "spreads evenly" : a.reasons().get(0));
    }
  }

  private static String bytes(long b) {
    if (b >= 1L << 30) {
      return String.format(Locale.ROOT, "%.1f GB", b / (double) (1L << 30));
    }
    if (b >= 1L << 20) {
      return String.format(Locale.ROOT, "%.1f MB", b / (double) (1L << 20));
    }
    return String.format(Locale.ROOT, "%.1f KB", b / 1024.0);
  }

  /** The documents of several files, one after the other. */
  private static final class Documents implements Iterator<ObjectNode>, AutoCloseable {
    private final Iterator<Path> files;
    private DocumentReader current;

    Documents(List<Path> files) {
      this.files = files.iterator();
    }

    @Override
    public boolean hasNext() {
      while (current == null || !current.hasNext()) {
        if (current != null) {
          current.close();
          current = null;
        }
        if (!files.hasNext()) {
          return false;
        }
        current = DocumentReader.open(files.next());
      }
      return true;
    }

    @Override
    public ObjectNode next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return current.next();
    }

    @Override
    public void close() {
      if (current != null) {
        current.close();
      }
    }
  }
}
