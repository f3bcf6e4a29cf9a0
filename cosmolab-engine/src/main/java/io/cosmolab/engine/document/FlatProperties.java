package io.cosmolab.engine.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * A JSON object's properties in one array, in insertion order: {@code [name0, value0, name1,
 * value1, ...]}. The children of the objects {@link CompactObjects} makes, in place of the {@code
 * LinkedHashMap} a Jackson {@code ObjectNode} has by default.
 *
 * <p>Why: a stored document lives as long as the container, and the collector copies it, object by
 * object, until it reaches the old generation. A {@code LinkedHashMap} of ten properties is 13
 * objects and about 570 bytes (the map, its table, an entry per property, its entry-set view); this
 * is 2 objects and about 130 bytes. Look-ups scan the names, which for the few properties of an
 * object is as quick as hashing one (a name read by the parser or written in the code is usually
 * the same instance, met by the identity check that {@code String.equals} makes first); objects
 * with more than {@link #MAX_PROPERTIES} properties keep their hash map.
 *
 * <p>A complete, mutable {@link Map} (removal through every view's iterator, {@code setValue}
 * through an entry), not synchronized: as the {@code LinkedHashMap} it replaces, it is written by
 * one thread before it is published, and only read after that.
 */
final class FlatProperties extends AbstractMap<String, JsonNode> {
  /** The most properties an object keeps in a flat array; larger objects keep a hash map. */
  static final int MAX_PROPERTIES = 32;

  private static final Object[] NONE = {};

  private Object[] slots; // name, value, name, value, ...; past 2 * size: nulls
  private int size;
  private int modifications; // for the iterators' fail-fast check

  /** Empty, with room for {@code capacity} properties before the array grows. */
  FlatProperties(int capacity) {
    slots = capacity == 0 ? NONE : new Object[2 * capacity];
  }

  /**
   * The value of property {@code i}: a node; or, for a string value kept as its text ({@link
   * #putString}) or a {@link SystemText}, a text node of it (a new node each time: nothing derived
   * is kept).
   */
  private JsonNode valueAt(int i) {
    Object v = slots[2 * i + 1];
    if (v instanceof String text) {
      return TextNode.valueOf(text);
    }
    return v instanceof SystemText t
        ? TextNode.valueOf(t.text((String) slots[2 * i]))
        : (JsonNode) v;
  }

  /** Property {@code i}'s name ({@code i} below {@link #size}, in order). */
  String nameAt(int i) {
    return (String) slots[2 * i];
  }

  /** Property {@code i}'s value as readers see it (a new node for a text: see {@link #valueAt}). */
  JsonNode nodeAt(int i) {
    return valueAt(i);
  }

  /** Whether property {@code i} is a string (kept as its text, or made when read). */
  boolean isText(int i) {
    Object v = slots[2 * i + 1];
    return v instanceof String || v instanceof SystemText;
  }

  /**
   * Property {@code i}'s string, without the node {@link #nodeAt} makes of it; null when it is not
   * a string. For walks that only look (a document's size, its terms).
   */
  String textAt(int i) {
    Object v = slots[2 * i + 1];
    if (v instanceof String text) {
      return text;
    }
    return v instanceof SystemText t ? t.text((String) slots[2 * i]) : null;
  }

  /**
   * Puts a string value as its text alone, without the node that holds it: a stored document's
   * strings then cost the collector one object fewer each (docs/benchmarks.md). Readers see a text
   * node equal to {@code value}.
   */
  void putString(String name, TextNode value) {
    putSlot(name, value.textValue());
  }

  /** Puts a property whose text {@code text} makes when read (see {@link SystemText}). */
  void putText(String name, SystemText text) {
    putSlot(name, Objects.requireNonNull(text, "text"));
  }

  /** Puts {@code value} (a text or a {@link SystemText}) in {@code name}'s slot, found once. */
  private void putSlot(String name, Object value) {
    int i = indexOf(name);
    if (i < 0) {
      put(name, (JsonNode) null); // appended: the last property
      i = size - 1;
    }
    slots[2 * i + 1] = value;
  }

  /**
   * A copy whose values are deep copies (value nodes, immutable, shared), whose texts are the same
   * (immutable too), and whose {@link SystemText}s are their {@link SystemText#detached} forms.
   */
  FlatProperties deepCopy() {
    FlatProperties copy = new FlatProperties(size);
    for (int i = 0; i < size; i++) {
      copy.slots[2 * i] = slots[2 * i];
    }
    copyValues(slots, copy.slots, size);
    copy.size = size;
    return copy;
  }

  /**
   * Makes this object's {@link SystemText}s their detached forms, in place (see CompactObjects).
   */
  void detachTexts() {
    copyValues(slots, slots, size);
  }

  /**
   * Each of the first {@code size} values of {@code from} into {@code to} (the same array or
   * another): nodes deep-copied, texts as they are, {@link SystemText}s detached, one detached form
   * for the several slots of one version (its {@code _rid}, {@code _self} and {@code _etag}).
   */
  private static void copyValues(Object[] from, Object[] to, int size) {
    SystemText last = null;
    SystemText detached = null;
    for (int i = 0; i < size; i++) {
      Object v = from[2 * i + 1];
      if (v instanceof SystemText t) {
        if (t != last) {
          last = t;
          detached = t.detached();
        }
        if (to[2 * i + 1] != detached) {
          to[2 * i + 1] = detached;
        }
      } else if (from != to) {
        to[2 * i + 1] = v instanceof JsonNode n ? n.deepCopy() : v;
      }
    }
  }

  /**
   * Makes property {@code name} keep {@code shared} as its text when it keeps an equal text of its
   * own, so that the strings of many objects with the same value are one (what a logical
   * partition's documents do with their key's value). Readers see no change.
   */
  void shareString(String name, String shared) {
    int i = indexOf(name);
    if (i >= 0 && slots[2 * i + 1] instanceof String own && own.equals(shared)) {
      slots[2 * i + 1] = shared; // the same text: which instance is kept is all that changes
    }
  }

  /** The {@link SystemText} a property was put with, or null. */
  SystemText textOf(String name) {
    int i = indexOf(name);
    return i >= 0 && slots[2 * i + 1] instanceof SystemText t ? t : null;
  }

  private int indexOf(Object name) {
    for (int i = 0; i < size; i++) {
      if (name.equals(slots[2 * i])) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public boolean containsKey(Object name) {
    return name != null && indexOf(name) >= 0;
  }

  @Override
  public JsonNode get(Object name) {
    if (name == null) {
      return null;
    }
    int i = indexOf(name);
    return i < 0 ? null : valueAt(i);
  }

  @Override
  public JsonNode put(String name, JsonNode value) {
    Objects.requireNonNull(name, "a JSON property's name");
    int i = indexOf(name);
    if (i >= 0) {
      JsonNode old = valueAt(i);
      slots[2 * i + 1] = value;
      return old;
    }
    if (2 * size == slots.length) {
      slots = Arrays.copyOf(slots, 2 * (size + size / 2 + 1)); // whole pairs: the length stays even
    }
    slots[2 * size] = name;
    slots[2 * size + 1] = value;
    size++;
    modifications++;
    return null;
  }

  @Override
  public JsonNode remove(Object name) {
    if (name == null) {
      return null;
    }
    int i = indexOf(name);
    if (i < 0) {
      return null;
    }
    JsonNode old = valueAt(i);
    removeAt(i);
    return old;
  }

  private void removeAt(int i) {
    System.arraycopy(slots, 2 * i + 2, slots, 2 * i, 2 * (size - i - 1));
    size--;
    slots[2 * size] = null;
    slots[2 * size + 1] = null;
    modifications++;
  }

  @Override
  public void clear() {
    Arrays.fill(slots, 0, 2 * size, null);
    size = 0;
    modifications++;
  }

  @Override
  public Set<Map.Entry<String, JsonNode>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Map.Entry<String, JsonNode>> iterator() {
        return new Entries();
      }

      @Override
      public int size() {
        return size;
      }
    };
  }

  /** In insertion order; {@code remove()} removes the last entry returned. */
  private final class Entries implements Iterator<Map.Entry<String, JsonNode>> {
    private int next;
    private int last = -1;
    private int expected = modifications;

    @Override
    public boolean hasNext() {
      return next < size;
    }

    @Override
    public Map.Entry<String, JsonNode> next() {
      if (expected != modifications) {
        throw new ConcurrentModificationException();
      }
      if (next >= size) {
        throw new NoSuchElementException();
      }
      last = next++;
      return new Entry(last);
    }

    @Override
    public void remove() {
      if (last < 0) {
        throw new IllegalStateException("next() first, and once per remove()");
      }
      if (expected != modifications) {
        throw new ConcurrentModificationException();
      }
      removeAt(last);
      next = last;
      last = -1;
      expected = modifications;
    }
  }

  /**
   * One property, read and written through to the map while its name is in it (as a {@code
   * LinkedHashMap}'s entry); once the property is removed, its last value, and writes change only
   * the entry.
   */
  private final class Entry implements Map.Entry<String, JsonNode> {
    private final String name;
    private int index; // where the property was; found again by name after a removal before it
    private JsonNode value; // the last value seen or set

    Entry(int index) {
      this.index = index;
      this.name = (String) slots[2 * index];
      this.value = valueAt(index);
    }

    /**
     * The property's index now, or -1 once it is found removed, for good (a {@code LinkedHashMap}
     * makes a new entry for a property put back; here one put back before the entry looks again is
     * taken for it).
     */
    private int position() {
      if (index >= 0 && (index >= size || !name.equals(slots[2 * index]))) {
        index = indexOf(name);
      }
      return index;
    }

    @Override
    public String getKey() {
      return name;
    }

    @Override
    public JsonNode getValue() {
      int i = position();
      if (i >= 0) {
        value = valueAt(i);
      }
      return value;
    }

    @Override
    public JsonNode setValue(JsonNode replacement) {
      JsonNode old = getValue();
      int i = position();
      if (i >= 0) {
        slots[2 * i + 1] = replacement;
      }
      value = replacement;
      return old;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Map.Entry<?, ?> e
          && getKey().equals(e.getKey())
          && Objects.equals(getValue(), e.getValue());
    }

    @Override
    public int hashCode() {
      return getKey().hashCode() ^ Objects.hashCode(getValue());
    }

    @Override
    public String toString() {
      return getKey() + "=" + getValue();
    }
  }
}
