// Package docs writes the parts of docs/ that are generated from the code
// (the provider × event × decision table, the dialects' lossy pairs, the
// policy pack's reference) and the policy pack's documentation for the
// terminal. Each is computed by the code that does the work, so that the
// docs cannot drift from it; the tests here fail when a doc is stale and
// rewrite it with -update-docs.
package docs

import "strings"

// Plain is documentation text for the terminal: without the backticks
// that mark code in Markdown.
func Plain(s string) string { return strings.ReplaceAll(s, "`", "") }

// orNone is items as code, comma separated, or a dash when there are none.
func orNone(items []string) string {
	if len(items) == 0 {
		return "—"
	}
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = "`" + s + "`"
	}
	return strings.Join(q, ", ")
}
