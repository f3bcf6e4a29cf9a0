/**
 * The migrator's final report, as terminal text, JSON and one self-contained HTML page: the
 * verdict, the counts, progress per source feed range, request units, throttling, lag, every
 * difference and what to switch. Built from {@code io.cosmolab.migrator}'s state and verification
 * records; {@code cosmolab-cli}'s {@code migrate} commands print and write it.
 */
package io.cosmolab.migrator.report;
