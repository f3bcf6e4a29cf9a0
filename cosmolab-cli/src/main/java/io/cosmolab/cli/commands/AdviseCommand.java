package io.cosmolab.cli.commands;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.Advice;
import io.cosmolab.advisor.Advisor;
import io.cosmolab.advisor.AdvisorOptions;
import io.cosmolab.advisor.Report;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.examples.Example;
import io.cosmolab.advisor.input.ContainerSampler;
import io.cosmolab.advisor.input.DocumentReader;
import io.cosmolab.advisor.input.SdkClients;
import io.cosmolab.advisor.report.HtmlReport;
import io.cosmolab.advisor.workload.ContainerWorkload;
import io.cosmolab.advisor.workload.Workload;
import io.cosmolab.engine.throughput.Throughput;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
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

/** {@code cosmolab advise}: rank candidate partition keys over sample documents and a workload. */
@Command(
    name = "advise",
    mixinStandardHelpOptions = true,
    description = {
      "Reads sample documents (JSON Lines or JSON arrays, gzip or not) and a workload at peak,"
          + " and ranks candidate partition keys, best first, with the numbers that decide them:"
          + " distinct values, heaviest keys, the largest logical partition against 20 GB now and"
          + " at the horizon, RU/s per physical partition against its budget, 429s, fan-out, and"
          + " one reason per finding. Keys are hashed and laid out by the emulator's own engine."
    })
