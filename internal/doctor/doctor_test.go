package doctor

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/install"
	"github.com/hookshim/hookshim/internal/journal"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/seen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A hookshim registrations find in PATH must be in this PATH.
func TestCheckBinInPath(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake hookshim is a shell script")
	}
	t.Setenv("PATH", t.TempDir())
	r := &Report{}
	checkBin(r, install.Env{Bin: "hookshim"}, "v1")
	require.Len(t, r.Problems, 1)
	require.Equal(t, "hookshim is not in PATH here: a tool started from this shell cannot run it", r.Problems[0].Message)

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "hookshim"), []byte("#!/bin/sh\necho hookshim v1\n"), 0o755))
	t.Setenv("PATH", dir)
	r = &Report{}
	checkBin(r, install.Env{Bin: "hookshim"}, "v1")
	require.Empty(t, r.Problems)
}

// A hookshim named by path: it exists, can run, and is this version.
func TestCheckBinByPath(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake hookshim is a shell script")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "hookshim")
	message := func() string {
		r := &Report{}
		checkBin(r, install.Env{Bin: bin}, "v2")
		if len(r.Problems) == 0 {
			return ""
		}
		require.Len(t, r.Problems, 1)
		require.Equal(t, "binary", r.Problems[0].Area)
		return r.Problems[0].Message
	}
	assert.Equal(t, bin+" does not exist", message())
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\necho hookshim v1\n"), 0o644))
	assert.Equal(t, bin+" is not an executable file", message())
	require.NoError(t, os.Chmod(bin, 0o755))
	assert.Equal(t, bin+` is "hookshim v1", this is "hookshim v2"`, message())
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\necho hookshim v2\necho '  commit: x'\n"), 0o755))
	assert.Equal(t, "", message())
}

func TestCheckHandlers(t *testing.T) {
	dir := t.TempDir()
	f, err := config.Parse(filepath.Join(dir, ".openhook.json"), []byte(`{"spec": "hooks/0.1", "hooks": [
  {"name": "gone", "event": "before_tool_execute", "handler": {"type": "command", "command": "./hooks/gone.sh"}},
  {"name": "model", "event": "before_model", "handler": {"type": "command", "command": "true", "dialect": "claude-code"}}
]}`))
	require.NoError(t, err)
	f.Dir = dir
	got := CheckHandlers(f, dir)
	require.Len(t, got, 2)
	assert.Equal(t, config.Missing, got[0].Kind)
	assert.Equal(t, "dialect", got[1].Kind)
	assert.Equal(t, ".openhook.json:3", got[1].Pos, "shown relative to the folder given")
}

// An http or prompt handler's header that expands a variable
// "allowed_env_vars" does not name is sent empty at every call: doctor
// names the file, the handler, the header and the variable, with the
// fix, before the first call does.
func TestCheckHandlersHeaders(t *testing.T) {
	dir := t.TempDir()
	f, err := config.Parse(filepath.Join(dir, ".openhook.json"), []byte(`{"spec": "hooks/0.1", "hooks": [
  {"name": "opa", "event": "before_tool_execute", "handler": {"type": "http", "url": "https://policy.example/v1",
   "headers": {"Authorization": "Bearer ${OPA_TOKEN}", "X-User": "$USER-$USER", "X-Team": "$TEAM"},
   "allowed_env_vars": ["TEAM"]}},
  {"name": "judge", "event": "before_tool_execute", "handler": {"type": "prompt", "prompt": "judge $ARGUMENTS",
   "base_url": "https://llm.example/v1", "headers": {"X-Key": "$1"}}},
  {"name": "listed", "event": "before_tool_execute", "handler": {"type": "http", "url": "https://policy.example/v1",
   "headers": {"Authorization": "Bearer $TOKEN", "Accept": "application/json"}, "allowed_env_vars": ["TOKEN"]}}
]}`))
	require.NoError(t, err)
	f.Dir = dir
	var got []string
	for _, p := range CheckHandlers(f, dir) {
		if p.Kind == config.Unlisted {
			got = append(got, p.String())
		}
	}
	assert.Equal(t, []string{
		`.openhook.json:2: hook "opa": header Authorization: $OPA_TOKEN is not in "allowed_env_vars": every call sends it empty; fix: add "OPA_TOKEN" to the handler's "allowed_env_vars"`,
		`.openhook.json:2: hook "opa": header X-User: $USER is not in "allowed_env_vars": every call sends it empty; fix: add "USER" to the handler's "allowed_env_vars"`,
		`.openhook.json:5: hook "judge": header X-Key: $1 is not in "allowed_env_vars": every call sends it empty; fix: remove $1 from the header: "allowed_env_vars" names only variables (letters, digits and "_")`,
	}, got)
}

