package io.cosmolab.engine.testing;

import io.cosmolab.engine.store.ContainerStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.function.Consumer;

/** A container store whose every call is first shown to a test (to count it, or to fail it). */
public final class Intercepted {
  private Intercepted() {}

  /**
   * {@code store}, with {@code beforeEach} told the name of each method called before it runs; an
   * exception {@code beforeEach} throws is what the caller gets.
   */
  public static ContainerStore containerStore(ContainerStore store, Consumer<String> beforeEach) {
    return (ContainerStore)
        Proxy.newProxyInstance(
            Intercepted.class.getClassLoader(),
            new Class<?>[] {ContainerStore.class},
            (proxy, method, args) -> {
              beforeEach.accept(method.getName());
              try {
                return method.invoke(store, args);
              } catch (InvocationTargetException x) {
                throw x.getCause();
              }
            });
  }
}
