package io.cosmolab.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.PartitionKeyComponent;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;

/**
 * Where an operation goes: its logical partition (key value and EPK) and, for point operations, the
 * document id. The factories validate what a request names against the container's partition key
 * definition, and fail with the service's status when it does not fit.
 */
record Target(PartitionKeyValue key, String epk, String id) {

  /** A logical partition, from an explicit key. */
  static Target of(PartitionKeyDefinition def, PartitionKeyValue key) {
    if (key == null) {
      throw CosmosError.PARTITION_KEY_MISMATCH.exception(
          "the operation needs a partition key with %d component(s) for %s",
          def.paths().size(), def.paths());
    }
    checkFullKey(def, key);
    return new Target(key, EffectivePartitionKey.of(def, key), null);
  }

  /** A document of a logical partition, by id. */
  static Target of(PartitionKeyDefinition def, PartitionKeyValue key, String id) {
    ResourceNames.checkDocumentId(id);
    Target t = of(def, key);
    return new Target(t.key, t.epk, id);
  }

  /** The document's own place; {@code given}, when not null, must agree with the document. */
  static Target of(PartitionKeyDefinition def, PartitionKeyValue given, ObjectNode document) {
    if (document == null) {
      throw CosmosError.BAD_REQUEST.exception("the document is missing");
    }
    JsonNode idNode = document.get("id");
    if (idNode == null || !idNode.isTextual()) {
      throw CosmosError.BAD_REQUEST.exception(
          "the document needs an 'id' property holding a string, was %s",
          idNode == null ? "missing" : idNode.getNodeType());
    }
    String docId = idNode.textValue();
    ResourceNames.checkDocumentId(docId);
    PartitionKeyValue fromDocument = def.extract(document);
    if (given != null) {
      checkFullKey(def, given);
      if (!given.equals(fromDocument)) {
        throw CosmosError.PARTITION_KEY_MISMATCH.exception(
            "PartitionKeyMismatch: the partition key %s does not match the document's value %s"
                + " at %s",
            given, fromDocument, def.paths());
      }
    }
    checkFullKey(def, fromDocument);
    return new Target(fromDocument, EffectivePartitionKey.of(def, fromDocument), docId);
  }

  /** This logical partition, another document id. */
  Target withId(String docId) {
    ResourceNames.checkDocumentId(docId);
    return new Target(key, epk, docId);
  }

  /** A replacement body must keep the id and the partition key it replaces. */
  void checkBodyMatches(PartitionKeyDefinition def, ObjectNode document) {
    if (document == null) {
      throw CosmosError.BAD_REQUEST.exception("the document is missing");
    }
    JsonNode idNode = document.get("id");
    if (idNode == null || !idNode.isTextual() || !idNode.textValue().equals(id)) {
      throw CosmosError.BAD_REQUEST.exception(
          "the document's id %s does not match the id '%s' being replaced", idNode, id);
    }
    PartitionKeyValue fromDocument = def.extract(document);
    if (!fromDocument.equals(key)) {
      throw CosmosError.PARTITION_KEY_MISMATCH.exception(
          "PartitionKeyMismatch: the partition key %s does not match the document's value %s at"
              + " %s; a document cannot move to another logical partition by replace",
          key, fromDocument, def.paths());
    }
  }

  private static void checkFullKey(PartitionKeyDefinition def, PartitionKeyValue key) {
    if (key.size() != def.paths().size() && !(key.size() == 0 && def.systemKey())) {
      throw EffectivePartitionKey.componentCountError(def, key);
    }
    for (PartitionKeyComponent c : key.components()) {
      int bytes =
          c instanceof PartitionKeyComponent.Str s
              ? ResourceNames.utf8LengthOver(s.value(), def.maxKeyBytes())
              : -1;
      if (bytes >= 0) {
        throw CosmosError.BAD_REQUEST.exception(
            "a partition key value is %d bytes long; the limit for hash version %d is %d bytes",
            bytes, def.version(), def.maxKeyBytes());
      }
    }
  }
}
