/** The advisor's load driver: documents per second and heap over a generated data set. */
package io.cosmolab.benchmarks.advisor;