func TestDisplayPath(t *testing.T) {
	assert.Equal(t, filepath.Join("a", "b"), displayPath("/p", "/p/a/b"))
	assert.Equal(t, "/q/a", displayPath("/p", "/q/a"))
	assert.Equal(t, "/p/a", displayPath("", "/p/a"))
}

// No tool registered, no config: two problems, each with its fix; and
// HOOKSHIM_DISABLE is one more.
func TestCheckNothingThere(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake hookshim is a shell script")
	}
	root := t.TempDir()
	bin := filepath.Join(root, "hookshim")
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\necho hookshim v1\n"), 0o755))
	vars := map[string]string{"HOME": filepath.Join(root, "home"), "XDG_STATE_HOME": filepath.Join(root, "state"), "HOOKSHIM_DISABLE": "1"}
	getenv := func(k string) string { return vars[k] }
	project := filepath.Join(root, "project")
	require.NoError(t, os.MkdirAll(project, 0o755))
	extends := 0
	r := Check(Options{Env: install.Env{Getenv: getenv, Home: vars["HOME"], Project: project, Bin: bin}, Getenv: getenv,
		Start: project, Cwd: project, Version: "v1", Extends: func(*Report, []config.Found) { extends++ }})
	require.False(t, r.OK)
	var areas []string
	for _, p := range r.Problems {
		areas = append(areas, p.Area)
		assert.NotEmpty(t, p.Fix, p.Message)
	}
	assert.Equal(t, []string{"registration", "config", "environment"}, areas)
	assert.Equal(t, 0, extends, "no config: nothing extends anything")
	require.NotNil(t, r.Log)
	assert.Equal(t, 0, r.Log.Calls)
}

// A config found: Extends sees it, its trust and hooks are reported.
func TestCheckConfigs(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, ".openhook.json"), []byte(`{"spec": "hooks/0.1", "hooks": [
  {"name": "ok", "event": "before_tool_execute", "handler": {"type": "command", "command": "true"}}]}`), 0o644))
	vars := map[string]string{"HOME": filepath.Join(root, "home"), "XDG_STATE_HOME": filepath.Join(root, "state"), "HOOKSHIM_TRUST_ALL": "1"}
	getenv := func(k string) string { return vars[k] }
	var seen []string
	r := &Report{}
	checkConfigs(r, Options{Getenv: getenv, Start: root, Cwd: root, Extends: func(r *Report, found []config.Found) {
		for _, f := range found {
			seen = append(seen, f.Path)
		}
		r.Add(Problem{Area: "extends", Message: "m", Fix: "f"})
	}})
	assert.Equal(t, []string{filepath.Join(root, ".openhook.json")}, seen)
	assert.Equal(t, []ConfigReport{{Path: filepath.Join(root, ".openhook.json"), Discovered: true, Trust: "HOOKSHIM_TRUST_ALL=1", Hooks: 1}}, r.Configs)
	require.Len(t, r.Problems, 1)
	assert.Equal(t, "extends", r.Problems[0].Area)

	delete(vars, "HOOKSHIM_TRUST_ALL")
	r = &Report{}
	checkConfigs(r, Options{Getenv: getenv, Start: root, Cwd: root})
	require.Len(t, r.Problems, 1)
	assert.Equal(t, ".openhook.json is not allowed: its hooks do not run", r.Problems[0].Message)
	assert.Empty(t, HandlerNotes(getenv, root))
	require.NoError(t, os.WriteFile(filepath.Join(root, ".openhook.json"), []byte(`{"spec": "hooks/0.1", "hooks": [
  {"name": "gone", "event": "before_tool_execute", "handler": {"type": "command", "command": "./gone.sh"}}]}`), 0o644))
	notes := HandlerNotes(getenv, root)
	require.Len(t, notes, 1)
	assert.Contains(t, notes[0], `hook "gone": `)
	assert.Contains(t, notes[0], "gone.sh")
}

func TestStats(t *testing.T) {
	var runs []journal.Run
	for i := 1; i <= 20; i++ {
		runs = append(runs, journal.Run{Name: "h", Pos: "c:1", MS: float64(i * 50)})
	}
	runs[0].Error = "boom"
	s := statsOf(runs)
	assert.Equal(t, HandlerStats{Name: "h", Pos: "c:1", Runs: 20, Failures: 1, P50: 500, P95: 950, Max: 1000, Slow: true}, s)
	assert.False(t, statsOf(runs[:5]).Slow, "p95 250ms")
	assert.Equal(t, 7.0, percentile([]float64{7}, 95))
}

