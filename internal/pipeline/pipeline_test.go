package pipeline

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/require"
)

// env is a process environment rooted in a temporary home, with the
// project directory dir holding config (if not "").
func env(t testing.TB, config string) (getenv func(string) string, dir string) {
	t.Helper()
	root := t.TempDir()
	dir = filepath.Join(root, "project")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	if config != "" {
		require.NoError(t, os.WriteFile(filepath.Join(dir, ".openhook.json"), []byte(config), 0o644))
	}
	vars := map[string]string{
		"HOME":               root,
		"XDG_CONFIG_HOME":    filepath.Join(root, "config"),
		"XDG_STATE_HOME":     filepath.Join(root, "state"),
		"XDG_RUNTIME_DIR":    filepath.Join(root, "run"),
		"HOOKSHIM_TRUST_ALL": "1",
	}
	return func(k string) string { return vars[k] }, dir
}

func preToolUse(dir, command string) []byte {
	return []byte(`{"session_id":"s1","transcript_path":"/h/.claude/projects/p/s1.jsonl","cwd":"` + dir +
		`","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + command + `"},"tool_use_id":"toolu_01"}`)
}

func unixOnly(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the handlers here are sh commands")
	}
}

const denyPolicy = `{"spec": "hooks/0.1", "hooks": [
  {"name": "guard", "event": "before_tool_execute", "matcher": "shell",
   "handler": {"type": "command", "command": "echo '{\"decision\":\"deny\",\"reason\":\"no\"}'"}}
]}`

// A call that runs a handler: its answer in the tool's dialect, and the
// record of each stage.
func TestCallRunsTheMatchingHandler(t *testing.T) {
	unixOnly(t)
	getenv, dir := env(t, denyPolicy)
	ans, rec := Call(preToolUse(dir, "ls"), nil, getenv, Options{Provider: "claude-code", Version: func() string { return "v1.2.3" }})
	require.Equal(t, 0, ans.Exit)
	require.Contains(t, string(ans.Stdout), `"permissionDecision":"deny","permissionDecisionReason":"no"`)
	require.Equal(t, "claude-code", rec.Provider.ID)
	require.Equal(t, "PreToolUse", rec.Native)
	require.EqualValues(t, "before_tool_execute", rec.Canonical)
	require.Equal(t, []string{filepath.Join(dir, ".openhook.json")}, rec.Configs)
	require.Equal(t, []string{"guard"}, rec.Matched)
	require.Len(t, rec.Results, 1)
	require.Equal(t, decision.Deny, rec.Verdict.Decision)
	require.Len(t, rec.Call, 36)
	require.Empty(t, rec.ReusedFrom)
	require.Empty(t, rec.Problems)
	require.Empty(t, rec.NoConfig)
}

// The same call again, as a second registration sends it: the handlers'
// answers are reused, and the record names the call they came from.
func TestDuplicateReusesTheAnswersOfTheFirstCall(t *testing.T) {
	unixOnly(t)
	getenv, dir := env(t, denyPolicy)
	first, r1 := Call(preToolUse(dir, "ls"), nil, getenv, Options{Provider: "claude-code"})
	second, r2 := Call(preToolUse(dir, "ls"), nil, getenv, Options{Provider: "claude-code"})
	require.Equal(t, first, second)
	require.NotEmpty(t, r1.Call)
	require.Equal(t, r1.Call, r2.ReusedFrom)
	require.Empty(t, r2.Call, "the duplicate ran nothing")

	// Edited since: not a duplicate.
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".openhook.json"), []byte(denyPolicy+" "), 0o644))
	_, r3 := Call(preToolUse(dir, "ls"), nil, getenv, Options{Provider: "claude-code"})
	require.Empty(t, r3.ReusedFrom)
	require.NotEmpty(t, r3.Call)
}

// A policy given in the options replaces discovery, trust and duplicate
// detection (simulate).
func TestFixedConfigs(t *testing.T) {
	unixOnly(t)
	getenv, dir := env(t, "")
	f, err := config.Parse(filepath.Join(dir, "(example)"), []byte(denyPolicy))
	require.NoError(t, err)
	opts := Options{Provider: "claude-code", Configs: []config.Found{{File: f}}}
	for i := 0; i < 2; i++ {
		ans, rec := Call(preToolUse(dir, "ls"), nil, getenv, opts)
		require.Contains(t, string(ans.Stdout), `"permissionDecision":"deny"`)
		require.Empty(t, rec.ReusedFrom, "every simulated call is its own")
		require.Empty(t, rec.NoConfig)
	}
}

