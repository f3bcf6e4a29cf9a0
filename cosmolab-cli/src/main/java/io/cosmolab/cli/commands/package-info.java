/** The picocli commands: option parsing only, the work is in library code. */
package io.cosmolab.cli.commands;
