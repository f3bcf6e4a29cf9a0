package io.cosmolab.spring;

import com.azure.spring.data.cosmos.repository.ReactiveCosmosRepository;
import reactor.core.publisher.Flux;

/** The reactive repository over the same container. */
public interface ReactiveUserRepository extends ReactiveCosmosRepository<User, String> {
  Flux<User> findByFirstName(String firstName);
}
