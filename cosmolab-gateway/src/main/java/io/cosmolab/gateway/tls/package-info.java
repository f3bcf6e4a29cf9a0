/**
 * The self-signed certificate for localhost: created once, kept, exported as PEM or trust store.
 */
package io.cosmolab.gateway.tls;
