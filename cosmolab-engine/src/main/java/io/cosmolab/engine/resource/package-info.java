/**
 * Resource identity shared by every resource: RIDs in the service's binary layout. Used by the
 * engine for databases, containers, documents and partition key ranges, and by the gateway to parse
 * RID-addressed requests.
 */
package io.cosmolab.engine.resource;
