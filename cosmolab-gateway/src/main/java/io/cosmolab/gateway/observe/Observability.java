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
 * unless metrics are off, the request counters and the Micrometer registry that {@code /metrics}
 * renders (made at the first scrape).
 *
 * <p>Thread-safe. {@link #close()} stops the ticking.
 */
public final class Observability implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.cosmolab.gateway");

  private final CosmosEngine engine;
  private final AlertEvaluator alerts;
  private final boolean metrics;
  private final RequestMeters requests;
  private PrometheusMeterRegistry registry; // made at the first scrape; guarded by this
  private EngineMeters engineMeters; // guarded by this
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
    this.metrics = metrics;
    this.requests = metrics ? new RequestMeters() : null;
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
    return metrics;
  }

  /** The per-request counters, or null with metrics off. */
  RequestMeters requests() {
    return requests;
  }

  /** The Prometheus text exposition of every meter, the engine's read now. */
  public synchronized String scrape() {
    if (!metrics) {
      throw new IllegalStateException("metrics are off");
    }
    if (registry == null) {
      // not before: a server that is never scraped never loads Micrometer (a cold start's cost)
      registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
      registry.getPrometheusRegistry().register(requests.collector());
      engineMeters = new EngineMeters(registry, engine, alerts);
    }
    engineMeters.refresh();
    return registry.scrape();
  }

  @Override
  public void close() {
    ticker.shutdownNow();
    synchronized (this) {
      if (registry != null) {
        registry.close();
      }
    }
  }
}
