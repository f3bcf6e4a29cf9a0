/** Built-in scenarios with generators, for `cosmolab advise --example` and the advisor's tests. */
package io.cosmolab.advisor.examples;