// No config anywhere: no opinion, and the record says where hookshim looked.
func TestNoConfig(t *testing.T) {
	getenv, dir := env(t, "")
	ans, rec := Call(preToolUse(dir, "ls"), nil, getenv, Options{Provider: "claude-code"})
	require.Equal(t, 0, ans.Exit)
	require.Empty(t, ans.Stdout)
	want := "no config found (searched: " + filepath.Join(getenv("XDG_CONFIG_HOME"), "hookshim", "openhook.json") +
		", .openhook.json in " + dir + ", "
	require.True(t, strings.HasPrefix(rec.NoConfig, want), rec.NoConfig)
	require.True(t, strings.HasSuffix(rec.NoConfig, " and every folder above them)"), rec.NoConfig)
	require.Contains(t, rec.Notes, rec.NoConfig, "the log carries it")
	require.Empty(t, rec.Warnings(), "nothing to warn about")

	require.Equal(t, "no config found (searched: .openhook.json in /a and every folder above it)", noConfig("", []string{"/a", "/a"}))
}

// A handler that cannot start: the failure mode's answer (open), and one
// warning line with the fix, apart from hookshim's own problems.
func TestHandlerThatCannotStart(t *testing.T) {
	unixOnly(t)
	getenv, dir := env(t, `{"spec": "hooks/0.1", "hooks": [
  {"name": "x", "event": "before_tool_execute", "handler": {"type": "command", "command": "./x.sh"}}
]}`)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "x.sh"), []byte("#!/bin/sh\n"), 0o644))
	ans, rec := Call(preToolUse(dir, "ls"), nil, getenv, Options{Provider: "claude-code"})
	require.Equal(t, 0, ans.Exit)
	require.Empty(t, ans.Stdout)
	require.Empty(t, rec.Problems)
	require.Equal(t, []string{`handler "x" could not start: x.sh is not executable (hint: chmod +x x.sh)`}, rec.Warnings())
}

// hookshim's own failures answer no opinion in the tool's dialect, or block
// when fail-closed was asked for.
func TestOwnFailures(t *testing.T) {
	getenv, _ := env(t, "")
	ans, rec := Call(nil, errors.New("stdin: closed"), getenv, Options{Provider: "cursor"})
	require.Equal(t, "{}\n", string(ans.Stdout), "Cursor needs JSON even for no opinion")
	require.Equal(t, []string{"stdin: closed"}, rec.Problems)

	ans, rec = Call([]byte("[1]"), nil, getenv, Options{})
	require.Equal(t, 0, ans.Exit)
	require.Empty(t, ans.Stdout)
	require.Nil(t, rec.Provider)
	require.Equal(t, []string{"payload is JSON but not an object"}, rec.Problems)

	deny := func(k string) string {
		if k == "HOOKSHIM_ON_ERROR" {
			return "deny"
		}
		return getenv(k)
	}
	ans, rec = Call(preToolUse("/", "ls"), nil, deny, Options{Provider: "claude-code", Config: "/nonexistent/cfg.json"})
	require.Contains(t, string(ans.Stdout), `"permissionDecision":"deny","permissionDecisionReason":"hookshim failed and fails closed: config: open /nonexistent/cfg.json`)
	require.Equal(t, decision.Deny, rec.Verdict.Decision)
}

// Invalid UTF-8 reaches handlers as well-formed JSON.
func TestInvalidUTF8IsRepaired(t *testing.T) {
	unixOnly(t)
	getenv, dir := env(t, `{"spec": "hooks/0.1", "hooks": [
  {"name": "echo", "event": "before_prompt", "handler": {"type": "command", "command": "cat > seen.json"}}
]}`)
	raw := []byte("{\"session_id\":\"s\",\"transcript_path\":\"/h/.claude/projects/p/s.jsonl\",\"cwd\":\"" + dir + "\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"bad \xff byte\"}")
	ans, rec := Call(raw, nil, getenv, Options{Provider: "claude-code"})
	require.Equal(t, 0, ans.Exit)
	require.NotNil(t, rec.Event)
	require.Equal(t, "bad \uFFFD byte", *rec.Event.Prompt)
	require.Contains(t, strings.Join(rec.Notes, "\n"), "invalid UTF-8")
	seen, err := os.ReadFile(filepath.Join(dir, "seen.json"))
	require.NoError(t, err)
	require.True(t, utf8.Valid(seen), "the handler got invalid UTF-8: %q", seen)
	require.Contains(t, string(seen), "bad \uFFFD byte")
}

