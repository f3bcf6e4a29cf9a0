/** Rules the query module's packages share and do not export. */
package io.cosmolab.query.internal;
