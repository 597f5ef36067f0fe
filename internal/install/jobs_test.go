package install

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestIDs(t *testing.T) {
	ids := IDs()
	require.Contains(t, ids, "claude-code")
	for _, id := range ids {
		require.NotNil(t, provider.Lookup(id).Install, id)
	}
}

func TestTargetFor(t *testing.T) {
	claude := provider.Lookup("claude-code")
	tg, err := TargetFor(claude, "")
	require.NoError(t, err)
	assert.Equal(t, provider.ScopeProject, tg.Scope, "project where the tool has project hooks")
	tg, err = TargetFor(claude, "user")
	require.NoError(t, err)
	assert.Equal(t, provider.ScopeUser, tg.Scope)
	for _, p := range provider.All {
		if p.Install == nil || len(p.Install.Targets) != 1 {
			continue
		}
		only := p.Install.Targets[0].Scope
		other := provider.ScopeProject
		if only == provider.ScopeProject {
			other = provider.ScopeUser
		}
		_, err := TargetFor(p, string(other))
		var se *ScopeError
		require.ErrorAs(t, err, &se, p.ID)
		assert.Equal(t, ScopeError{Scope: string(other), Other: string(only)}, *se)
		assert.Equal(t, "no "+string(other)+"-level hook config", err.Error())
		return
	}
	t.Fatal("no tool with a single scope")
}

// emptyEnv is a machine with a home and a project, both empty.
func emptyEnv(t *testing.T) Env {
	root := t.TempDir()
	home, proj := filepath.Join(root, "home"), filepath.Join(root, "proj")
	require.NoError(t, os.MkdirAll(home, 0o755))
	require.NoError(t, os.MkdirAll(proj, 0o755))
	vars := map[string]string{"HOME": home}
	return Env{Getenv: func(k string) string { return vars[k] }, Home: home, Project: proj, Now: time.Now}
}

// A tool whose folder is in the project is found; on an empty machine
// nothing is.
func TestFound(t *testing.T) {
	env := emptyEnv(t)
	require.Empty(t, Found(env))
	require.NoError(t, os.MkdirAll(filepath.Join(env.Project, ".claude"), 0o755))
	var ids []string
	for _, p := range Found(env) {
		ids = append(ids, p.ID)
	}
	require.Contains(t, ids, "claude-code")
}

// A job plans, applies and says where it wrote.
func TestJob(t *testing.T) {
	env := emptyEnv(t)
	p := provider.Lookup("claude-code")
	tg, err := TargetFor(p, "project")
	require.NoError(t, err)
	events, err := Events(p, nil)
	require.NoError(t, err)
	j := &Job{Provider: p, Target: tg, Events: events}
	require.True(t, j.Ready())
	j.Plan(env)
	require.NoError(t, j.Err)
	require.NotEmpty(t, j.Changes)
	j.Apply(env)
	require.NoError(t, j.Err)
	require.Len(t, j.Applied, 1)
	want, _ := env.Path(*tg)
	assert.Equal(t, want, j.Path(env))
	_, err = os.Stat(want)
	require.NoError(t, err)
	j.Plan(env)
	assert.True(t, j.Reg.Current(), "planned again: nothing to change")
	assert.False(t, (&Job{Provider: p}).Ready(), "no target")
	assert.False(t, (&Job{Provider: p, Target: tg, Skip: "x"}).Ready())
}

// Of two tools where one runs the other's registrations, only one is
// registered: the one whose file serves both (OneWay) always wins. Every
// such pair of the registry is checked (Devin CLI and Grok Build run
// Claude Code's project entries, Grok Build Cursor's).
func TestPickOnce(t *testing.T) {
	env := emptyEnv(t)
	pairs := 0
	for _, a := range provider.All {
		if a.Install == nil {
			continue
		}
		for _, b := range a.Install.AlsoRunBy {
			if b.Install == nil {
				continue
			}
			for _, scope := range []provider.Scope{provider.ScopeProject, provider.ScopeUser} {
				ta, tb := Target(a, scope), Target(b, scope)
				if ta == nil || tb == nil || a.Install.OneWay == nil || !slices.Contains(a.Install.OneWay, scope) {
					continue
				}
				ja, jb := &Job{Provider: a, Target: ta}, &Job{Provider: b, Target: tb}
				PickOnce(env, []*Job{jb, ja})
				assert.Empty(t, ja.Skip, a.ID)
				assert.Contains(t, jb.Skip, "hookshim goes into "+a.ID+" ", b.ID)
				pairs++
			}
		}
	}
	if pairs == 0 {
		t.Skip("no one-way pair of tools in the registry")
	}
	for _, pair := range [][2]string{{"claude-code", "grok"}, {"cursor", "grok"}, {"claude-code", "devin-cli"}} {
		a := provider.Lookup(pair[0])
		require.Contains(t, a.Install.AlsoRunBy, provider.Lookup(pair[1]), "%s runs %s's project entries", pair[1], pair[0])
	}
}

// A project that uses Kiro or Windsurf before it has hooks (.kiro/steering,
// .windsurfrules) is found by --all, as is an editor known only by its
// data folder.
func TestFoundByMarks(t *testing.T) {
	for _, tc := range []struct {
		id, path string
		home     bool
	}{
		{"kiro", ".kiro/steering/product.md", false},
		{"windsurf", ".windsurfrules", false},
		{"windsurf", ".windsurf/rules/style.md", false},
		{"kiro", ".config/Kiro/User/settings.json", true},
		{"windsurf", "Library/Application Support/Windsurf/User/settings.json", true},
	} {
		t.Run(tc.path, func(t *testing.T) {
			env := Env{Home: t.TempDir(), Project: t.TempDir(), Getenv: func(string) string { return "" }}
			base := env.Project
			if tc.home {
				base = env.Home
			}
			path := filepath.Join(base, filepath.FromSlash(tc.path))
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			require.NoError(t, os.WriteFile(path, nil, 0o644))
			var ids []string
			for _, p := range Found(env) {
				ids = append(ids, p.ID)
			}
			require.Contains(t, ids, tc.id)
		})
	}
}

// The home folder is recognised through a symbolic link to it, and a
// project below it is not the home folder.
func TestInHome(t *testing.T) {
	home := t.TempDir()
	link := filepath.Join(t.TempDir(), "home")
	require.NoError(t, os.Symlink(home, link))
	require.NoError(t, os.Mkdir(filepath.Join(home, "project"), 0o755))
	for _, tc := range []struct {
		home, project string
		want          bool
	}{
		{home, home, true},
		{home, link, true},
		{link, home + "/", true},
		{home, filepath.Join(home, "project"), false},
		{home, "", false},
		{"", home, false},
		{filepath.Join(home, "gone"), filepath.Join(home, "gone", "."), true},
	} {
		assert.Equal(t, tc.want, Env{Home: tc.home, Project: tc.project}.InHome(), "home %s, project %s", tc.home, tc.project)
	}
}