// A payload whose nested values are not JSON is refused before any
// handler sees it; a call that runs nothing checks only that the payload
// is one object.
func TestNestedGarbage(t *testing.T) {
	unixOnly(t)
	getenv, dir := env(t, `{"spec": "hooks/0.1", "hooks": [
  {"name": "x", "event": "before_tool_execute", "handler": {"type": "command", "command": "touch ran"}}
]}`)
	raw := []byte(`{"session_id":"s1","cwd":"` + dir + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls" "x"}}`)
	ans, rec := Call(raw, nil, getenv, Options{Provider: "claude-code"})
	require.Equal(t, 0, ans.Exit)
	require.Contains(t, rec.Problems, fmt.Sprintf("payload is not JSON (%d bytes)", len(raw)))
	require.NoFileExists(t, filepath.Join(dir, "ran"))

	_, rec = Call([]byte(`{"a": 1`), nil, getenv, Options{Provider: "claude-code"})
	require.Contains(t, rec.Problems, "payload is not JSON (7 bytes)")
	_, rec = Call([]byte(`[1, 2]`), nil, getenv, Options{Provider: "claude-code"})
	require.Contains(t, rec.Problems, "payload is JSON but not an object")
}

// The deadline leaves the tool's timeout a margin: a tenth, at least half
// a second, at most five, never more than half.
func TestDeadline(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for timeout, want := range map[time.Duration]time.Duration{
		0:                      DefaultToolTimeout - 3*time.Second,
		2 * time.Second:        1500 * time.Millisecond,
		600 * time.Millisecond: 300 * time.Millisecond,
		10 * time.Minute:       10*time.Minute - 5*time.Second,
	} {
		c := &call{opts: Options{Timeout: timeout, Started: start}, pr: &provider.Provider{}}
		require.Equal(t, start.Add(want), c.deadline(), "timeout %s", timeout)
	}
}

// An untrusted project config is skipped before it is parsed: broken, it
// neither stops the user's config nor fails the call (fail-closed
// included); the record says it was left out.
func TestUntrustedBrokenConfigIsSkipped(t *testing.T) {
	unixOnly(t)
	getenv, dir := env(t, "{ nope")
	user := filepath.Join(getenv("XDG_CONFIG_HOME"), "hookshim", "openhook.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(user), 0o755))
	require.NoError(t, os.WriteFile(user, []byte(denyPolicy), 0o644))
	vars := map[string]string{"HOOKSHIM_TRUST_ALL": "", "HOOKSHIM_ON_ERROR": "deny"}
	untrusted := func(k string) string {
		if v, ok := vars[k]; ok {
			return v
		}
		return getenv(k)
	}
	ans, rec := Call(preToolUse(dir, "rm -rf /"), nil, untrusted, Options{Provider: "claude-code"})
	require.Contains(t, string(ans.Stdout), `"permissionDecisionReason":"no"`, "the user's guard ran")
	require.Equal(t, []string{user}, rec.Configs)
	require.Empty(t, rec.Problems)
	require.Empty(t, rec.NoConfig)
	require.Contains(t, strings.Join(rec.Notes, "\n"), filepath.Join(dir, ".openhook.json")+" is not allowed: its hooks do not run")

	// Trusted (here: all), the same file is the user's policy: its error fails the call.
	vars["HOOKSHIM_TRUST_ALL"] = "1"
	ans, rec = Call(preToolUse(dir, "rm -rf /"), nil, untrusted, Options{Provider: "claude-code"})
	require.Contains(t, string(ans.Stdout), "fails closed: config: ")
	require.NotEmpty(t, rec.Problems)
}

// With HOOKSHIM_ON_ERROR=deny, a payload hookshim cannot read is denied in
// the dialect of the tool and event the flags name, for every tool: a
// payload that is empty, not JSON, not an object, or too large to read.
// (Too deep is refused only once a handler would see the payload:
// TestTooDeepBeforeHandlers.)
func TestUnreadablePayloadFailsClosedForEveryTool(t *testing.T) {
	getenv, _ := env(t, "")
	deny := func(k string) string {
		if k == "HOOKSHIM_ON_ERROR" {
			return "deny"
		}
		return getenv(k)
	}
	inputs := []struct {
		raw     string
		readErr error
	}{
		{"", nil},
		{"hello world", nil},
		{"[1,2,3]", nil},
		{"", errors.New("payload is larger than 64 MiB; not read")},
	}
	for _, pr := range provider.All {
		var spec *provider.Spec
		for i := range pr.Events {
			if pr.Events[i].Can.Has(provider.CanDeny) {
				spec = &pr.Events[i]
				break
			}
		}
		if spec == nil {
			continue
		}
		t.Run(pr.ID+"/"+spec.Native, func(t *testing.T) {
			neutral := pr.Encode(spec, &decision.Verdict{})
			for _, in := range inputs {
				ans, rec := Call([]byte(in.raw), in.readErr, deny, Options{Provider: pr.ID, Event: spec.Native})
				require.NotNil(t, rec.Verdict, "input %q", in.raw)
				require.Equal(t, decision.Deny, rec.Verdict.Decision, "input %q", in.raw)
				require.Contains(t, rec.Verdict.Reason, "hookshim failed and fails closed: ")
				want := pr.Encode(spec, rec.Verdict)
				require.Equal(t, want, ans, "input %q", in.raw)
				require.NotEqual(t, neutral, ans, "input %q: the neutral answer", in.raw)
				require.Equal(t, spec.Native, rec.Native)

				// Without --event, the way to deny is unknown: neutral.
				ans, _ = Call([]byte(in.raw), in.readErr, deny, Options{Provider: pr.ID})
				require.Equal(t, pr.Encode(nil, &decision.Verdict{}), ans, "input %q without --event", in.raw)
			}
		})
	}
}

// A payload nested past MaxDepth never reaches the JSON check, which
// recurses once per level, nor a handler: refused, and denied when the call
// fails closed. A call that runs nothing answers it as any other.
func TestTooDeepBeforeHandlers(t *testing.T) {
	unixOnly(t)
	getenv, dir := env(t, `{"spec": "hooks/0.1", "hooks": [
  {"name": "x", "event": "before_tool_execute", "handler": {"type": "command", "command": "touch ran"}}
]}`)
	raw := []byte(`{"session_id":"s1","cwd":"` + dir + `","hook_event_name":"PreToolUse","tool_name":"mcp__x__y","tool_input":{"q":` + nested(MaxDepth+1) + `}}`)
	ans, rec := Call(raw, nil, getenv, Options{Provider: "claude-code"})
	require.Equal(t, 0, ans.Exit)
	require.Contains(t, strings.Join(rec.Problems, "\n"), "more than 200000 levels deep")
	require.NoFileExists(t, filepath.Join(dir, "ran"))

	deny := func(k string) string {
		if k == "HOOKSHIM_ON_ERROR" {
			return "deny"
		}
		return getenv(k)
	}
	_, rec = Call(raw, nil, deny, Options{Provider: "claude-code"})
	require.NotNil(t, rec.Verdict)
	require.Equal(t, decision.Deny, rec.Verdict.Decision)

	noHandler, elsewhere := env(t, "")
	raw = []byte(`{"session_id":"s1","cwd":"` + elsewhere + `","hook_event_name":"PreToolUse","tool_name":"mcp__x__y","tool_input":{"q":` + nested(MaxDepth+1) + `}}`)
	ans, rec = Call(raw, nil, noHandler, Options{Provider: "claude-code"})
	require.Equal(t, 0, ans.Exit)
	require.Empty(t, rec.Problems)
}

// The deadline known before the payload is read: --timeout, else the
// --provider hint's own timeout, else the default; minus the margin.
func TestDeadlineBeforeThePayload(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	require.Equal(t, t0.Add(2500*time.Millisecond), Deadline(Options{Timeout: 3 * time.Second, Started: t0}))
	require.Equal(t, t0.Add(DefaultToolTimeout-3*time.Second), Deadline(Options{Started: t0}))
	for _, pr := range provider.All {
		if pr.Timeout > 0 {
			want := Deadline(Options{Timeout: pr.Timeout, Started: t0})
			require.Equal(t, want, Deadline(Options{Provider: pr.ID, Started: t0}), pr.ID)
		}
	}
}
