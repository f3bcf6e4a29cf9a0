package io.cosmolab.cli.commands;

import io.cosmolab.gateway.GatewayServer;
import io.cosmolab.gateway.tls.GatewayCertificate;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code cosmolab cert}: the server's self-signed certificate, for clients that verify TLS. */
@Command(
    name = "cert",
    mixinStandardHelpOptions = true,
    description = {
      "Prints or exports the self-signed certificate `cosmolab serve` uses (created if missing),"
          + " for clients that verify TLS instead of turning verification off."
    },
    subcommands = {CertCommand.Pem.class, CertCommand.TrustStore.class})
public final class CertCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** The directory option both subcommands share. */
  static final class Location {
    @Option(
        names = "--data-dir",
        description = "The directory given to `serve --data-dir` (default: ~/.cosmolab).")
    Path dataDir;

    GatewayCertificate certificate() {
      return GatewayCertificate.loadOrCreate(
          dataDir != null ? dataDir : GatewayServer.defaultCertificateDirectory());
    }
  }

  @Command(
      name = "pem",
      mixinStandardHelpOptions = true,
      description = "Prints the certificate in PEM, e.g. for NODE_EXTRA_CA_CERTS or an OS store.")
  static final class Pem implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @CommandLine.Mixin Location location = new Location();

    @Override
    public Integer call() {
      spec.commandLine().getOut().print(location.certificate().pem());
      spec.commandLine().getOut().flush();
      return 0;
    }
  }

  @Command(
      name = "truststore",
      mixinStandardHelpOptions = true,
      description =
          "Writes a PKCS#12 trust store holding the certificate, for"
              + " -Djavax.net.ssl.trustStore=<file> -Djavax.net.ssl.trustStorePassword=<password>.")
  static final class TrustStore implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @CommandLine.Mixin Location location = new Location();

    @Parameters(index = "0", paramLabel = "FILE", description = "The trust store to write.")
    Path file;

    @Option(
        names = "--password",
        defaultValue = "changeit",
        description = "The trust store's password (${DEFAULT-VALUE}).")
    String password;

    @Override
    public Integer call() {
      location.certificate().writeTrustStore(file, password.toCharArray());
      spec.commandLine()
          .getOut()
          .printf(
              "wrote %s; use -Djavax.net.ssl.trustStore=%s -Djavax.net.ssl.trustStorePassword=%s%n",
              file, file.toAbsolutePath(), password);
      spec.commandLine().getOut().flush();
      return 0;
    }
  }
}
