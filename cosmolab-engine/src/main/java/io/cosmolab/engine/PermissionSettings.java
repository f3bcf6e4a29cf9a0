package io.cosmolab.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.error.CosmosError;

/**
 * What a client sets on a permission: its id, its mode, the link of the resource it covers, and
 * optionally the logical partition it is limited to ({@code resourcePartitionKey}, a JSON array
 * with one element per path of the container's key, as the SDKs send it).
 *
 * @param mode as the client wrote it; {@link PermissionMode#parse} reads it
 * @param resourcePartitionKey null when the permission covers every partition
 */
public record PermissionSettings(
    String id, String mode, String resource, JsonNode resourcePartitionKey) {

  /**
   * The settings of a permission's JSON body ({@code id}, {@code permissionMode}, {@code resource},
   * {@code resourcePartitionKey}); 400 naming the first property that is missing or not a string.
   */
  public static PermissionSettings fromJson(ObjectNode body) {
    String id = text(body, "id");
    String mode = text(body, "permissionMode");
    String resource = text(body, "resource");
    JsonNode key = body.get("resourcePartitionKey");
    return new PermissionSettings(id, mode, resource, key == null || key.isNull() ? null : key);
  }

  private static String text(ObjectNode body, String name) {
    JsonNode v = body.get(name);
    if (v == null || !v.isTextual()) {
      throw CosmosError.BAD_REQUEST.exception(
          "a permission needs a string '%s' (id, permissionMode and resource are required), %s",
          name, v == null ? "it is missing" : "was " + v);
    }
    return v.textValue();
  }
}
