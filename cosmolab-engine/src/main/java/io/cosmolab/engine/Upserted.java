package io.cosmolab.engine;

/**
 * The result of an upsert: the resource as it now is, and whether the upsert created it (201) or
 * replaced it (200).
 */
public record Upserted<T>(T resource, boolean created) {}
