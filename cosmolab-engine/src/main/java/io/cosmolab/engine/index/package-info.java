/**
 * Range indexes over document paths and the container's indexing policy. Maintained by the
 * container's writes, read by queries before they load documents; an excluded path means a scan.
 */
package io.cosmolab.engine.index;