// What a tool sends that this version does not know is drift; what its
// table or its samples know is not.
func TestDriftOf(t *testing.T) {
	known := knownPayloads()
	e := &journal.Entry{Provider: "claude-code", Version: "9.9", Native: "PreToolUse", NativeTool: "Bash",
		Keys: []string{"session_id", "tool_input", "brand_new_field"}}
	assert.Equal(t, []Drift{{Provider: "claude-code", Version: "9.9", Kind: "field", Name: "brand_new_field"}}, driftOf(e, known))
	e = &journal.Entry{Provider: "claude-code", Native: "SomethingNew", NativeTool: "Teleport", Tool: "Teleport"}
	assert.Equal(t, []Drift{{Provider: "claude-code", Kind: "event", Name: "SomethingNew"}, {Provider: "claude-code", Kind: "tool", Name: "Teleport"}}, driftOf(e, known))
	e = &journal.Entry{Provider: "claude-code", Native: "PreToolUse", NativeTool: "mcp__x__y", Tool: "mcp__x__y"}
	assert.Empty(t, driftOf(e, known), "MCP tools are named by their server")
	assert.Empty(t, driftOf(&journal.Entry{Provider: "nosuch", Native: "X"}, known))
}

// checkLog counts the calls, the drift and the handlers' runs, and the
// registered events that never fired.
func TestCheckLog(t *testing.T) {
	state := t.TempDir()
	getenv := func(k string) string { return map[string]string{"XDG_STATE_HOME": state}[k] }
	path, err := journal.ReadPath("", getenv)
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, e := range []journal.Entry{
		{ID: "a", Time: at, Provider: "claude-code", Native: "PreToolUse", Keys: []string{"new_key"}, Runs: []journal.Run{{Name: "h", Pos: "c:1", MS: 900}}},
		{ID: "b", Time: at.Add(time.Minute), Provider: "claude-code", Native: "PreToolUse", Keys: []string{"new_key"}, Runs: []journal.Run{{Name: "h", Pos: "c:1", MS: 800}, {Name: "bg", Async: true}}},
	} {
		require.NoError(t, journal.Append(path, journal.Encode(&e, nil), 1<<20, true))
	}
	r := &Report{Registrations: []Registration{{Provider: "claude-code", Events: []string{"PreToolUse", "Stop"}, Calls: map[string]time.Time{}}}}
	checkLog(r, getenv)
	require.Empty(t, r.Log.Error)
	assert.Equal(t, 2, r.Log.Calls)
	assert.True(t, r.Log.Since.Equal(at), "the oldest record read")
	require.Len(t, r.Log.Drift, 1)
	assert.Equal(t, 2, r.Log.Drift[0].Calls)
	assert.True(t, r.Log.Drift[0].Last.Equal(at.Add(time.Minute)), "the newest call")
	require.Len(t, r.Log.Handlers, 1, "background runs are not timed")
	assert.True(t, r.Log.Handlers[0].Slow)
	assert.Equal(t, []string{"Stop"}, r.Registrations[0].NeverFired)
}

// A registration that never called is a problem, with the way to make
// the tool call; once it has, its last call is reported, per event.
func TestCheckRegistrations(t *testing.T) {
	root := t.TempDir()
	home, project := filepath.Join(root, "home"), filepath.Join(root, "project")
	require.NoError(t, os.MkdirAll(home, 0o755))
	require.NoError(t, os.MkdirAll(project, 0o755))
	vars := map[string]string{"HOME": home, "XDG_STATE_HOME": filepath.Join(root, "state")}
	getenv := func(k string) string { return vars[k] }
	env := install.Env{Getenv: getenv, Home: home, Project: project, Bin: "hookshim", Now: time.Now}
	p := provider.Lookup("claude-code")
	events, err := install.Events(p, nil)
	require.NoError(t, err)
	j := &install.Job{Provider: p, Target: install.Target(p, provider.ScopeProject), Events: events}
	j.Plan(env)
	j.Apply(env)
	require.NoError(t, j.Err)

	r := &Report{}
	checkRegistrations(r, env, getenv)
	require.Len(t, r.Registrations, 1)
	rg := r.Registrations[0]
	assert.Equal(t, "claude-code", rg.Provider)
	assert.Equal(t, "current", rg.State)
	assert.Nil(t, rg.LastCall)
	require.Len(t, r.Problems, 1)
	assert.Equal(t, "calls", r.Problems[0].Area)
	assert.Contains(t, r.Problems[0].Fix, "start a new Claude Code session")

	require.NoError(t, seen.Mark(seen.Dir(getenv), "claude-code", "PreToolUse"))
	r = &Report{}
	checkRegistrations(r, env, getenv)
	assert.Empty(t, r.Problems)
	require.NotNil(t, r.Registrations[0].LastCall)
	assert.Contains(t, r.Registrations[0].Calls, "PreToolUse")
	assert.Equal(t, " --scope user", scopeArg(provider.Target{Scope: provider.ScopeUser}))
}
