package io.cosmolab.migrator.internal;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.SqlQuerySpec;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Whole-container reads for plan, verify and reconciliation: every result of a query, page by page
 * through the RU cap. The SDK's page iterator cannot go on after an error, so a throttled page (its
 * retry-after already waited by {@link Sdk#page}) starts a new iterator from the last continuation
 * read: nothing is read twice and nothing skipped.
 */
public final class Reads {
  private final Sdk sdk;
  private final int pageSize;

  public Reads(Sdk sdk, int pageSize) {
    this.sdk = sdk;
    this.pageSize = pageSize;
  }

  /** Every document of {@code c}. */
  public Iterable<ObjectNode> all(CosmosContainer c) {
    return all(c, new SqlQuerySpec("SELECT * FROM c"));
  }

  /** Every result of {@code q} over {@code c}. */
  public Iterable<ObjectNode> all(CosmosContainer c, SqlQuerySpec q) {
    return () -> new Results(c, q, null);
  }

  /** Every result of {@code q} in one logical partition of {@code c}. */
  public Iterable<ObjectNode> all(CosmosContainer c, SqlQuerySpec q, PartitionKey key) {
    return () -> new Results(c, q, key);
  }

  private final class Results implements Iterator<ObjectNode> {
    private final CosmosContainer container;
    private final SqlQuerySpec query;
    private final PartitionKey key;
    private String continuation;
    private boolean done;
    private Iterator<ObjectNode> page = Collections.emptyIterator();
    private Iterator<FeedResponse<ObjectNode>> pages;

    Results(CosmosContainer container, SqlQuerySpec query, PartitionKey key) {
      this.container = container;
      this.query = query;
      this.key = key;
    }

    @Override
    public boolean hasNext() {
      while (!page.hasNext() && !done) {
        try {
          if (pages == null) {
            CosmosQueryRequestOptions o = new CosmosQueryRequestOptions();
            if (key != null) {
              o.setPartitionKey(key);
            }
            pages =
                container
                    .queryItems(query, o, ObjectNode.class)
                    .iterableByPage(continuation, pageSize)
                    .iterator();
          }
          FeedResponse<ObjectNode> p = sdk.nextPage(pages);
          if (p == null) {
            done = true;
          } else {
            page = p.getResults().iterator();
            continuation = p.getContinuationToken();
            done = continuation == null;
          }
        } catch (CosmosException e) {
          if (e.getStatusCode() != 429) {
            throw e;
          }
          pages = null; // again from the last page read
        }
      }
      return page.hasNext();
    }

    @Override
    public ObjectNode next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return page.next();
    }
  }
}
