/**
 * The checks every request passes first: the master-key (HMAC-SHA256) signature ({@link
 * io.cosmolab.gateway.auth.MasterKeyAuthenticator}), or a resource token issued for a permission
 * ({@link io.cosmolab.gateway.auth.ResourceTokens}, whose scope the resource handlers then apply),
 * and the Host allow-list.
 */
package io.cosmolab.gateway.auth;
