/**
 * {@code cosmolab top}: a running server's partitions in a terminal, read from its explorer API
 * ({@code /_explorer/api/}) and drawn as text. {@link io.cosmolab.cli.top.TopView} renders one
 * frame from the API's JSON; the command in {@code commands} fetches and repeats.
 */
package io.cosmolab.cli.top;
