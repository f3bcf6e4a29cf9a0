package io.cosmolab.migrator.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.migrator.TargetKey;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The writes of one step of a page, reduced to one per target document: the last write to a
 * document (an id under a new key) replaces the earlier ones.
 *
 * <p>Why that keeps the page's order. Applied one after the other, the writes to one target
 * document leave it as the last of them says: an upsert writes the whole document, a delete removes
 * it, neither depends on what was there. Writes to different target documents do not touch each
 * other. So the set that keeps only each document's last write leaves the target exactly as the
 * sequence would, and its writes can go to the SDK's bulk executor, which reorders freely (it
 * groups by partition and retries some operations later than others), in any order. A create
 * followed by an update of the same id becomes the update; a create followed by its delete becomes
 * the delete (a 404, tolerated); a move from key A to key B and back becomes an upsert under A and
 * a delete under B. What the reduction cannot cover is a write that depends on the target's state
 * (a query locating old copies): {@link Changes} ends a step before such a record.
 *
 * <p>Confined to the thread that builds it.
 */
public final class PageWrites {
  private final TargetKey key;
  private final Map<String, TargetWrite> last = new LinkedHashMap<>();
  private long added;

  public PageWrites(TargetKey key) {
    this.key = key;
  }

  /** Adds an upsert of {@code target}, a document {@link TargetKey#transform} produced. */
  public void upsert(ObjectNode target) {
    add(new TargetWrite.Upsert(target, key.keyTextOf(target)));
  }

  /** Adds a delete of the copy of {@code id} under {@code keyText}. */
  public void delete(String id, String keyText) {
    add(new TargetWrite.Delete(id, keyText));
  }

  public void add(TargetWrite w) {
    added++;
    last.remove(w.document()); // re-inserted at the end: the map keeps the order of last writes
    last.put(w.document(), w);
  }

  /** Writes added, before the reduction. */
  public long added() {
    return added;
  }

  /** The last write to each target document, in the order of those last writes. */
  public List<TargetWrite> writes() {
    return new ArrayList<>(last.values());
  }
}
