package io.cosmolab.engine.testing;

import io.cosmolab.engine.store.ContainerStore;
import io.cosmolab.engine.store.DocumentStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Collection;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/** Stores whose every call is first shown to a test (to count it, or to fail it). */
public final class Intercepted {
  private Intercepted() {}

  /**
   * {@code store}, with {@code beforeEach} told the name of each method called before it runs; an
   * exception {@code beforeEach} throws is what the caller gets.
   */
  public static ContainerStore containerStore(ContainerStore store, Consumer<String> beforeEach) {
    return containerStore(store, (method, args) -> beforeEach.accept(method));
  }

  /** As above, with the call's arguments too (null for a method without any). */
  public static ContainerStore containerStore(
      ContainerStore store, BiConsumer<String, Object[]> beforeEach) {
    return (ContainerStore)
        Proxy.newProxyInstance(
            Intercepted.class.getClassLoader(),
            new Class<?>[] {ContainerStore.class},
            (proxy, method, args) -> {
              beforeEach.accept(method.getName(), args);
              try {
                return method.invoke(store, args);
              } catch (InvocationTargetException x) {
                throw x.getCause();
              }
            });
  }

  /** {@code inner}, with every container store it opens intercepted as above; the catalog as is. */
  public static DocumentStore documentStore(
      DocumentStore inner, BiConsumer<String, Object[]> beforeEach) {
    return new DocumentStore() {
      @Override
      public ContainerStore open(String rid) {
        return containerStore(inner.open(rid), beforeEach);
      }

      @Override
      public String loadCatalog() {
        return inner.loadCatalog();
      }

      @Override
      public void saveCatalog(String catalogJson, Collection<String> dropped) {
        inner.saveCatalog(catalogJson, dropped);
      }
    };
  }
}
