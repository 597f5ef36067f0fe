package provider_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	hookshim "github.com/hookshim/hookshim"
	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/detect"
	"github.com/hookshim/hookshim/internal/normalize"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/respond"
	"github.com/hookshim/hookshim/internal/run"
	"github.com/tidwall/gjson"
)

// TestClaudeCodexNeverConfused: a Claude Code payload is never taken for
// Codex and a Codex payload never for Claude Code, without a hint and with
// the other tool's --provider (Codex runs Claude-format plugin hooks, so a
// command written for one can be run by the other).
func TestClaudeCodexNeverConfused(t *testing.T) {
	other := map[string]string{"claude-code": "codex", "codex": "claude-code"}
	n := 0
	for _, s := range hookshim.Samples() {
		hint, ok := other[s.Provider.ID]
		if !ok {
			continue
		}
		p := provider.Payload{Raw: s.Raw, Env: func(string) string { return "" }}
		for _, h := range []string{"", hint} {
			det := detect.Detect(p, h)
			if det.Provider == nil || det.Provider.ID != s.Provider.ID {
				got := "unknown"
				if det.Provider != nil {
					got = det.Provider.ID
				}
				t.Errorf("%s/%s with --provider %q detected as %s:\n%s", s.Provider.ID, s.Name, h, got, det.Explain())
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("no claude-code or codex fixtures")
	}
}

// answers is a spread of merged handler answers: every single answer and
// the pairs that end up in one native reply.
func answers() [][]decision.Output {
	f := false
	one := []decision.Output{
		{Decision: decision.Allow},
		{Decision: decision.Deny, Reason: "no"},
		{Decision: decision.Deny},
		{Decision: decision.Ask, Reason: "sure?"},
		{Context: "ctx"},
		{UpdatedInput: []byte(`{"command":"echo safe"}`)},
		{Decision: decision.Allow, UpdatedInput: []byte(`{"command":"echo safe"}`)},
		{Decision: decision.Ask, UpdatedInput: []byte(`{"command":"echo safe"}`)},
		{Continue: &f, Reason: "stop now"},
		{Continue: &f},
		{SystemMessage: "note"},
		{SuppressOutput: true},
	}
	out := [][]decision.Output{{}}
	for i := range one {
		out = append(out, []decision.Output{one[i]})
		for j := i + 1; j < len(one); j++ {
			out = append(out, []decision.Output{one[i], one[j]})
		}
	}
	return out
}

// encodeAll answers every event of pr with every spread answer.
func encodeAll(t *testing.T, pr *provider.Provider, check func(spec *provider.Spec, outs []decision.Output, ans provider.Answer)) {
	t.Helper()
	for i := range pr.Events {
		spec := &pr.Events[i]
		for _, outs := range answers() {
			var results []run.Result
			for k, o := range outs {
				o.Handler = fmt.Sprintf("h%d", k)
				results = append(results, run.Result{Hook: &config.Hook{Name: o.Handler}, Output: o})
			}
			v := respond.Verdict(spec, results, "allow")
			check(spec, outs, respond.Encode(pr, spec, v))
		}
	}
}

func keysOf(t *testing.T, o gjson.Result) []string {
	t.Helper()
	var keys []string
	o.ForEach(func(k, _ gjson.Result) bool { keys = append(keys, k.Str); return true })
	return keys
}

func subset(keys, allowed []string) string {
	for _, k := range keys {
		if !slices.Contains(allowed, k) {
			return k
		}
	}
	return ""
}

// codexShape is what Codex 0.169.0 accepts from a command hook on one event:
// the fields of its output struct (serde deny_unknown_fields) and of
// hookSpecificOutput; nil hso means the event has none. Taken from the
// schemas the 0.169.0 binary embeds (<event>.command.output.schema.json).
type codexShape struct {
	top, hso []string
}

var universal = []string{"continue", "stopReason", "suppressOutput", "systemMessage"}

var codexShapes = map[string]codexShape{
	"PreToolUse": {append([]string{"decision", "reason", "hookSpecificOutput"}, universal...),
		[]string{"hookEventName", "permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"}},
	"PermissionRequest": {append([]string{"hookSpecificOutput"}, universal...),
		[]string{"hookEventName", "decision"}},
	"PostToolUse": {append([]string{"decision", "reason", "hookSpecificOutput"}, universal...),
		[]string{"hookEventName", "additionalContext", "updatedMCPToolOutput"}},
	"SessionStart":     {append([]string{"hookSpecificOutput"}, universal...), []string{"hookEventName", "additionalContext"}},
	"SubagentStart":    {append([]string{"hookSpecificOutput"}, universal...), []string{"hookEventName", "additionalContext"}},
	"UserPromptSubmit": {append([]string{"decision", "reason", "hookSpecificOutput"}, universal...), []string{"hookEventName", "additionalContext"}},
	"Stop":             {append([]string{"decision", "reason"}, universal...), nil},
	"SubagentStop":     {append([]string{"decision", "reason"}, universal...), nil},
	"PreCompact":       {universal, nil},
	"PostCompact":      {universal, nil},
	"Interrupt":        {[]string{"systemMessage"}, nil},
	// No output schema: hookshim must stay silent.
	"SessionEnd":  {nil, nil},
	"StopFailure": {nil, nil},
}

// TestCodexAnswersFitItsSchema: whatever handlers answer, hookshim never
// prints a field Codex 0.169.0 rejects, nor a value its output parser
// refuses (which would make the hook "Failed" and let the call through).
func TestCodexAnswersFitItsSchema(t *testing.T) {
	for _, spec := range provider.Codex.Events {
		if _, ok := codexShapes[spec.Native]; !ok {
			t.Errorf("no 0.169.0 output shape for Codex event %s", spec.Native)
		}
	}
	encodeAll(t, provider.Codex, func(spec *provider.Spec, outs []decision.Output, ans provider.Answer) {
		fail := func(format string, args ...any) {
			t.Helper()
			t.Errorf("%s %+v -> %q: %s", spec.Native, outs, ans.Stdout, fmt.Sprintf(format, args...))
		}
		if ans.Exit != 0 || ans.Stderr != "" {
			fail("exit %d, stderr %q: Codex ignores stdout on exit 2", ans.Exit, ans.Stderr)
		}
		if len(ans.Stdout) == 0 {
			return
		}
		shape := codexShapes[spec.Native]
		top := gjson.ParseBytes(ans.Stdout)
		if !top.IsObject() {
			fail("not an object")
			return
		}
		if k := subset(keysOf(t, top), shape.top); k != "" {
			fail("field %q is not in the %s output schema", k, spec.Native)
		}
		hso := top.Get("hookSpecificOutput")
		if hso.Exists() {
			if k := subset(keysOf(t, hso), shape.hso); k != "" {
				fail("hookSpecificOutput.%s is not in the %s output schema", k, spec.Native)
			}
			if hso.Get("hookEventName").Str != spec.Native {
				fail("hookEventName %q", hso.Get("hookEventName").Str)
			}
		}
		if d := top.Get("decision"); d.Exists() && (d.Str != "block" || top.Get("reason").Str == "") {
			fail("decision must be \"block\" with a non-empty reason")
		}
		if top.Get("reason").Exists() && !top.Get("decision").Exists() {
			fail("reason without decision")
		}
		if top.Get("suppressOutput").Exists() {
			fail("suppressOutput is unsupported")
		}
		switch spec.Native {
		case "PreToolUse", "PermissionRequest":
			if top.Get("continue").Exists() || top.Get("stopReason").Exists() {
				fail("continue/stopReason are unsupported on %s", spec.Native)
			}
		}
		if spec.Native == "PreToolUse" {
			pd := hso.Get("permissionDecision")
			switch {
			case pd.Exists() && pd.Str != "deny" && pd.Str != "allow":
				fail("permissionDecision %q", pd.Str)
			case pd.Str == "allow" && !hso.Get("updatedInput").Exists():
				fail("allow without updatedInput")
			case hso.Get("updatedInput").Exists() && pd.Str != "allow":
				fail("updatedInput without allow")
			case pd.Str == "deny" && hso.Get("permissionDecisionReason").Str == "":
				fail("deny without a reason")
			case hso.Get("permissionDecisionReason").Exists() && !pd.Exists():
				fail("permissionDecisionReason without permissionDecision")
			}
		}
		if spec.Native == "PermissionRequest" {
			d := hso.Get("decision")
			if d.Exists() {
				if k := subset(keysOf(t, d), []string{"behavior", "message"}); k != "" {
					fail("decision.%s is rejected (reserved, fails closed)", k)
				}
			}
		}
	})
}

// claudeHSO are the hookSpecificOutput variants Claude Code 2.1.330
// validates (its hook output schema), by event, with their fields.
var claudeHSO = map[string][]string{
	"PreToolUse":          {"permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext", "permissionDisplay"},
	"UserPromptSubmit":    {"additionalContext", "sessionTitle", "suppressOriginalPrompt"},
	"UserPromptExpansion": {"additionalContext", "suppressOriginalPrompt"},
	"SessionStart":        {"additionalContext", "initialUserMessage", "sessionTitle", "watchPaths", "reloadSkills"},
	"Setup":               {"additionalContext"},
	"PreModelSwitch":      {"permissionDecision", "permissionDecisionReason"},
	// 2.1.332: "allow adds nothing", deny, ask and defer keep the command
	// from running, updatedInput is "never applied" and also keeps it from
	// running (its schema's descriptions).
	"PreSkillShellCommand": {"permissionDecision", "permissionDecisionReason", "updatedInput"},
	"PostModelSwitch":      {"additionalContext"},
	"SubagentStart":        {"additionalContext"},
	"PostToolUse":          {"additionalContext", "classifierContext", "updatedToolOutput", "updatedMCPToolOutput"},
	"PostToolBatch":        {"additionalContext"},
	"PostToolUseFailure":   {"additionalContext"},
	"Stop":                 {"additionalContext"},
	"SubagentStop":         {"additionalContext"},
	"PermissionDenied":     {"retry"},
	"Notification":         {"additionalContext"},
	"PermissionRequest":    {"decision"},
	"CwdChanged":           {"watchPaths"},
	"FileChanged":          {"watchPaths"},
	"MessageDisplay":       {"displayContent"},
	"Elicitation":          {"action", "content"},
	"ElicitationResult":    {"action", "content"},
	"WorktreeCreate":       {"worktreePath"},
}

// TestClaudeAnswersFitItsSchema: hookshim's Claude Code answers use only
// the fields of Claude's hook output schema, hookSpecificOutput only where
// the event has a variant and always with hookEventName equal to the event
// (anthropics/claude-code#4669), a top-level decision only "block", and
// exit 2 only where JSON cannot block.
func TestClaudeAnswersFitItsSchema(t *testing.T) {
	topKeys := []string{"continue", "suppressOutput", "stopReason", "decision", "reason", "systemMessage", "terminalSequence", "hookSpecificOutput"}
	encodeAll(t, provider.Claude, func(spec *provider.Spec, outs []decision.Output, ans provider.Answer) {
		fail := func(format string, args ...any) {
			t.Helper()
			t.Errorf("%s %+v -> exit %d %q: %s", spec.Native, outs, ans.Exit, ans.Stdout, fmt.Sprintf(format, args...))
		}
		if ans.Exit != 0 {
			if ans.Exit != 2 || (spec.Native != "TaskCompleted" && spec.Native != "TeammateIdle") || strings.TrimSpace(ans.Stderr) == "" {
				fail("exit %d with stderr %q", ans.Exit, ans.Stderr)
			}
		}
		if len(ans.Stdout) == 0 {
			return
		}
		top := gjson.ParseBytes(ans.Stdout)
		if k := subset(keysOf(t, top), topKeys); k != "" {
			fail("unknown field %q", k)
		}
		if d := top.Get("decision"); d.Exists() && d.Str != "block" {
			fail("decision %q", d.Str)
		}
		if spec.Native == "PreToolUse" && top.Get("decision").Exists() {
			fail("PreToolUse decides in hookSpecificOutput, not the deprecated top-level decision")
		}
		if top.Get("suppressOutput").Exists() {
			fail("suppressOutput has no effect")
		}
		hso := top.Get("hookSpecificOutput")
		if !hso.Exists() {
			return
		}
		fields, ok := claudeHSO[spec.Native]
		if !ok {
			fail("%s has no hookSpecificOutput variant", spec.Native)
			return
		}
		if hso.Get("hookEventName").Str != spec.Native {
			fail("hookEventName %q", hso.Get("hookEventName").Str)
		}
		if k := subset(keysOf(t, hso), append([]string{"hookEventName"}, fields...)); k != "" {
			fail("hookSpecificOutput.%s is not in the %s variant", k, spec.Native)
		}
		if spec.Native == "PermissionRequest" {
			d := hso.Get("decision")
			allowed := []string{"behavior", "message", "interrupt"}
			if d.Get("behavior").Str == "allow" {
				allowed = []string{"behavior", "updatedInput", "updatedPermissions"}
			}
			if k := subset(keysOf(t, d), allowed); k != "" {
				fail("decision.%s does not go with behavior %q", k, d.Get("behavior").Str)
			}
		}
	})
}

func TestPatchPaths(t *testing.T) {
	patch := "*** Begin Patch\n*** Update File: a.go\n@@\n-x\n+y\n*** Move to: b.go\n*** Add File: .env\n+SECRET=1\n*** Delete File: a.go\n*** End Patch\n"
	p := provider.Payload{Raw: []byte(`{"hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":` + string(mustJSON(patch)) + `}}`)}
	ev := normalize.Event(provider.Codex, provider.Codex.Spec("PreToolUse"), p)
	if ev.Tool.FilePath != "a.go" {
		t.Errorf("file_path %q", ev.Tool.FilePath)
	}
	if got := string(ev.Get("file_paths")); got != `["a.go","b.go",".env"]` {
		t.Errorf("file_paths %s", got)
	}
}

func mustJSON(s string) []byte {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return b
}
