package hookshim_test

import (
	"testing"

	hookshim "github.com/hookshim/hookshim"
	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/normalize"
	"github.com/hookshim/hookshim/internal/policy"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFixturesReachPolicies: the multi-file and repeated-name fixtures,
// normalized as a hook call normalizes them, are judged on every file they
// name and on the member the tool itself reads.
func TestFixturesReachPolicies(t *testing.T) {
	want := map[string]string{ // provider/fixture -> the policy that must deny it
		"vscode-copilot/PreToolUse-multi_replace.json":     "hookshim/secret-files",
		"gemini-cli/BeforeTool-read_many_files.json":       "hookshim/secret-files",
		"gemini-cli/BeforeTool-read_many_files-paths.json": "hookshim/secret-files",
		"cline/tool_call-read_files.json":                  "hookshim/secret-files",
		"cline/PreToolUse-read_files.json":                 "hookshim/secret-files",
		"cline/PreToolUse-apply_patch.json":                "hookshim/secret-files",
		"copilot-cli/preToolUse-apply_patch.json":          "hookshim/secret-files",
		"factory-droid/PreToolUse-patch-many.json":         "hookshim/secret-files",
		"kiro/preToolUse-read-many-cli.json":               "hookshim/secret-files",
		"claude-code/PreToolUse-duplicate.json":            "hookshim/secret-files",
		"copilot-cli/preToolUse-stringargs-duplicate.json": "hookshim/destructive-shell",
		"claude-code/PreToolUse-powershell.json":           "hookshim/destructive-shell",
		"copilot-cli/preToolUse-powershell.json":           "hookshim/destructive-shell",
		"vscode-copilot/PreToolUse-apply_patch.json":       "",
		"claude-code/PreToolUse-multiedit.json":            "",
	}
	seen := 0
	for _, s := range hookshim.Samples() {
		name := s.Provider.ID + "/" + s.Name
		deniedBy, ok := want[name]
		if !ok {
			continue
		}
		seen++
		t.Run(name, func(t *testing.T) {
			p := provider.NewPayload(s.Raw, func(string) string { return "" })
			ev := normalize.Event(s.Provider, s.Provider.Spec(s.Event), p)
			for _, n := range policy.Names() {
				pol, err := policy.Compile(n, nil)
				require.NoError(t, err)
				out := pol.Eval(ev)
				if n == deniedBy {
					assert.Equal(t, decision.Deny, out.Decision, "%s: %s", n, out.Reason)
				} else if n == "hookshim/secret-files" || n == "hookshim/destructive-shell" {
					assert.True(t, out.Empty(), "%s: %v %s", n, out.Decision, out.Reason)
				}
			}
		})
	}
	assert.Equal(t, len(want), seen, "a fixture named here is missing")
}
