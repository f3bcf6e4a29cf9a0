/** Reading sample documents: JSON Lines or a JSON array, plain or gzip, streamed. */
package io.cosmolab.advisor.input;
