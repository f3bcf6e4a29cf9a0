package io.cosmolab.spring;

import com.azure.spring.data.cosmos.repository.CosmosRepository;
import com.azure.spring.data.cosmos.repository.Query;
import java.util.List;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.repository.query.Param;

/** Derived queries, a written query and paging, as the Spring Data Cosmos samples use them. */
public interface UserRepository extends CosmosRepository<User, String> {
  List<User> findByLastName(String lastName);

  List<User> findByAgeGreaterThanOrderByAgeDesc(int age);

  List<User> findByFirstNameAndLastName(String firstName, String lastName);

  long countByLastName(String lastName);

  @Query("SELECT * FROM c WHERE c.firstName = @firstName")
  List<User> withFirstName(@Param("firstName") String firstName);

  Page<User> findByLastName(String lastName, Pageable page);

  /** A window of the users, as applications page with a written query. */
  @Query("SELECT * FROM c OFFSET @offset LIMIT @limit")
  List<User> window(@Param("offset") int offset, @Param("limit") int limit);
}
