/**
 * The system functions by family ({@link io.cosmolab.query.functions.SystemFunctions}, with date
 * and time and spatial functions in their own classes). Called by {@code exec}.
 */
package io.cosmolab.query.functions;
