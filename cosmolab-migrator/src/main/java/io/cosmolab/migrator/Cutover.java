package io.cosmolab.migrator;

/**
 * The end of a migration: the source was quiet, the feed drained, the copy verified.
 *
 * @param safe whether the application may switch to the target now
 * @param verdict what to do, in words
 * @param verify the final comparison
 * @param state the state after the drain
 */
public record Cutover(boolean safe, String verdict, VerifyReport verify, MigrationState state) {}
