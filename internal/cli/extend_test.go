package cli

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// extendIn runs hookshim extend --config cfg arg with dir as the
// extending file's folder and the state kept under dir.
func extendIn(t *testing.T, dir, cfg, arg string) (int, string, string) {
	t.Helper()
	env := map[string]string{"HOME": dir, "XDG_STATE_HOME": filepath.Join(dir, ".state"), "XDG_CACHE_HOME": filepath.Join(dir, ".cache")}
	var stdout, stderr bytes.Buffer
	code := cmdExtend([]string{"--config", cfg, arg}, nil, &stdout, &stderr, func(k string) string { return env[k] })
	return code, stdout.String(), stderr.String()
}

// extend edits the config as install edits the tools' files: comments,
// trailing commas, key order and layout stay; "extends" goes before
// "hooks" when there is none.
func TestExtendKeepsTheFile(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"commented list with a trailing comma",
			"{\n  // the team's rules first\n  \"spec\": \"hooks/0.1\",\n  \"extends\": [\"a.json\", /* the old one */ ],\n  \"hooks\": [], // none yet\n}\n",
			"{\n  // the team's rules first\n  \"spec\": \"hooks/0.1\",\n  \"extends\": [\"a.json\", {\"path\": \"b.json\"}, /* the old one */ ],\n  \"hooks\": [], // none yet\n}\n"},
		{"one entry a line",
			"{\n  \"spec\": \"hooks/0.1\",\n  \"extends\": [\n    \"a.json\", // shared\n  ],\n  \"hooks\": []\n}\n",
			"{\n  \"spec\": \"hooks/0.1\",\n  \"extends\": [\n    \"a.json\", // shared\n    {\n      \"path\": \"b.json\"\n    },\n  ],\n  \"hooks\": []\n}\n"},
		{"no extends yet: before hooks",
			"{\n\t\"spec\": \"hooks/0.1\",\n\t// ours\n\t\"hooks\": []\n}\n",
			"{\n\t\"spec\": \"hooks/0.1\",\n\t\"extends\": [\n\t\t{\n\t\t\t\"path\": \"b.json\"\n\t\t}\n\t],\n\t// ours\n\t\"hooks\": []\n}\n"},
		{"no extends yet, one line",
			`{"spec": "hooks/0.1", "hooks": []}`,
			`{"spec": "hooks/0.1", "extends": [{"path": "b.json"}], "hooks": []}`},
		{"no extends, no hooks",
			`{"spec":"hooks/0.1"}`,
			`{"spec":"hooks/0.1","extends":[{"path":"b.json"}]}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, n := range []string{"a.json", "b.json"} {
				require.NoError(t, os.WriteFile(filepath.Join(dir, n), []byte(`{"spec": "hooks/0.1", "hooks": [{"event": "session_start", "handler": {"command": "true"}}]}`), 0o644))
			}
			cfg := filepath.Join(dir, ".openhook.json")
			require.NoError(t, os.WriteFile(cfg, []byte(c.in), 0o644))
			code, stdout, stderr := extendIn(t, dir, cfg, filepath.Join(dir, "b.json"))
			require.Equal(t, 0, code, stderr)
			require.Contains(t, stdout, "extends b.json (1 hook)")
			got, err := os.ReadFile(cfg)
			require.NoError(t, err)
			require.Equal(t, c.want, string(got))

			// Again: nothing changes.
			code, stdout, _ = extendIn(t, dir, cfg, filepath.Join(dir, "b.json"))
			require.Equal(t, 0, code)
			require.Contains(t, stdout, "already extends b.json")
			again, err := os.ReadFile(cfg)
			require.NoError(t, err)
			require.Equal(t, string(got), string(again))
		})
	}
}

// A config linked from a dotfiles repository is edited there: the link
// stays a link, the file it names keeps its comments and its mode. (A
// path in it is relative to the link's folder, where hookshim reads the
// config from.)
func TestExtendThroughLink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need a privilege there")
	}
	dir := t.TempDir()
	dots := filepath.Join(dir, "dotfiles")
	require.NoError(t, os.Mkdir(dots, 0o755))
	real := filepath.Join(dots, "openhook.json")
	require.NoError(t, os.WriteFile(real, []byte("{\n  \"spec\": \"hooks/0.1\", // mine\n  \"hooks\": [],\n}\n"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "base.json"), []byte(`{"spec": "hooks/0.1", "hooks": [{"event": "session_start", "handler": {"command": "true"}}]}`), 0o644))
	cfg := filepath.Join(dir, ".openhook.json")
	require.NoError(t, os.Symlink("dotfiles/openhook.json", cfg))

	code, _, stderr := extendIn(t, dir, cfg, filepath.Join(dir, "base.json"))
	require.Equal(t, 0, code, stderr)
	st, err := os.Lstat(cfg)
	require.NoError(t, err)
	require.NotZero(t, st.Mode()&fs.ModeSymlink, "the config is still a link")
	got, err := os.ReadFile(real)
	require.NoError(t, err)
	require.Equal(t, "{\n  \"spec\": \"hooks/0.1\", // mine\n  \"extends\": [\n    {\n      \"path\": \"base.json\"\n    }\n  ],\n  \"hooks\": [],\n}\n", string(got))
	st, err = os.Stat(real)
	require.NoError(t, err)
	require.Equal(t, fs.FileMode(0o600), st.Mode().Perm())
}

// A config that does not parse is left as it was, and the error says
// where it stops.
func TestExtendRefusesBroken(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b.json"), []byte(`{"spec": "hooks/0.1", "hooks": [{"event": "session_start", "handler": {"command": "true"}}]}`), 0o644))
	cfg := filepath.Join(dir, ".openhook.json")
	broken := "{\n  \"spec\": \"hooks/0.1\",\n  \"hooks\": [\n}\n"
	require.NoError(t, os.WriteFile(cfg, []byte(broken), 0o644))
	code, _, stderr := extendIn(t, dir, cfg, filepath.Join(dir, "b.json"))
	require.Equal(t, 1, code)
	require.Regexp(t, `^hookshim: error: .*\.openhook\.json:4:1: .*; it is left as it was\n$`, stderr)
	got, err := os.ReadFile(cfg)
	require.NoError(t, err)
	require.Equal(t, broken, string(got))
}

// A new config starts as a config with the entry.
func TestExtendNewConfig(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b.json"), []byte(`{"spec": "hooks/0.1", "hooks": [{"event": "session_start", "handler": {"command": "true"}}]}`), 0o644))
	cfg := filepath.Join(dir, "sub", ".openhook.json")
	code, stdout, stderr := extendIn(t, dir, cfg, filepath.Join(dir, "b.json"))
	require.Equal(t, 0, code, stderr)
	require.NotContains(t, stdout, "previous version")
	got, err := os.ReadFile(cfg)
	require.NoError(t, err)
	require.Equal(t, "{\n  \"spec\": \"hooks/0.1\",\n  \"extends\": [\n    {\n      \"path\": \"../b.json\"\n    }\n  ]\n}\n", string(got))
}
