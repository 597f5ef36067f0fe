package importer

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookshim/hookshim/internal/install"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the want/ sections of testdata/import/*.txtar")

const goldenDir = "../../testdata/import"

// A golden case is one txtar archive: its comment says "from ID" and
// "scope project|user"; files under project/ and home/ are the machine
// before the import; want/config is the config after it ("(none)" when
// none is written) and want/report what the import reported.
type goldenCase struct {
	from   *provider.Provider
	scope  provider.Scope
	plugin string // "plugin DIR": import the plugin in DIR (from the archive's root)
}

func parseCase(t *testing.T, a *txtar.Archive) goldenCase {
	t.Helper()
	var c goldenCase
	for _, line := range strings.Split(string(a.Comment), "\n") {
		k, v, _ := strings.Cut(strings.TrimSpace(line), " ")
		switch k {
		case "from":
			c.from = provider.Lookup(v)
			require.NotNil(t, c.from, "unknown provider %q", v)
		case "scope":
			c.scope = provider.Scope(v)
		case "plugin":
			c.plugin = v
		}
	}
	require.NotNil(t, c.from, "the archive's comment names no provider (from ID)")
	if c.scope == "" {
		c.scope = provider.ScopeProject
	}
	return c
}

// machine lays the archive's files out in a temporary project and home.
func machine(t *testing.T, a *txtar.Archive) install.Env {
	t.Helper()
	root := t.TempDir()
	env := install.Env{
		Home:    filepath.Join(root, "home"),
		Project: filepath.Join(root, "project"),
		Now:     func() time.Time { return time.Date(2026, 11, 22, 7, 0, 0, 0, time.UTC) },
	}
	vars := map[string]string{"HOME": env.Home, "XDG_STATE_HOME": filepath.Join(root, "state")}
	env.Getenv = func(k string) string { return vars[k] }
	require.NoError(t, os.MkdirAll(env.Home, 0o755))
	require.NoError(t, os.MkdirAll(env.Project, 0o755))
	for _, f := range a.Files {
		if strings.HasPrefix(f.Name, "want/") {
			continue
		}
		path := filepath.Join(root, filepath.FromSlash(f.Name))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		mode := os.FileMode(0o644)
		if strings.HasPrefix(string(f.Data), "#!") {
			mode = 0o755
		}
		require.NoError(t, os.WriteFile(path, f.Data, mode))
	}
	return env
}

// report is what a plan says, as the golden holds it.
func report(pl *Plan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "read: %s\n", strings.Join(pl.Files, ", "))
	fmt.Fprintf(&b, "added %d, already %d, own %d, skipped %d\n", pl.Added, pl.Already, pl.Own, pl.Skipped)
	for _, l := range pl.Losses {
		b.WriteString("loss: " + l + "\n")
	}
	return b.String()
}

func TestImportGoldens(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.txtar"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			a, err := txtar.ParseFile(file)
			require.NoError(t, err)
			c := parseCase(t, a)
			env := machine(t, a)
			cfg := ConfigPath(env, c.scope)
			root := filepath.Dir(env.Home)
			var plugin string
			if c.plugin != "" {
				plugin = filepath.Join(root, filepath.FromSlash(c.plugin))
			}
			pl, err := Make(Options{Env: env, From: c.from, Scope: c.scope, Config: cfg, Plugin: plugin})
			require.NoError(t, err)
			gotConfig := "(none)\n"
			if pl.New != nil {
				gotConfig = string(pl.New)
			}
			gotReport := report(pl)
			// The archive's root, where the plugin's folder is named.
			gotConfig = strings.ReplaceAll(gotConfig, root, "$ROOT")
			gotReport = strings.ReplaceAll(gotReport, root, "$ROOT")
			if *update {
				a.Files = slices.DeleteFunc(a.Files, func(f txtar.File) bool { return strings.HasPrefix(f.Name, "want/") })
				a.Files = append(a.Files, txtar.File{Name: "want/config", Data: []byte(gotConfig)}, txtar.File{Name: "want/report", Data: []byte(gotReport)})
				require.NoError(t, os.WriteFile(file, txtar.Format(a), 0o644))
			} else {
				assert.Equal(t, want(t, a, "want/config"), gotConfig, "the config written")
				assert.Equal(t, want(t, a, "want/report"), gotReport, "the report")
			}

			// Written, then imported again: nothing changes, and every
			// entry is recognised.
			if pl.New == nil {
				return
			}
			_, err = Apply(env, pl)
			require.NoError(t, err)
			again, err := Make(Options{Env: env, From: c.from, Scope: c.scope, Config: cfg, Plugin: plugin})
			require.NoError(t, err)
			assert.Equal(t, string(pl.New), string(again.New), "a second import changes the config")
			assert.Zero(t, again.Added, "a second import adds entries")
			assert.Equal(t, pl.Added+pl.Already, again.Already)
		})
	}
}

func want(t *testing.T, a *txtar.Archive, name string) string {
	t.Helper()
	for _, f := range a.Files {
		if f.Name == name {
			return string(f.Data)
		}
	}
	t.Fatalf("no %s in the archive: run go test -update", name)
	return ""
}

// Every tool with command hooks in a file has a golden case.
func TestEveryToolHasAGolden(t *testing.T) {
	covered := map[string]bool{}
	files, _ := filepath.Glob(filepath.Join(goldenDir, "*.txtar"))
	for _, file := range files {
		a, err := txtar.ParseFile(file)
		require.NoError(t, err)
		covered[parseCase(t, a).from.ID] = true
	}
	for _, p := range provider.All {
		if Check(p) == nil {
			assert.True(t, covered[p.ID], "%s has no testdata/import case", p.ID)
		}
	}
}
