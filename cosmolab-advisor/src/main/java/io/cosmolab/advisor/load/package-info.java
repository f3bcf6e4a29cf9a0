/**
 * The workload at peak, placed on a candidate's partitions: which documents each operation
 * addresses ({@link io.cosmolab.advisor.load.AccessWeights}), how many partitions it must visit
 * ({@link io.cosmolab.advisor.load.Route}), and the RU/s each partition must serve ({@link
 * io.cosmolab.advisor.load.Demand}).
 */
package io.cosmolab.advisor.load;
