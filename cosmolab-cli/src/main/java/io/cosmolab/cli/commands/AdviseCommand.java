package io.cosmolab.cli.commands;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.Advice;
import io.cosmolab.advisor.Advisor;
import io.cosmolab.advisor.AdvisorOptions;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.examples.Example;
import io.cosmolab.advisor.input.DocumentReader;
import io.cosmolab.advisor.workload.Workload;
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

  @Parameters(arity = "0..*", paramLabel = "FILE", description = "Files of sample documents.")
  List<Path> files;

  @Option(
      names = "--example",
      paramLabel = "NAME",
      description =
          "Run a built-in scenario instead of files: ecommerce, saas, iot or game (its data,"
              + " candidates and sizing).")
  String example;

  @Option(
      names = "--example-documents",
      defaultValue = "100000",
      description = "Documents an example generates (${DEFAULT-VALUE}).")
  int exampleDocuments;

  @Option(
      names = "--key",
      paramLabel = "KEY",
      description =
          "A candidate to weigh (repeatable): /a, /a+/b (synthetic), /a>/b[>/c] (hierarchical),"
              + " /a*10 (a with a suffix of 10 buckets)."
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

  @Option(
      names = "--workload",
      paramLabel = "FILE",
      description =
          "The workload at peak (YAML: throughput or autoscale, documents, operations with"
              + " rates); predicts RU/s per partition, 429s and the throughput each key needs."
              + " Options given on the command line win.")
  Path workload;

  @Option(names = "--json", description = "Print the ranking as JSON (for CI gates).")
  boolean json;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    List<Advice> ranked;
    if (example != null) {
      Example e = exampleNamed(example);
      if (!json) {
        out.println("example " + e.cliName() + ": " + e.description());
      }
      ranked = Advisor.analyze(e.documents(exampleDocuments, 42), e.candidates(), e.options());
    } else {
      if (files == null || files.isEmpty()) {
        throw new IllegalArgumentException("name files of sample documents, or --example NAME");
      }
      List<Candidate> candidates = keys == null ? null : parse(keys);
      var parsed = spec.commandLine().getParseResult();
      Throughput t = autoscale ? Throughput.autoscale(throughput) : Throughput.manual(throughput);
      long documents = projectedDocuments;
      List<Workload.Operation> peak = List.of();
      if (workload != null) {
        Workload w = Workload.read(workload);
        if (!parsed.hasMatchedOption("--throughput") && w.throughputOrNull() != null) {
          t = w.throughputOrNull();
        }
        if (!parsed.hasMatchedOption("--documents") && w.documents() != null) {
          documents = w.documents();
        }
        peak = w.operations();
      }
      try (Documents docs = new Documents(files)) {
        ranked = Advisor.analyze(docs, candidates, new AdvisorOptions(t, documents, peak));
      }
    }
    if (json) {
      out.println(
          new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(ranked));
    } else {
      print(ranked, out);
    }
    out.flush();
    return 0;
  }

  private static Example exampleNamed(String name) {
    for (Example e : Example.values()) {
      if (e.cliName().equalsIgnoreCase(name.strip())) {
        return e;
      }
    }
    throw new IllegalArgumentException(
        "--example " + name + " is not one of: ecommerce, saas, iot, game");
  }

  static List<Candidate> parse(List<String> keys) {
    List<Candidate> out = new ArrayList<>();
    for (String k : keys) {
      String key = k.strip();
      if (key.contains("*")) {
        String[] parts = split(key, "\\*");
        try {
          out.add(Candidate.bucketed(parts[0], Integer.parseInt(parts[1])));
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
          throw new IllegalArgumentException(
              "--key " + key + ": a bucketed key is /path*BUCKETS, e.g. /serverId*10", e);
        }
      } else if (key.contains(">")) {
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
        "%-3s %-28s %-11s %5s %10s %5s %6s %9s %6s  %s%n",
        "#",
        "candidate",
        "verdict",
        "score",
        "distinct",
        "parts",
        "hot",
        "largest",
        "429s",
        "why");
    int i = 1;
    for (Advice a : ranked) {
      out.printf(
          Locale.ROOT,
          "%-3d %-28s %-11s %5d %10.0f %5d %5.2fx %9s %6s  %s%n",
          i++,
          a.candidate(),
          a.verdict(),
          a.score(),
          a.distinct().estimate(),
          a.physicalPartitions(),
          a.hotPartitionRatio(),
          bytes(a.largestLogicalPartitionBytes()),
          a.peakRuPerSecond() == 0
              ? "-"
              : String.format(Locale.ROOT, "%.0f%%", a.predicted429Share() * 100),
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
