/** The migrator's internals: SDK clients, the RU cap and retries, the state file, hashing. */
package io.cosmolab.migrator.internal;
