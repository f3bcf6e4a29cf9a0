/** The advisor's reports for people: a self-contained HTML page with charts. */
package io.cosmolab.advisor.report;
