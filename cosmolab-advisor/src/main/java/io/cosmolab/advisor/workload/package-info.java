/** The workload at peak, read from YAML: operations and their rates, throughput, growth. */
package io.cosmolab.advisor.workload;
