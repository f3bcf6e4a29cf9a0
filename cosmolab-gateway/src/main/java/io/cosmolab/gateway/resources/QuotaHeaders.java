package io.cosmolab.gateway.resources;

import io.cosmolab.engine.Container;
import io.cosmolab.engine.script.ScriptKind;
import io.cosmolab.gateway.wire.Headers;
import java.util.Locale;
import java.util.Map;

/**
 * {@code x-ms-resource-quota} and {@code x-ms-resource-usage} of a container, sent when a container
 * read asks with {@code x-ms-documentdb-populatequotainfo: true} (the Java SDK's {@code
 * CosmosContainerRequestOptions.setQuotaInfoEnabled}): what a team reads to see how full a
 * container is.
 *
 * <p>The service's format, as its recorded responses show it: {@code name=value;} pairs, the same
 * names in the same order in both headers (the SDKs pair them by position), the scripts first on a
 * container read: {@code functions=;storedProcedures=;triggers=;documentSize=;documentsSize=;
 * documentsCount=;collectionSize=;}. {@code documentsSize} and {@code collectionSize} are in KB,
 * {@code documentSize} is {@code collectionSize} in MB, and a quota of -1 means no limit.
 *
 * <p>[A] The quotas of today's partitioned containers are not documented: cosmolab reports the
 * storage its physical partitions hold before they split (50 GB each) and the service's script
 * limits (100 stored procedures, 25 triggers, 25 user-defined functions). Usage counts the
 * documents' bytes; cosmolab keeps no index bytes of its own, so {@code collectionSize} is the
 * same.
 */
final class QuotaHeaders {
  private QuotaHeaders() {}

  /** Adds both headers for a container read that asked for them. */
  static void put(Map<String, String> h, Container c) {
    long capacityKb = c.storageCapacityBytes() / 1024;
    long usedKb = (c.storedBytes() + 1023) / 1024;
    var scripts = c.scripts();
    h.put(
        Headers.RESOURCE_QUOTA, format(25, 100, 25, capacityKb / 1024, capacityKb, -1, capacityKb));
    h.put(
        Headers.RESOURCE_USAGE,
        format(
            scripts.list(ScriptKind.USER_DEFINED_FUNCTION).size(),
            scripts.list(ScriptKind.STORED_PROCEDURE).size(),
            scripts.list(ScriptKind.TRIGGER).size(),
            usedKb / 1024,
            usedKb,
            c.documentCount(),
            usedKb));
  }

  private static String format(
      long functions,
      long storedProcedures,
      long triggers,
      long documentSizeMb,
      long documentsSizeKb,
      long documentsCount,
      long collectionSizeKb) {
    return String.format(
        Locale.ROOT,
        "functions=%d;storedProcedures=%d;triggers=%d;documentSize=%d;documentsSize=%d;"
            + "documentsCount=%d;collectionSize=%d;",
        functions,
        storedProcedures,
        triggers,
        documentSizeMb,
        documentsSizeKb,
        documentsCount,
        collectionSizeKb);
  }
}
