package io.cosmolab.gateway;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Loads, on a daemon thread, the classes a cold start needs on its way to the first response —
 * Netty's event loops, channel, HTTP codec and buffers, Jackson's core, the gateway's own — while
 * the starting thread builds the event loops: two cores then share the class loading that is most
 * of a first in-process start. Loading only: no class is initialized here, so no static initializer
 * runs on this thread or out of its usual order.
 *
 * <p>The list is a resource, {@value #LIST}, written by {@code scripts/preload-classes} from a
 * class-load log of one start. A name that no longer exists (after a dependency upgrade) is skipped
 * and costs nothing; {@code ClassPreloadTest} fails on it, so the list gets rewritten. Measured in
 * {@code docs/benchmarks.md}: about 15 % off the first start in a new JVM.
 */
final class ClassPreload {
  private ClassPreload() {}

  static final String LIST = "preload-classes.txt";

  private static final AtomicBoolean STARTED = new AtomicBoolean();

  /**
   * Starts the preload the first time a server starts in this JVM; later calls do nothing, and so
   * does {@code -Dcosmolab.preload=false} (which {@code scripts/preload-classes} sets, so the list
   * it records is what the start needs, not what the last list named).
   */
  static void startOnce() {
    if (Boolean.parseBoolean(System.getProperty("cosmolab.preload", "true"))
        && STARTED.compareAndSet(false, true)) {
      Thread t = new Thread(ClassPreload::loadAll, "cosmolab-class-preload");
      t.setDaemon(true);
      t.start();
    }
  }

  /** Loads every listed class; returns the names that could not be loaded. */
  static List<String> loadAll() {
    ClassLoader loader = ClassPreload.class.getClassLoader();
    List<String> missing = new ArrayList<>();
    for (String name : names()) {
      try {
        Class.forName(name, false, loader);
      } catch (ClassNotFoundException | LinkageError e) {
        missing.add(name);
      }
    }
    return missing;
  }

  /** The listed class names, in the order the start loads them. */
  static List<String> names() {
    List<String> names = new ArrayList<>();
    try (InputStream in = ClassPreload.class.getResourceAsStream(LIST)) {
      if (in == null) {
        return names; // a repackaged jar without the list: nothing to preload
      }
      BufferedReader lines =
          new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII));
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (!line.isBlank() && !line.startsWith("#")) {
          names.add(line.strip());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + LIST, e);
    }
    return names;
  }
}
