package io.cosmolab.spring;

import com.azure.spring.data.cosmos.repository.CosmosRepository;
import java.util.Collection;
import java.util.List;

/** The derived-query forms applications use beyond equality, over a versioned entity. */
public interface OrderRepository extends CosmosRepository<Order, String> {
  List<Order> findByStatusIn(Collection<String> statuses);

  List<Order> findByIdStartsWith(String prefix);

  List<Order> findByNoteIsNull();

  List<Order> findByAmountBetween(double low, double high);

  List<Order> findByStatusIgnoreCase(String status);

  List<Order> findTop3ByOrderByAmountDesc();

  boolean existsByStatus(String status);

  void deleteByStatus(String status);
}
