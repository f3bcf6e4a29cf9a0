package io.cosmolab.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosStoredProcedureProperties;
import com.azure.cosmos.models.CosmosStoredProcedureRequestOptions;
import com.azure.cosmos.models.CosmosTriggerProperties;
import com.azure.cosmos.models.CosmosUserDefinedFunctionProperties;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.TriggerOperation;
import com.azure.cosmos.models.TriggerType;
import io.cosmolab.testkit.CosmosLabExtension;
import io.cosmolab.testkit.LabContainer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Stored procedures, triggers and UDFs through the Java SDK's scripts API: their resources work end
 * to end; running a stored procedure is refused with a clear message.
 */
@ExtendWith(CosmosLabExtension.class)
class ScriptsCompatTest {

  @Test
  void scripts_canBeCreatedReadListedReplacedAndDeleted(
      @LabContainer(partitionKey = "/pk") CosmosContainer c) {
    var scripts = c.getScripts();
    scripts.createStoredProcedure(
        new CosmosStoredProcedureProperties("sp1", "function () { getContext(); }"));
    scripts.createTrigger(
        new CosmosTriggerProperties("tr1", "function () {}")
            .setTriggerType(TriggerType.PRE)
            .setTriggerOperation(TriggerOperation.CREATE));
    scripts.createUserDefinedFunction(
        new CosmosUserDefinedFunctionProperties("udf1", "function (x) { return x; }"));

    assertThat(scripts.getStoredProcedure("sp1").read().getProperties().getBody())
        .isEqualTo("function () { getContext(); }");
    assertThat(scripts.getTrigger("tr1").read().getProperties().getTriggerType())
        .isEqualTo(TriggerType.PRE);
    assertThat(scripts.readAllStoredProcedures().stream().map(p -> p.getId()).toList())
        .containsExactly("sp1");
    assertThat(scripts.readAllUserDefinedFunctions().stream().map(p -> p.getId()).toList())
        .containsExactly("udf1");

    // as with the service, replace sends the properties read back (the SDK uses their _self link)
    CosmosStoredProcedureProperties props =
        scripts.getStoredProcedure("sp1").read().getProperties();
    props.setBody("function () { return 2; }");
    scripts.getStoredProcedure("sp1").replace(props);
    assertThat(scripts.getStoredProcedure("sp1").read().getProperties().getBody())
        .isEqualTo("function () { return 2; }");

    scripts.getTrigger("tr1").delete();
    assertThat(scripts.readAllTriggers().stream().toList()).isEmpty();
    assertThatThrownBy(() -> scripts.getTrigger("tr1").read())
        .isInstanceOfSatisfying(
            CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(404));
  }

  @Test
  void executingAStoredProcedure_isRefusedClearly(
      @LabContainer(partitionKey = "/pk") CosmosContainer c, CosmosClient client) {
    c.getScripts()
        .createStoredProcedure(new CosmosStoredProcedureProperties("run", "function () {}"));
    assertThatThrownBy(
            () ->
                c.getScripts()
                    .getStoredProcedure("run")
                    .execute(
                        List.of(),
                        new CosmosStoredProcedureRequestOptions()
                            .setPartitionKey(new PartitionKey("a"))))
        .isInstanceOfSatisfying(
            CosmosException.class,
            e -> {
              assertThat(e.getStatusCode()).isEqualTo(501);
              assertThat(e.getMessage()).contains("not supported by cosmolab");
            });
  }
}
