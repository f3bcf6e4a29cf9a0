package io.cosmolab.rehearsal.internal;

import io.cosmolab.rehearsal.ClientModel;
import java.util.Random;

/**
 * Service latency of one attempt: log-normal, fitted to a median and a 99th percentile. Draws from
 * an injected, seeded random.
 */
public final class LatencyModel {
  /** The standard normal's 99th percentile. */
  private static final double Z99 = 2.3263478740408408;

  private final double readMu;
  private final double readSigma;
  private final double writeMu;
  private final double writeSigma;
  private final Random random;

  public LatencyModel(ClientModel client, Random random) {
    this.readMu = Math.log(client.readMedianMillis());
    this.readSigma = Math.log(client.readP99Millis() / client.readMedianMillis()) / Z99;
    this.writeMu = Math.log(client.writeMedianMillis());
    this.writeSigma = Math.log(client.writeP99Millis() / client.writeMedianMillis()) / Z99;
    this.random = random;
  }

  /** Milliseconds of one attempt, a read (or query) or a write. */
  public double attemptMillis(boolean write) {
    double g = random.nextGaussian();
    return write ? Math.exp(writeMu + writeSigma * g) : Math.exp(readMu + readSigma * g);
  }
}
