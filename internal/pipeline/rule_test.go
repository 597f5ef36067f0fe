package pipeline

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hookshim/hookshim/bench/benchdata"
	"github.com/hookshim/hookshim/internal/rule"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Rules answer in the call, each in its own result, without a claim: a
// duplicate evaluates them again.
func TestRuleCall(t *testing.T) {
	getenv, project := env(t, benchdata.RuleSet)
	opts := Options{Provider: "claude-code"}
	ans, rec := Call(preToolUse(project, "cd /tmp && rm -rf /"), nil, getenv, opts)
	assert.Contains(t, string(ans.Stdout), `"permissionDecision":"deny"`)
	assert.Contains(t, string(ans.Stdout), `rm -rf / is not allowed`)
	assert.Empty(t, rec.Problems)
	require.Len(t, rec.Results, 7) // the prompt rule is not for this event
	for _, r := range rec.Results {
		assert.NoError(t, r.Err, r.Hook.Name)
		assert.Equal(t, 0, r.Exit, r.Hook.Name)
	}
	assert.Equal(t, "no-rm-rf-root", rec.Results[0].Output.Handler)
	_, err := os.Stat(filepath.Join(getenv("XDG_RUNTIME_DIR"), "hookshim", "once"))
	assert.True(t, os.IsNotExist(err), "a call of rules alone claims nothing: %v", err)

	ans, _ = Call(preToolUse(project, "echo 'rm -rf /'"), nil, getenv, opts)
	assert.Empty(t, ans.Stdout)

	ans, _ = Call(preToolUse(project, "sudo apt install x"), nil, getenv, opts)
	assert.Contains(t, string(ans.Stdout), `"permissionDecision":"ask"`)
}

// BenchmarkRules is a call of the bench's typical rule set (bench/benchdata)
// in process: the config read and its eight rules checked, six compiled and
// evaluated. In a process of its own the first call is what a hook call
// costs; here it is the steady state.
func BenchmarkRules(b *testing.B) {
	getenv, project := env(b, benchdata.RuleSet)
	raw := preToolUse(project, "cd /tmp && rm -rf /")
	opts := Options{Provider: "claude-code"}
	b.ReportAllocs()
	for b.Loop() {
		ans, _ := Call(raw, nil, getenv, opts)
		if len(ans.Stdout) == 0 {
			b.Fatal("no answer")
		}
	}
}

// Without a reason, a rule's denial and question name the rule.
func TestRuleDefaultReason(t *testing.T) {
	getenv, project := env(t, `{"spec": "hooks/0.1", "hooks": [
  {"name": "no-rm", "event": "before_tool_execute", "handler": {"type": "rule", "if": "runs('rm')", "decision": "deny"}},
  {"name": "sure", "event": "before_tool_execute", "handler": {"type": "rule", "if": "runs('mv')", "decision": "ask"}}
]}`)
	opts := Options{Provider: "claude-code"}
	ans, _ := Call(preToolUse(project, "rm x"), nil, getenv, opts)
	assert.Contains(t, string(ans.Stdout), `"permissionDecisionReason":"denied by rule no-rm"`)
	ans, _ = Call(preToolUse(project, "mv a b"), nil, getenv, opts)
	assert.Contains(t, string(ans.Stdout), `"permissionDecisionReason":"rule sure asks for confirmation"`)
}

// A rewrite sets the keys it names, a dotted key as one key, and keeps
// the others; a tool input that is not an object is replaced.
func TestMergeInput(t *testing.T) {
	e := &rule.Env{RawInput: []byte(`{"command":"ls","timeout":5}`)}
	assert.JSONEq(t, `{"command":"ls -la","timeout":5,"a.b":1,"*":true}`,
		string(mergeInput(e, []byte(`{"command":"ls -la","a.b":1,"*":true}`))))
	e = &rule.Env{RawInput: []byte(`"ls"`)}
	assert.JSONEq(t, `{"command":"pwd"}`, string(mergeInput(e, []byte(`{"command":"pwd"}`))))
}