public final class AdviseCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(
      arity = "0..*",
      paramLabel = "FILE",
      description = "Files of sample documents (or name them as sample: in the workload).")
  List<Path> files;

  @Option(
      names = "--example",
      paramLabel = "NAME",
      description =
          "Run a built-in scenario instead of files: ecommerce, saas, iot or game (its data,"
              + " candidates, sizing and workload).")
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
              + " /a*10 (a with a suffix of 10 buckets). Default: the workload's candidates, or"
              + " discovered from the first 1,000 documents.")
  List<String> keys;

  @Option(
      names = "--workload",
      paramLabel = "FILE",
      description =
          "The workload at peak (YAML; see docs/advisor.md): throughput, documents, growth,"
              + " operations with their rates, access distributions and queries, several"
              + " containers and their joins. Options given on the command line win.")
  Path workload;

  @Option(
      names = "--container",
      paramLabel = "NAME",
      description = "Only this container of the workload.")
  String container;

  @Option(
      names = "--throughput",
      paramLabel = "RU",
      description = "The container's RU/s (default: the workload's, else 10000).")
  Double throughput;

  @Option(names = "--autoscale", description = "Treat the throughput as an autoscale maximum.")
  boolean autoscale;

  @Option(
      names = "--minimum",
      description = "Find each key's least throughput that serves the peak without 429s.")
  boolean minimum;

  @Option(
      names = "--documents",
      paramLabel = "N",
      description = "Documents the container holds now; the sample is scaled up to it.")
  Long documents;

  @Option(names = "--growth-per-day", paramLabel = "N", description = "New documents per day.")
  Double growthPerDay;

  @Option(
      names = "--horizon-months",
      paramLabel = "M",
      description = "How far ahead to project storage, in months.")
  Double horizonMonths;

  @Option(
      names = "--from",
      paramLabel = "DB/CONTAINER",
      description =
          "Sample a live container through the Java SDK (cosmolab or a real account) instead of"
              + " files: its newest documents, its document count and its throughput.")
  String from;

  @Option(
      names = "--endpoint",
      paramLabel = "URL",
      defaultValue = "https://localhost:8081",
      description = "The account for --from (${DEFAULT-VALUE}).")
  java.net.URI endpoint;

  @Option(
      names = "--account-key",
      paramLabel = "KEY",
      description =
          "The account key for --from (default: $COSMOS_KEY, else the emulator's well-known key).")
  String accountKey;

  @Option(
      names = "--direct",
      description =
          "Sample --from in direct mode (RNTBD over TLS, the SDK's default; default here: gateway"
              + " mode, which every endpoint serves).")
  boolean direct;

  @Option(
      names = "--sample",
      paramLabel = "N",
      defaultValue = "100000",
      description = "Documents --from samples (${DEFAULT-VALUE}).")
  int sampleSize;

  @Option(names = "--json", description = "Print the report as JSON (schema cosmolab.advise/v1).")
  boolean json;

  @Option(
      names = "--html",
      paramLabel = "FILE",
      description = "Also write a self-contained HTML report with charts.")
  Path html;

  @Option(
      names = "--progress",
      negatable = true,
      description = "Show a progress bar on stderr (default: when stderr is a terminal).")
  Boolean progress;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    List<Report.ContainerAdvice> results = new ArrayList<>();
    if (example != null) {
      Example e = exampleNamed(example);
      if (!json) {
        out.println("example " + e.cliName() + ": " + e.description());
      }
      results.add(
          Advisor.analyze(
              e.cliName(), e.documents(exampleDocuments, 42), e.candidates(), e.options()));
    } else if (from != null) {
      results.add(sampleLive());
    } else if (workload != null) {
      Workload w = Workload.read(workload);
      Path base = workload.toAbsolutePath().getParent();
      List<ContainerWorkload> chosen =
          container == null ? w.containers() : List.of(w.container(container));
      for (ContainerWorkload c : chosen) {
        List<Path> sample = new ArrayList<>();
        for (String s : c.sample()) {
          sample.add(base.resolve(s));
        }
        if (files != null && !files.isEmpty()) {
          if (chosen.size() > 1) {
            throw new IllegalArgumentException(
                "the workload has "
                    + chosen.size()
                    + " containers: name each one's sample in the file, or pick one with"
                    + " --container");
          }
          sample = files;
        }
        if (sample.isEmpty()) {
          throw new IllegalArgumentException(
              "container "
                  + c.name()
                  + " has no sample documents: give sample: [files] in the workload, or FILE"
                  + " arguments");
        }
        List<Candidate> candidates = candidates(c.candidates());
        results.add(analyze(c.name(), sample, candidates, options(c, w.containers(), null, 0)));
      }
    } else {
      if (files == null || files.isEmpty()) {
        throw new IllegalArgumentException(
            "name files of sample documents, a --workload, or --example NAME");
      }
      results.add(analyze("container", files, candidates(null), options(null, List.of(), null, 0)));
    }
    Report report = new Report(results);
    if (html != null) {
      Files.writeString(html, HtmlReport.render(report));
    }
    if (json) {
      out.println(
          new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(report));
    } else {
      for (Report.ContainerAdvice c : results) {
        print(c, results.size() > 1, out);
      }
      if (html != null) {
        out.println("report: " + html.toAbsolutePath());
      }
    }
    out.flush();
    return 0;
  }

  /** Samples the container {@code --from} names, sized by its own count and throughput. */
  private Report.ContainerAdvice sampleLive() {
    String[] names = from.split("/", -1);
    if (names.length != 2 || names[0].isBlank() || names[1].isBlank()) {
      throw new IllegalArgumentException("--from " + from + ": give it as DATABASE/CONTAINER");
    }
    String key = accountKey != null ? accountKey : System.getenv("COSMOS_KEY");
    if (key == null) {
      key = io.cosmolab.gateway.auth.MasterKeyAuthenticator.EMULATOR_KEY;
    }
    ContainerWorkload c = null;
    List<ContainerWorkload> all = List.of();
    if (workload != null) {
      Workload w = Workload.read(workload);
      all = w.containers();
      c = container != null ? w.container(container) : w.containers().get(0);
    }
    try (ContainerSampler sampler =
        ContainerSampler.connect(
            endpoint, key, SdkClients.Mode.of(direct), names[0], names[1], sampleSize)) {
      long count = sampler.containerDocuments();
      AdvisorOptions o = options(c, all, sampler.throughputOrNull(), count);
      if (!sampler.inArrivalOrder()) {
        spec.commandLine()
            .getErr()
            .println(
                "note: "
                    + from
                    + " does not index _ts, so the sample is in storage order: time-based keys"
                    + " cannot be recognised");
      }
      Iterator<ObjectNode> docs = sampler;
      if (showProgress()) {
        docs = new Counted(sampler, Math.min(count, sampleSize), spec.commandLine().getErr());
      }
      return Advisor.analyze(from, docs, candidates(c == null ? null : c.candidates()), o);
    }
  }

  private Report.ContainerAdvice analyze(
      String name, List<Path> sample, List<Candidate> candidates, AdvisorOptions options) {
    try (Documents docs =
        new Documents(sample, showProgress() ? spec.commandLine().getErr() : null)) {
      return Advisor.analyze(name, docs, candidates, options);
    }
  }

  private boolean showProgress() {
    return io.cosmolab.cli.Terminal.showProgress(progress);
  }

  /** --key wins; then the workload's candidates; null: discover them. */
  private List<Candidate> candidates(List<String> fromWorkload) {
    List<String> named = keys != null ? keys : fromWorkload;
    if (named == null) {
      return null;
    }
    List<Candidate> out = new ArrayList<>();
    for (String k : named) {
      out.add(Candidate.parse(k));
    }
    return out;
  }

  /**
   * A container's options: the command line's first, then the workload's, then what the container
   * itself says ({@code own} throughput and documents, from a live container; null and 0 for
   * files), then 10,000 RU/s manual.
   */
  private AdvisorOptions options(
      ContainerWorkload c, List<ContainerWorkload> all, Throughput own, long ownDocuments) {
    Throughput fallback = own != null ? own : Throughput.manual(10_000);
    AdvisorOptions w =
        c == null ? new AdvisorOptions(fallback, 0) : AdvisorOptions.of(c, all, fallback);
    boolean stated = c != null && c.throughputOrNull() != null;
    Throughput t = w.throughput();
    if (throughput != null) {
      t = autoscale ? Throughput.autoscale(throughput) : Throughput.manual(throughput);
    } else if (autoscale && (own == null || stated)) { // a live container's own kind stands
      t = Throughput.autoscale(t.maxRuPerSecond());
    }
    long docs = documents != null ? documents : w.documents();
    if (documents == null && (c == null || c.documents() == null)) {
      docs = ownDocuments;
    }
    return new AdvisorOptions(
        t,
        minimum || (throughput == null && w.findMinimum()),
        docs,
        growthPerDay != null ? growthPerDay : w.growthPerDay(),
        horizonMonths != null ? horizonMonths * ContainerWorkload.DAYS_PER_MONTH : w.horizonDays(),
        w.peak());
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

  private static void print(Report.ContainerAdvice c, boolean heading, PrintWriter out) {
    if (heading) {
      out.printf(
          Locale.ROOT,
          "%ncontainer %s: %,d documents sampled, throughput %s%n",
          c.name(),
          c.sampledDocuments(),
          c.throughput());
    }
    boolean peak = c.candidates().stream().anyMatch(a -> a.peak() != null);
    out.printf(
        Locale.ROOT,
        "%-3s %-28s %-11s %5s %10s %5s %6s %9s %6s %9s  %s%n",
        "#",
        "candidate",
        "verdict",
        "score",
        "distinct",
        "parts",
        "hot",
        "largest",
        "429s",
        "min RU/s",
        "why");
    int i = 1;
    for (Advice a : c.candidates()) {
      String min = "-";
      if (a.peak() != null) {
        min =
            a.peak().minimumRuPerSecond() == null
                ? "none"
                : String.format(Locale.ROOT, "%.0f", a.peak().minimumRuPerSecond());
      }
      out.printf(
          Locale.ROOT,
          "%-3d %-28s %-11s %5d %10.0f %5d %5.2fx %9s %6s %9s  %s%n",
          i++,
          a.candidate(),
          a.verdict(),
          a.score(),
          a.distinct().estimate(),
          a.physicalPartitions(),
          a.layout().hotPartitionRatio(),
          HtmlReport.bytes(a.largestLogicalPartitionBytes()),
          peak ? String.format(Locale.ROOT, "%.0f%%", a.predicted429Share() * 100) : "-",
          min,
          a.reasons().isEmpty() ? "spreads evenly" : a.reasons().get(0));
    }
  }

  /** Documents of a source whose size is known in documents, with a progress bar. */
  private static final class Counted implements Iterator<ObjectNode> {
    private final Iterator<ObjectNode> source;
    private final long expected;
    private final PrintWriter progress;
    private long count;
    private boolean finished;

    Counted(Iterator<ObjectNode> source, long expected, PrintWriter progress) {
      this.source = source;
      this.expected = Math.max(1, expected);
      this.progress = progress;
    }

    @Override
    public boolean hasNext() {
      boolean more = source.hasNext();
      if (!more && !finished) {
        finished = true;
        show("\n");
      }
      return more;
    }

    @Override
    public ObjectNode next() {
      ObjectNode d = source.next();
      if (++count % 1000 == 0) {
        show("");
      }
      return d;
    }

    private void show(String end) {
      progress.print(
          io.cosmolab.cli.Terminal.bar(
                  count / (double) expected,
                  String.format(Locale.ROOT, "%,d documents sampled", count))
              + end);
      progress.flush();
    }
  }

  /** The documents of several files, one after the other, with an optional progress bar. */
  private static final class Documents implements Iterator<ObjectNode>, AutoCloseable {
    private final List<Path> files;
    private final PrintWriter progress;
    private final long total;
    private final long started = System.nanoTime();
    private int index;
    private long done; // bytes of the files already finished
    private long count;
    private long lastShown;
    private boolean finished;
    private DocumentReader current;

    Documents(List<Path> files, PrintWriter progress) {
      this.files = files;
      this.progress = progress;
      long sum = 0;
      for (Path f : files) {
        try {
          sum += Files.size(f);
        } catch (java.nio.file.NoSuchFileException e) {
          throw new UncheckedIOException("cannot read " + f + ": there is no such file", e);
        } catch (IOException e) {
          throw new UncheckedIOException("cannot read " + f + ": " + e.getMessage(), e);
        }
      }
      this.total = sum;
    }

    @Override
    public boolean hasNext() {
      while (current == null || !current.hasNext()) {
        if (current != null) {
          done += current.bytesRead();
          current.close();
          current = null;
        }
        if (index == files.size()) {
          if (!finished) {
            finished = true;
            show(true);
          }
          return false;
        }
        current = DocumentReader.open(files.get(index++));
      }
      return true;
    }

    @Override
    public ObjectNode next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      count++;
      if ((count & 0x3FF) == 0) {
        show(false);
      }
      return current.next();
    }

    private void show(boolean last) {
      if (progress == null) {
        return;
      }
      long now = System.nanoTime();
      if (!last && now - lastShown < 200_000_000L) {
        return;
      }
      lastShown = now;
      long read = done + (current == null ? 0 : current.bytesRead());
      double seconds = Math.max(1e-9, (now - started) / 1e9);
      progress.print(
          io.cosmolab.cli.Terminal.bar(
                  total == 0 ? 1 : read / (double) total,
                  String.format(
                      Locale.ROOT,
                      "%s  %,d documents  %.1f MB/s",
                      HtmlReport.bytes(read),
                      count,
                      read / seconds / (1 << 20)))
              + (last ? "\n" : ""));
      progress.flush();
    }

    @Override
    public void close() {
      if (current != null) {
        current.close();
      }
    }
  }
}
