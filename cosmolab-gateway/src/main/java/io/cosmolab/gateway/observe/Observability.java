package io.cosmolab.gateway.observe;

import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.alerts.AlertEvaluator;
import io.cosmolab.engine.alerts.AlertEvent;
import io.cosmolab.engine.alerts.AlertRules;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One server's observability: the alert evaluator ticking once a second on the engine's clock, and,
 * unless metrics are off, the Micrometer registry that {@code /metrics} renders.
 *
 * <p>Thread-safe. {@link #close()} stops the ticking.
 */
public final class Observability implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.cosmolab.gateway");

  private final CosmosEngine engine;
  private final AlertEvaluator alerts;
  private final PrometheusMeterRegistry registry;
  private final RequestMeters requests;
  private final EngineMeters engineMeters;
  private final ScheduledExecutorService ticker;

  /**
   * @param metrics false leaves out the registry and the per-request counting ({@code serve
   *     --no-metrics}): {@code /metrics} answers 404, the alerts and the explorer still work
   * @param listener told of every alert start and stop (e.g. {@link AlertEvaluator#log()})
   */
  public Observability(
      CosmosEngine engine, AlertRules rules, boolean metrics, Consumer<AlertEvent> listener) {
    this.engine = engine;
    this.alerts = new AlertEvaluator(engine, rules, listener);
    if (metrics) {
      this.registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
      this.requests = new RequestMeters(registry);
      this.engineMeters = new EngineMeters(registry, engine, alerts);
    } else {
      this.registry = null;
      this.requests = null;
      this.engineMeters = null;
    }
    this.ticker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "cosmolab-alerts");
              t.setDaemon(true);
              return t;
            });
  }

  /** Starts evaluating the alert rules once a second, at the engine clock's time. */
  public Observability start() {
    var unused = ticker.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS); // tick catches all
    return this;
  }

  private void tick() {
    try {
      alerts.evaluate(engine.clock().millis());
    } catch (RuntimeException e) {
      // a failed evaluation must not end the ticking: the next second tries again
      LOG.log(System.Logger.Level.WARNING, "alert evaluation failed", e);
    }
  }

  public CosmosEngine engine() {
    return engine;
  }

  public AlertEvaluator alerts() {
    return alerts;
  }

  public boolean metricsEnabled() {
    return registry != null;
  }

  /** The per-request counters, or null with metrics off. */
  RequestMeters requests() {
    return requests;
  }

  /** The Prometheus text exposition of every meter, the engine's read now. */
  public String scrape() {
    if (registry == null) {
      throw new IllegalStateException("metrics are off");
    }
    engineMeters.refresh();
    return registry.scrape();
  }

  @Override
  public void close() {
    ticker.shutdownNow();
    if (registry != null) {
      registry.close();
    }
  }
}
