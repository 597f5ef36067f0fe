package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookshim/hookshim/internal/install"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/require"
)

// TestInstallDryRunWritesNothing: for every tool and scope, --dry-run
// prints the diff of the file install would write, --check fails, and
// nothing at all is written (not even a backup or a folder).
func TestInstallDryRunWritesNothing(t *testing.T) {
	for _, p := range provider.All {
		if p.Install == nil {
			continue
		}
		for _, tg := range p.Install.Targets {
			t.Run(p.ID+"/"+string(tg.Scope), func(t *testing.T) {
				root := t.TempDir()
				home, proj := filepath.Join(root, "home"), filepath.Join(root, "proj")
				require.NoError(t, os.MkdirAll(home, 0o755))
				require.NoError(t, os.MkdirAll(proj, 0o755))
				env := map[string]string{"HOME": home, "XDG_STATE_HOME": filepath.Join(root, "state")}
				getenv := func(k string) string { return env[k] }
				args := []string{"--provider", p.ID, "--scope", string(tg.Scope), "--dir", proj}
				if tg.Scope == provider.ScopeUser {
					bin := filepath.Join(root, "bin", "hookshim")
					require.NoError(t, os.MkdirAll(filepath.Dir(bin), 0o755))
					require.NoError(t, os.WriteFile(bin, nil, 0o755))
					args = append(args, "--bin", bin)
				}

				var out, errb bytes.Buffer
				code := Main(append([]string{"install", "--dry-run"}, args...), nil, &out, &errb, getenv)
				require.Equal(t, 0, code, errb.String())
				ie := install.Env{Getenv: getenv, Home: home, Project: proj}
				path, err := ie.Path(tg)
				require.NoError(t, err)
				shown := ie.Display(path)
				if !strings.HasPrefix(shown, "~/") {
					shown = "b/" + shown
				}
				if tg.Format.Layout == provider.LayoutScriptPerEvent {
					shown += "/PreToolUse" // one executable per event in the folder
				}
				require.Contains(t, out.String(), "--- /dev/null\n+++ "+shown+"\n")
				require.Contains(t, out.String(), "hookshim run --provider ")

				out.Reset()
				errb.Reset()
				code = Main(append([]string{"install", "--check"}, args...), nil, &out, &errb, getenv)
				require.Equal(t, 1, code)
				require.Contains(t, errb.String(), "hookshim: error: "+p.ID+": ")
				require.Contains(t, errb.String(), "not installed")

				for _, dir := range []string{home, proj} {
					entries, err := os.ReadDir(dir)
					require.NoError(t, err)
					require.Empty(t, entries, "a dry run wrote into %s", dir)
				}
				_, err = os.Stat(filepath.Join(root, "state"))
				require.True(t, os.IsNotExist(err))
			})
		}
	}
}

func TestInstallUsage(t *testing.T) {
	var out, errb bytes.Buffer
	getenv := func(string) string { return "" }
	require.Equal(t, 2, Main([]string{"install"}, nil, &out, &errb, getenv))
	require.Contains(t, errb.String(), "hookshim: error: install needs --provider ID or --all")
	errb.Reset()
	require.Equal(t, 2, Main([]string{"install", "--provider", "nosuch", "--bin", "/x/hookshim"}, nil, &out, &errb, getenv))
	require.Contains(t, errb.String(), `hookshim: error: unknown provider "nosuch"`)
	errb.Reset()
	notIt := filepath.Join(t.TempDir(), "not-it")
	require.NoError(t, os.WriteFile(notIt, nil, 0o755))
	require.Equal(t, 1, Main([]string{"install", "--provider", "claude", "--scope", "user", "--bin", notIt}, nil, &out, &errb, getenv))
	require.Contains(t, errb.String(), "the program must be named hookshim")
}
