package io.cosmolab.cli;

import io.cosmolab.cli.commands.AdviseCommand;
import io.cosmolab.cli.commands.CertCommand;
import io.cosmolab.cli.commands.DemoCommand;
import io.cosmolab.cli.commands.MigrateCommand;
import io.cosmolab.cli.commands.RehearseCommand;
import io.cosmolab.cli.commands.ServeCommand;
import io.cosmolab.cli.commands.TopCommand;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code cosmolab} command. Usage errors exit 2, failures 1. */
@Command(
    name = "cosmolab",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Design, test and fix Azure Cosmos DB partition keys.",
    subcommands = {
      ServeCommand.class,
      TopCommand.class,
      AdviseCommand.class,
      RehearseCommand.class,
      MigrateCommand.class,
      DemoCommand.class,
      CertCommand.class
    })
public final class Main implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(
        run(
            args,
            new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true),
            new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true)));
  }

  /** Runs the command line with injected output, returning the exit code. */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cli = new CommandLine(new Main());
    cli.setOut(out);
    cli.setErr(err);
    cli.setExecutionExceptionHandler(
        (e, cmd, parsed) -> {
          cmd.getErr().println("cosmolab: " + message(e));
          return e instanceof IllegalArgumentException ? 2 : 1;
        });
    return cli.execute(args);
  }

  /**
   * What went wrong, in a line: an SDK error (from migrate, rehearse or advise talking to a server)
   * as its status and the service's own words, not the SDK's kilobytes of diagnostics JSON.
   */
  static String message(Throwable e) {
    if (e instanceof com.azure.cosmos.CosmosException c) {
      String words = io.cosmolab.advisor.input.SdkClients.serviceWords(c);
      if (words == null) {
        words = String.valueOf(c.getShortMessage()).lines().findFirst().orElse("");
      }
      return io.cosmolab.advisor.input.SdkClients.reason(c) + ": " + words;
    }
    return e.getMessage();
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** The version from the jar manifest, or "development". */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {"cosmolab " + (v == null ? "development" : v)};
    }
  }
}
