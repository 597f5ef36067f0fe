package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hookshim/hookshim/internal/journal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Long names are cut to their column, so that every row's last column
// starts where the header's does, as rows printed one at a time by
// --follow must.
func TestLogTableColumns(t *testing.T) {
	var b bytes.Buffer
	tb := &table{w: &b}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	require.NoError(t, tb.print([]*journal.Record{
		{Entry: journal.Entry{Time: at, ID: "0123456789", MS: 1.25, Provider: "claude-code", Version: "2.1.30",
			Native: "PreToolUse", NativeTool: "Bash", Decision: "none", Handlers: []string{"guard"}}},
		{Entry: journal.Entry{Time: at, ID: "abcdef0123", MS: 12.5, Provider: "vscode-copilot", Version: "1.105.0-insider",
			Native: "UserPromptSubmitted", NativeTool: "mcp__github__create_pull_request", Decision: "deny",
			Problems: []string{"x"}, Handlers: []string{"no-force-push", "no-env-files", "secrets-in-prompts"}}},
	}))
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	require.Len(t, lines, 3)
	col := utf8.RuneCountInString(lines[0][:strings.Index(lines[0], "DURATION")])
	for _, l := range lines[1:] {
		last := strings.LastIndex(l, "  ") + 2
		assert.Equal(t, col, utf8.RuneCountInString(l[:last]), "%q", l)
	}
	assert.Contains(t, lines[1], "claude-code 2.1.30")
	assert.Contains(t, lines[2], "mcp__github__…")
	assert.Contains(t, lines[2], "deny!")
	assert.Contains(t, lines[2], "no-force-push,no-en…")
}
