package respond

import (
	"testing"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/run"
	"github.com/stretchr/testify/require"
)

// TestDefer: a defer stands where the event can hold the call (Claude
// Code), is asked elsewhere, and denied where no one can be asked; it
// ranks between deny and ask when answers are merged.
func TestDefer(t *testing.T) {
	result := func(name string, k decision.Kind) run.Result {
		return run.Result{Hook: &config.Hook{Name: name}, Output: decision.Output{Handler: name, Decision: k}}
	}
	for _, tc := range []struct {
		provider, event string
		results         []run.Result
		want            decision.Kind
		note            string
	}{
		{"claude-code", "PreToolUse", []run.Result{result("a", decision.Defer)}, decision.Defer, ""},
		{"claude-code", "PreSkillShellCommand", []run.Result{result("a", decision.Defer)}, decision.Defer, ""},
		{"claude-code", "PreToolUse", []run.Result{result("a", decision.Ask), result("b", decision.Defer), result("c", decision.Allow)}, decision.Defer, ""},
		{"claude-code", "PreToolUse", []run.Result{result("a", decision.Defer), result("b", decision.Deny)}, decision.Deny, ""},
		// PermissionRequest has a dialog to show, not a caller to wait for.
		{"claude-code", "PermissionRequest", []run.Result{result("a", decision.Defer)}, decision.Ask, "a: defer cannot be answered here; asked instead"},
		{"cursor", "beforeShellExecution", []run.Result{result("a", decision.Defer)}, decision.Ask, "a: defer cannot be answered here; asked instead"},
		{"codex", "PreToolUse", []run.Result{result("a", decision.Defer)}, decision.Deny, "a: ask cannot be put to the user here; denied instead"},
	} {
		pr := provider.Lookup(tc.provider)
		require.NotNil(t, pr, tc.provider)
		spec := pr.Spec(tc.event)
		require.NotNil(t, spec, tc.event)
		v := Verdict(spec, tc.results, "allow")
		require.Equalf(t, tc.want, v.Decision, "%s %s: %v", tc.provider, tc.event, v.Notes)
		if tc.note != "" {
			require.Containsf(t, v.Notes, tc.note, "%s %s", tc.provider, tc.event)
		}
		require.NotEmpty(t, pr.Encode(spec, &v).Stdout)
	}
}
