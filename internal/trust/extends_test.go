package trust

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/stretchr/testify/require"
)

// An allowance covers what the config extends: the extended files by
// path, inside the project or not, and the scripts their hooks reach. A
// URL is covered by its pin, which is in the config's content.
func TestPinsExtended(t *testing.T) {
	root := t.TempDir()
	put := func(p, c string) {
		full := filepath.Join(root, p)
		require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
		require.NoError(t, os.WriteFile(full, []byte(c), 0o644))
	}
	put("p/.openhook.json", `{"spec": "hooks/0.1", "extends": ["../policies/base.json", "team/local.json", {"url": "https://example.com/t.json", "integrity": "`+config.Integrity([]byte("t"))+`"}],
  "hooks": [{"event": "before_tool_execute", "handler": {"command": "sh hooks/own.sh"}}]}`)
	put("p/hooks/own.sh", "echo\n")
	put("p/team/local.json", `{"spec": "hooks/0.1", "hooks": [{"event": "before_tool_execute", "handler": {"command": "sh ../tools/t.sh"}}]}`)
	put("p/tools/t.sh", "echo\n")
	put("policies/base.json", `{"spec": "hooks/0.1", "hooks": [{"event": "before_tool_execute", "handler": {"command": "sh hooks/team.sh"}}]}`)
	put("policies/hooks/team.sh", "echo\n")

	f, err := config.Load(filepath.Join(root, "p/.openhook.json"))
	require.NoError(t, err)
	var all []*config.Hook
	for _, p := range []string{"policies/base.json", "p/team/local.json"} {
		x, err := config.Load(filepath.Join(root, p))
		require.NoError(t, err)
		f.Extended = append(f.Extended, x)
		all = append(all, x.Hooks...)
	}
	remote, err := config.ParseRemote("https://example.com/t.json", f.Dir, []byte(`{"spec": "hooks/0.1", "hooks": [{"event": "before_tool_execute", "handler": {"command": "sh hooks/own.sh"}}]}`))
	require.NoError(t, err)
	f.Extended = append(f.Extended, remote)
	f.Hooks = append(append(all, remote.Hooks...), f.Hooks...) // as package extend leaves it

	require.Equal(t, []Pin{
		{Path: filepath.Join(root, "p/hooks"), Tree: true},
		{Path: filepath.Join(root, "p/team/local.json")},
		{Path: filepath.Join(root, "p/tools"), Tree: true},
		{Path: filepath.Join(root, "policies/base.json")},
		{Path: filepath.Join(root, "policies/hooks"), Tree: true},
	}, Pins(f))

	s := store(t)
	_, _, err = s.Allow(f)
	require.NoError(t, err)
	verify := func() State {
		v, err := s.Verify(f.Path)
		require.NoError(t, err)
		return v.State
	}
	require.Equal(t, Allowed, verify())
	for _, p := range []string{"policies/base.json", "policies/hooks/team.sh", "p/team/local.json", "p/tools/t.sh"} {
		full := filepath.Join(root, p)
		old, err := os.ReadFile(full)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(full, append(old, ' '), 0o644))
		require.Equal(t, Changed, verify(), "an edit of %s revokes the allowance", p)
		require.NoError(t, os.WriteFile(full, old, 0o644))
		require.Equal(t, Allowed, verify())
	}
}

// An extended file reached through a link: the file it points at is
// pinned too, so that editing it revokes the allowance.
func TestPinsExtendedLink(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "p"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "team.json"), []byte(`{"spec": "hooks/0.1", "hooks": [{"event": "session_start", "handler": {"command": "true"}}]}`), 0o644))
	require.NoError(t, os.Symlink("../team.json", filepath.Join(root, "p", "team.json")))
	require.NoError(t, os.WriteFile(filepath.Join(root, "p", config.FileName), []byte(`{"spec": "hooks/0.1", "extends": ["team.json"]}`), 0o644))
	f, err := config.Load(filepath.Join(root, "p", config.FileName))
	require.NoError(t, err)
	x, err := config.Load(filepath.Join(root, "p", "team.json"))
	require.NoError(t, err)
	f.Extended = []*config.File{x}
	real, err := filepath.EvalSymlinks(filepath.Join(root, "team.json"))
	require.NoError(t, err)
	require.Contains(t, Pins(f), Pin{Path: real})

	s := store(t)
	_, _, err = s.Allow(f)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(root, "team.json"), []byte(`{"spec": "hooks/0.1", "hooks": [{"command": "x"}]}`), 0o644))
	v, err := s.Verify(f.Path)
	require.NoError(t, err)
	require.Equal(t, Changed, v.State)
}
