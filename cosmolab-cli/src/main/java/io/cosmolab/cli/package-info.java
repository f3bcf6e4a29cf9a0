/**
 * The {@code cosmolab} command line: {@link io.cosmolab.cli.Main} and one thin picocli command per
 * verb in {@code commands}, each parsing options and calling library code ({@code demo}, the
 * engine). Output goes to injected writers so transcripts are testable.
 */
package io.cosmolab.cli;
