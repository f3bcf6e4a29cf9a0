/** Candidate partition keys: single paths, synthetic concatenations, hierarchical keys. */
package io.cosmolab.advisor.candidate;
