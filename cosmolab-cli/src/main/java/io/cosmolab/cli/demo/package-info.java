/**
 * The demo workload: a multi-tenant session store run on the engine in virtual time, and its
 * partition report. Called by {@code commands.DemoCommand}.
 */
package io.cosmolab.cli.demo;
