/** The master-key (HMAC-SHA256) signature check that every request passes first. */
package io.cosmolab.gateway.auth;
