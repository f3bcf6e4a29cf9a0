package io.cosmolab.migrator;

import io.cosmolab.advisor.workload.ContainerWorkload;
import io.cosmolab.advisor.workload.Workload;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The source's workload at its busiest second, in the advisor's workload format ({@code
 * docs/advisor.md}), for the plan to weigh the new key at peak: the operations, their keys and
 * rates, growth and horizon. Its candidates, throughput and sample are not used: the key is the new
 * one, the documents are the source's own, the throughput the target's (or the least that serves
 * the peak).
 *
 * @param container the source's container in the workload
 * @param all every container of the workload (joins from the others send lookups here)
 */
public record PlanWorkload(ContainerWorkload container, List<ContainerWorkload> all) {

  public PlanWorkload {
    Objects.requireNonNull(container, "container");
    all = List.copyOf(all);
  }

  /**
   * Reads {@code file} and picks its container: {@code name} when given, else the only one, else
   * the one named like {@code sourceContainer}.
   *
   * @throws IllegalArgumentException naming what is wrong with the file or the choice
   */
  public static PlanWorkload read(Path file, String name, String sourceContainer) {
    Workload w = Workload.read(file);
    List<ContainerWorkload> all = w.containers();
    if (name != null) {
      return new PlanWorkload(w.container(name), all);
    }
    if (all.size() == 1) {
      return new PlanWorkload(all.get(0), all);
    }
    for (ContainerWorkload c : all) {
      if (c.name().equals(sourceContainer)) {
        return new PlanWorkload(c, all);
      }
    }
    throw new IllegalArgumentException(
        "the workload "
            + file
            + " has "
            + all.size()
            + " containers and none is named "
            + sourceContainer
            + ": choose one with --workload-container NAME");
  }
}
