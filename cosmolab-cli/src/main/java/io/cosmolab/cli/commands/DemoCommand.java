package io.cosmolab.cli.commands;

import io.cosmolab.cli.demo.PartitionDemo;
import io.cosmolab.engine.throughput.Throughput;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code cosmolab demo}: the engine on a multi-tenant workload, its partitions printed. */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "Creates a container in the in-process engine, writes generated session documents (one VIP"
          + " tenant owning a share of them) and reads the VIP hard, all in virtual time, then"
          + " prints each physical partition: its EPK range, documents, storage, RU, peak RU/s"
          + " against its budget and its 429s."
    })
public final class DemoCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--docs",
      defaultValue = "20000",
      description = "Documents to write (${DEFAULT-VALUE}).")
  int documents;

  @Option(
      names = "--key",
      defaultValue = "/tenantId,/userId,/sessionId",
      description =
          "Partition key paths, comma-separated; 2-3 make a hierarchical key (${DEFAULT-VALUE}).")
  String key;

  @Option(names = "--throughput", defaultValue = "20000", description = "RU/s (${DEFAULT-VALUE}).")
  double throughput;

  @Option(names = "--autoscale", description = "Treat --throughput as an autoscale maximum.")
  boolean autoscale;

  @Option(
      names = "--partitions",
      description = "Physical partitions to start with (default: from the throughput).")
  Integer partitions;

  @Option(
      names = "--scale",
      defaultValue = "1",
      description = "Scale factor for partition limits (${DEFAULT-VALUE}).")
  double scale;

  @Option(
      names = "--throttling",
      defaultValue = "enforce",
      description = "enforce, observe or off (${DEFAULT-VALUE}).")
  String throttling;

  @Option(
      names = "--tenants",
      defaultValue = "200",
      description = "Ordinary tenants (${DEFAULT-VALUE}).")
  int tenants;

  @Option(
      names = "--vip-share",
      defaultValue = "0.3",
      description = "The VIP tenant's share of documents and reads (${DEFAULT-VALUE}).")
  double vipShare;

  @Option(
      names = "--doc-size",
      defaultValue = "1024",
      description = "Approximate document size in bytes (${DEFAULT-VALUE}).")
  int documentBytes;

  @Option(
      names = "--write-rate",
      defaultValue = "1000",
      description = "Writes per second of virtual time (${DEFAULT-VALUE}).")
  int writesPerSecond;

  @Option(
      names = "--read-rate",
      defaultValue = "20000",
      description = "Reads per second of virtual time (${DEFAULT-VALUE}).")
  int readsPerSecond;

  @Option(
      names = "--read-seconds",
      defaultValue = "5",
      description = "Seconds of reads (${DEFAULT-VALUE}).")
  int readSeconds;

  @Option(names = "--seed", defaultValue = "42", description = "Random seed (${DEFAULT-VALUE}).")
  long seed;

  @Override
  public Integer call() {
    PartitionDemo.Options options =
        new PartitionDemo.Options(
            documents,
            PartitionDemo.parsePaths(key),
            autoscale ? Throughput.autoscale(throughput) : Throughput.manual(throughput),
            partitions,
            scale,
            ServeCommand.mode(throttling),
            tenants,
            vipShare,
            documentBytes,
            writesPerSecond,
            readsPerSecond,
            readSeconds,
            seed);
    PartitionDemo.Result result = PartitionDemo.run(options);
    PrintWriter out = spec.commandLine().getOut();
    PartitionDemo.print(result, options, out);
    out.flush();
    return 0;
  }
}
