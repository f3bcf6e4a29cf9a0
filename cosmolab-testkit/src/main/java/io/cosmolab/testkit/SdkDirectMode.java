package io.cosmolab.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;

/**
 * The one Java SDK setting that direct mode needs against a server on this machine: a short timer
 * on the SDK's RNTBD connections, so a request the SDK queued for its event loop is sent at once.
 *
 * <p>Why. The SDK (azure-cosmos 4.81.0, {@code RntbdServiceEndpoint.writeWhenConnected}) hands a
 * request to its connection with Netty's {@code channel.write}, without a flush, and the flush
 * follows on the connection's event loop. When that call runs on another thread, the calling thread
 * or another event loop, which it does whenever the channel was acquired before the caller looked,
 * Netty queues the write as a lazy task that does not wake the loop: a loop that is asleep runs it
 * only at its next I/O event or timer. On a connection with nothing else in flight the next timer
 * is the SDK's own idle-state check, every {@code idleChannelTimerResolution}, 100 ms by default
 * (the SDK shortened it from seconds to bound this wait: Azure/azure-sdk-for-java#13246, #13576).
 * So a share of requests waited up to 100 ms in the SDK's {@code pipelined} stage before a byte
 * left the client; the server's part stayed under 3 ms. Measured, 1,000 sequential reads against
 * the lab: 17-59 % over 40 ms, the slow ones written from a thread other than their channel's loop;
 * with every SDK event loop woken each millisecond, none. No server can prevent it, since nothing
 * has reached the server yet, and the real service is no different: what differs on a laptop is how
 * often the race is lost (two busy cores, a loopback round trip of microseconds).
 *
 * <p>What. The SDK reads its transport defaults once per JVM, from the JSON system property {@value
 * #PROPERTY}, when it builds its first direct-mode client. This class adds {@code
 * idleChannelTimerResolution} ({@link #RESOLUTION}) to that property, keeping every other option a
 * user set there, and leaves it alone when the user chose a resolution, points the SDK at an
 * options file instead, or the property is not JSON. A 1 ms check costs each idle connection about
 * a thousand event-loop wake-ups a second (a read of a few timestamps each), which a test JVM can
 * afford; [A] it is the price, not a setting to carry into production.
 *
 * <p>Concurrency: the property is process-global; {@link #prepare} is synchronized on this class,
 * so two labs starting together read and write it once each.
 */
public final class SdkDirectMode {
  /** The SDK's system property with its RNTBD transport defaults, as JSON. */
  public static final String PROPERTY = "azure.cosmos.directTcp.defaultOptions";

  /** The SDK's alternative to {@link #PROPERTY}: a file of the same JSON. */
  static final String FILE_PROPERTY = PROPERTY + "File";

  /** The option in {@link #PROPERTY} that sets the idle-state timer (an ISO-8601 duration). */
  static final String OPTION = "idleChannelTimerResolution";

  /** Short enough that a queued write waits at most about a millisecond. */
  static final Duration RESOLUTION = Duration.ofMillis(1);

  private static final ObjectMapper JSON = new ObjectMapper();

  private SdkDirectMode() {}

  /**
   * Sets the SDK's idle-state timer to {@link #RESOLUTION} for direct-mode clients built after this
   * call in this JVM, unless the user configured the SDK's transport otherwise (see the class
   * comment). Has no effect once the JVM built its first direct-mode client.
   */
  public static synchronized void prepare() {
    if (System.getProperty(FILE_PROPERTY) != null) {
      return; // the SDK reads the file only while the property is unset: setting it would hide it
    }
    String merged = withResolution(System.getProperty(PROPERTY));
    if (merged != null) {
      System.setProperty(PROPERTY, merged);
    }
  }

  /**
   * {@code options} (the property's value, or null) with {@link #OPTION} added; null when it is to
   * stay as it is: it sets the option already or is not a JSON object.
   */
  static String withResolution(String options) {
    ObjectNode o;
    if (options == null || options.isBlank()) {
      o = JSON.createObjectNode();
    } else {
      try {
        JsonNode n = JSON.readTree(options);
        if (!(n instanceof ObjectNode on) || on.has(OPTION)) {
          return null;
        }
        o = on;
      } catch (JsonProcessingException e) {
        return null; // the SDK logs its own error for it and uses its defaults
      }
    }
    o.put(OPTION, RESOLUTION.toString());
    return o.toString();
  }
}
