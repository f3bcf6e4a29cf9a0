package io.cosmolab.engine;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The result of a stored procedure.
 *
 * @param body what the procedure passed to {@code getResponse().setBody}, or null
 * @param requestCharge the RU charged: its operations plus its running time
 * @param log what it wrote with {@code console.log}, when the request asked for it; else null
 * @param lsn the LSN of its physical partition after it committed, in the partition's own numbering
 *     (for session tokens)
 * @param partitionKeyRangeId the physical partition it ran in
 */
public record ScriptResponse(
    JsonNode body, double requestCharge, String log, long lsn, String partitionKeyRangeId) {}
