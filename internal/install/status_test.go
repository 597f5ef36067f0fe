package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// statusOf is claude-code's status in scope.
func statusOf(t *testing.T, env Env, scope provider.Scope) Status {
	t.Helper()
	for _, s := range Statuses(env, []*provider.Provider{provider.Lookup("claude-code")}) {
		if s.Target.Scope == scope {
			return s
		}
	}
	t.Fatalf("no %s status", scope)
	return Status{}
}

func TestStatuses(t *testing.T) {
	env := emptyEnv(t)
	env.Bin = "hookshim"
	path := t.TempDir() // the project's entries run hookshim from PATH
	require.NoError(t, os.WriteFile(filepath.Join(path, "hookshim"), nil, 0o755))
	home := env.Home
	env.Getenv = func(k string) string { return map[string]string{"HOME": home, "PATH": path}[k] }
	all := Statuses(env, provider.All)
	n := 0
	for _, p := range provider.All {
		if p.Install != nil {
			n += len(p.Install.Targets)
		}
	}
	require.Len(t, all, n, "one per tool and scope install writes")
	for _, s := range all {
		assert.Contains(t, []string{"not installed", ""}, s.State, "%s %s: %v", s.Provider.ID, s.Target.Scope, s.Notes)
		assert.False(t, s.Failed)
	}

	// Registered: current, with its events.
	p := provider.Lookup("claude-code")
	events, err := Events(p, nil)
	require.NoError(t, err)
	j := &Job{Provider: p, Target: Target(p, provider.ScopeProject), Events: events}
	j.Plan(env)
	j.Apply(env)
	require.NoError(t, j.Err)
	s := statusOf(t, env, provider.ScopeProject)
	assert.Equal(t, "current", s.State)
	assert.Equal(t, events, s.Events)
	assert.Empty(t, s.Notes)

	// A file that does not parse.
	require.NoError(t, os.WriteFile(s.Path, []byte("{nope"), 0o644))
	s = statusOf(t, env, provider.ScopeProject)
	assert.Equal(t, "unreadable", s.State)
	assert.True(t, s.Failed)
	require.Len(t, s.Notes, 1)
	assert.True(t, strings.HasPrefix(s.Notes[0], "claude-code (project): "), s.Notes[0])

	// No project: no file to read.
	env.Project = ""
	s = statusOf(t, env, provider.ScopeProject)
	assert.Equal(t, "", s.Path)
	assert.Equal(t, "", s.State)
	require.Len(t, s.Notes, 1)
}

// A user registration whose binary is gone fails status: some tools
// block every call then.
func TestStatusBinaryMissing(t *testing.T) {
	env := emptyEnv(t)
	bin := filepath.Join(t.TempDir(), "hookshim")
	require.NoError(t, os.WriteFile(bin, nil, 0o755))
	env.Bin = bin
	p := provider.Lookup("claude-code")
	events, err := Events(p, nil)
	require.NoError(t, err)
	j := &Job{Provider: p, Target: Target(p, provider.ScopeUser), Events: events}
	j.Plan(env)
	j.Apply(env)
	require.NoError(t, j.Err)
	require.Equal(t, "current", statusOf(t, env, provider.ScopeUser).State)
	require.NoError(t, os.Remove(bin))
	s := statusOf(t, env, provider.ScopeUser)
	assert.Equal(t, "binary missing", s.State)
	assert.True(t, s.Failed)
	require.NotEmpty(t, s.Notes)
	assert.Contains(t, s.Notes[0], "put hookshim back there, or run hookshim install again to register this one")
}

func TestMissingFix(t *testing.T) {
	assert.Contains(t, missingFix("hookshim from PATH is not there"), "put hookshim in a folder of PATH")
	assert.Contains(t, missingFix("/x/hookshim does not exist"), "put hookshim back there")
}

func TestUnreadNote(t *testing.T) {
	p := &provider.Provider{Name: "Tool"}
	tg := provider.Target{File: "hooks.json", Format: &provider.Format{Ignored: "hooks"}}
	assert.Equal(t, `entries under "hooks" never run (a, b): Tool reads the events at the top level of hooks.json; move them there`,
		UnreadNote(p, tg, []string{"a", "b"}))
}
