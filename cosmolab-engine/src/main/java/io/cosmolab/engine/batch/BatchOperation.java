package io.cosmolab.engine.batch;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.document.DocumentCondition;
import io.cosmolab.engine.document.PatchOperation;
import java.util.List;

/** One operation of a transactional batch; all operations share the batch's partition key. */
public sealed interface BatchOperation {

  /** An If-Match etag the target must have, or null. */
  String ifMatch();

  record Create(ObjectNode document) implements BatchOperation {
    @Override
    public String ifMatch() {
      return null;
    }
  }

  record Upsert(ObjectNode document, String ifMatch) implements BatchOperation {}

  record Replace(String id, ObjectNode document, String ifMatch) implements BatchOperation {}

  record Read(String id, String ifNoneMatch) implements BatchOperation {
    @Override
    public String ifMatch() {
      return null;
    }
  }

  record Delete(String id, String ifMatch) implements BatchOperation {}

  record Patch(
      String id, List<PatchOperation> operations, DocumentCondition condition, String ifMatch)
      implements BatchOperation {
    public Patch {
      operations = List.copyOf(operations);
    }
  }
}
