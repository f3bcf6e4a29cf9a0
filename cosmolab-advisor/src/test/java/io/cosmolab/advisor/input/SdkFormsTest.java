package io.cosmolab.advisor.input;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.models.CompositePath;
import com.azure.cosmos.models.CompositePathSortOrder;
import com.azure.cosmos.models.ExcludedPath;
import com.azure.cosmos.models.IncludedPath;
import com.azure.cosmos.models.IndexingMode;
import com.azure.cosmos.models.IndexingPolicy;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The SDK's forms of what the engine models. */
class SdkFormsTest {

  @Test
  void anIndexingPolicy_becomesTheSdksWithEveryPath_andTheServicesImpliedEtagExclusion()
      throws Exception {
    IndexingPolicy p =
        SdkForms.indexingPolicy(
            new ObjectMapper()
                .readTree(
                    """
                    {"indexingMode": "consistent",
                     "includedPaths": [{"path": "/ts/?"}],
                     "excludedPaths": [{"path": "/*"}],
                     "compositeIndexes": [[{"path": "/a", "order": "ascending"},
                                           {"path": "/b", "order": "descending"}]]}
                    """));
    assertThat(p.getIndexingMode()).isEqualTo(IndexingMode.CONSISTENT);
    assertThat(p.isAutomatic()).isTrue();
    assertThat(p.getIncludedPaths()).extracting(IncludedPath::getPath).containsExactly("/ts/?");
    assertThat(p.getExcludedPaths())
        .extracting(ExcludedPath::getPath)
        .containsExactly("/*", "/\"_etag\"/?");
    assertThat(p.getCompositeIndexes()).hasSize(1);
    assertThat(p.getCompositeIndexes().get(0))
        .extracting(CompositePath::getPath, CompositePath::getOrder)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("/a", CompositePathSortOrder.ASCENDING),
            org.assertj.core.groups.Tuple.tuple("/b", CompositePathSortOrder.DESCENDING));
  }
}
