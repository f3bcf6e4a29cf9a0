/**
 * Documents: their shape (size, indexed terms, depth), partial updates ({@link
 * io.cosmolab.engine.document.Patch}) and the conditions of conditional patches. Applied by the
 * container before a document version reaches {@code store}.
 */
package io.cosmolab.engine.document;
