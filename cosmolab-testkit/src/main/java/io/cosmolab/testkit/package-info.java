/**
 * Embedding cosmolab in a test suite. {@link io.cosmolab.testkit.CosmosLab} starts the engine and
 * the gateway in-process on a free loopback port and hands out SDK clients already configured for
 * it; {@link io.cosmolab.testkit.CosmosLabExtension} does that for JUnit 5, once per test class or
 * once per run, and injects a lab, a client or a fresh container into test methods.
 */
package io.cosmolab.testkit;
