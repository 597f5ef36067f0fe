package install

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata/install/*/*.golden")

// goldenBin is the hookshim path the goldens carry.
const goldenBin = "/opt/hookshim/bin/hookshim"

const goldenDir = "../../testdata/install"

// testEnv is an install environment in a temporary project and home.
func testEnv(t *testing.T) Env {
	t.Helper()
	root := t.TempDir()
	env := Env{
		Getenv:  func(k string) string { return map[string]string{"XDG_STATE_HOME": filepath.Join(root, "state")}[k] },
		Home:    filepath.Join(root, "home"),
		Project: filepath.Join(root, "proj"),
		Bin:     goldenBin,
		Now:     func() time.Time { return time.Date(2026, 11, 22, 7, 0, 0, 0, time.UTC) },
	}
	require.NoError(t, os.MkdirAll(env.Home, 0o755))
	require.NoError(t, os.MkdirAll(env.Project, 0o755))
	return env
}

func installable() []*provider.Provider {
	var out []*provider.Provider
	for _, p := range provider.All {
		if p.Install != nil {
			out = append(out, p)
		}
	}
	return out
}

// run plans and applies; it returns the changes made.
func run(t *testing.T, env Env, p *provider.Provider, tg provider.Target, events []string) []Change {
	t.Helper()
	changes, _, err := Plan(env, p, tg, events)
	require.NoError(t, err)
	var made []Change
	for _, c := range changes {
		if c.Changed() {
			_, err := Apply(env, c)
			require.NoError(t, err)
			made = append(made, c)
		}
	}
	return made
}

func defaultEvents(t *testing.T, p *provider.Provider) []string {
	events, err := Events(p, nil)
	require.NoError(t, err)
	require.NotEmpty(t, events)
	return events
}

// golden compares got with testdata/install/<provider>/<name>.golden.
func golden(t *testing.T, p *provider.Provider, name, got string) {
	t.Helper()
	file := filepath.Join(goldenDir, p.ID, name+".golden")
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(file), 0o755))
		require.NoError(t, os.WriteFile(file, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(file)
	require.NoError(t, err, "missing golden: go test ./internal/install -run %s -update", t.Name())
	require.Equal(t, string(want), got, "%s differs", file)
}

// snapshot is every file under dir with its content, for layouts that
// write several files.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var names []string
	files := map[string]string{}
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		fi, _ := d.Info()
		names = append(names, rel)
		files[rel] = "-- " + filepath.ToSlash(rel) + " (" + fi.Mode().Perm().String() + ") --\n" + string(b)
		return nil
	})
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		b.WriteString(files[n])
	}
	return b.String()
}

func projectTarget(t *testing.T, p *provider.Provider) provider.Target {
	t.Helper()
	if tg := Target(p, provider.ScopeProject); tg != nil {
		return *tg
	}
	tg := Target(p, provider.ScopeUser)
	require.NotNil(t, tg, "%s has no target", p.ID)
	return *tg
}

// inputs are the per-provider starting files: existing.* holds the user's
// own hooks in odd formatting, broken.* does not parse.
func input(t *testing.T, p *provider.Provider, name string) (string, bool) {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(goldenDir, p.ID, name+".*"))
	for _, m := range matches {
		if !strings.HasSuffix(m, ".golden") {
			b, err := os.ReadFile(m)
			require.NoError(t, err)
			return string(b), true
		}
	}
	return "", false
}

// TestInstallGoldens runs, for every provider with an install description:
// a fresh install, an install into a file with the user's hooks, a
// reinstall, an uninstall that restores the file exactly, and a refused
// unparsable file.
func TestInstallGoldens(t *testing.T) {
	for _, p := range installable() {
		t.Run(p.ID, func(t *testing.T) {
			tg := projectTarget(t, p)
			events := defaultEvents(t, p)

			t.Run("fresh", func(t *testing.T) {
				env := testEnv(t)
				path, err := env.Path(tg)
				require.NoError(t, err)
				made := run(t, env, p, tg, events)
				require.NotEmpty(t, made)
				got := readTarget(t, tg, path)
				golden(t, p, "fresh", got)

				// Reinstall: nothing changes.
				require.Empty(t, run(t, env, p, tg, events), "a second install changed something")

				// Status is current.
				_, reg, err := Plan(env, p, tg, events)
				require.NoError(t, err)
				require.True(t, reg.Current(), "status: %v", reg.Problems)
				require.ElementsMatch(t, events, reg.Events)

				// Uninstall removes what install created.
				run(t, env, p, tg, nil)
				_, err = os.Stat(path)
				require.True(t, errors.Is(err, os.ErrNotExist), "uninstall left %s", path)
				_, err = os.Stat(filepath.Join(env.Project, strings.Split(tg.Dir, "/")[0]))
				if tg.Scope == provider.ScopeProject && tg.Dir != "" { // a file at the root (crush.json) has no folder
					require.True(t, errors.Is(err, os.ErrNotExist), "uninstall left the folder install created")
				}
			})

			// A registration that runs another binary by absolute path: a
			// moved binary in user scope, what older versions wrote in
			// project scope. Both are replaced, not duplicated.
			t.Run("moved", func(t *testing.T) {
				env := testEnv(t)
				path, _ := env.Path(tg)
				old, oldTarget := env, tg
				old.Bin = "/old/place/hookshim"
				if tg.Scope == provider.ScopeProject {
					// The same file, written the way user scope is.
					old.Home, oldTarget.Scope, oldTarget.DirEnv = env.Project, provider.ScopeUser, ""
				}
				run(t, old, p, oldTarget, events)
				_, reg, err := Plan(env, p, tg, events)
				require.NoError(t, err)
				require.False(t, reg.Current())
				require.Contains(t, strings.Join(reg.Problems, ";"), "/old/place/hookshim")
				if tg.Scope == provider.ScopeProject {
					require.Contains(t, strings.Join(reg.Problems, ";"), "teammates")
				}
				run(t, env, p, tg, events)
				got := readTarget(t, tg, path)
				require.NotContains(t, got, "/old/place", "the old entries were kept")
				golden(t, p, "fresh", got)
			})

			if existing, ok := input(t, p, "existing"); ok {
				t.Run("existing", func(t *testing.T) {
					roundTrip(t, testEnv(t), p, tg, events, "existing", existing)
				})
			} else if tg.Format.Layout != provider.LayoutGenerated {
				t.Errorf("missing %s/%s/existing.*: a file with the user's own hooks", goldenDir, p.ID)
			}

			if stale, ok := input(t, p, "stale"); ok {
				// An older registration (another binary, other options),
				// partly inside a group the user shares: replaced in place,
				// then removed without touching the user's entries.
				t.Run("stale", func(t *testing.T) {
					env := testEnv(t)
					path, _ := env.Path(tg)
					writeInput(t, tg, path, stale)
					_, reg, err := Plan(env, p, tg, events)
					require.NoError(t, err)
					require.False(t, reg.Current())
					run(t, env, p, tg, events)
					golden(t, p, "stale", readTarget(t, tg, path))
					require.Empty(t, run(t, env, p, tg, events), "a second install changed something")
					run(t, env, p, tg, nil)
					golden(t, p, "stale-uninstalled", readInput(t, tg, path))
				})
			}

			if broken, ok := input(t, p, "broken"); ok {
				t.Run("broken", func(t *testing.T) {
					env := testEnv(t)
					path, _ := env.Path(tg)
					writeInput(t, tg, path, broken)
					_, _, err := Plan(env, p, tg, events)
					var u *UnreadableError
					var c *ConflictError
					require.True(t, errors.As(err, &u) || errors.As(err, &c), "got %v", err)
					_, _, err = Plan(env, p, tg, nil)
					if tg.Format.Layout != provider.LayoutScriptPerEvent && tg.Format.Layout != provider.LayoutGenerated {
						require.Error(t, err, "uninstall must refuse too")
					}
					require.Equal(t, broken, readInput(t, tg, path))
				})
			} else {
				t.Errorf("missing %s/%s/broken.*: a file hookshim must refuse", goldenDir, p.ID)
			}
		})
	}
}

// readTarget reads what install wrote: the file, or every file of the
// folder for LayoutScriptPerEvent.
// roundTrip installs into a file that holds input and compares the result
// with the golden file named kind; a second install must change nothing and
// uninstall must give input back byte for byte. It returns what install
// wrote.
func roundTrip(t *testing.T, env Env, p *provider.Provider, tg provider.Target, events []string, kind, input string) string {
	t.Helper()
	path, _ := env.Path(tg)
	writeInput(t, tg, path, input)
	run(t, env, p, tg, events)
	got := readTarget(t, tg, path)
	golden(t, p, kind, got)
	require.Empty(t, run(t, env, p, tg, events), "a second install changed something")
	run(t, env, p, tg, nil)
	require.Equal(t, input, readInput(t, tg, path), "uninstall did not restore the file")
	return got
}

func readTarget(t *testing.T, tg provider.Target, path string) string {
	t.Helper()
	if tg.Format.Layout == provider.LayoutScriptPerEvent {
		return snapshot(t, path)
	}
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

// writeInput puts a starting file in place. For LayoutScriptPerEvent the
// input is a txtar-like list of "-- name --" sections.
func writeInput(t *testing.T, tg provider.Target, path, content string) {
	t.Helper()
	if tg.Format.Layout == provider.LayoutScriptPerEvent {
		for name, body := range sections(content) {
			p := filepath.Join(path, name)
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			require.NoError(t, os.WriteFile(p, []byte(body), 0o755))
		}
		return
	}
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
}

func readInput(t *testing.T, tg provider.Target, path string) string {
	t.Helper()
	if tg.Format.Layout == provider.LayoutScriptPerEvent {
		var b strings.Builder
		sec := map[string]string{}
		_ = filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				body, _ := os.ReadFile(p)
				rel, _ := filepath.Rel(path, p)
				sec[filepath.ToSlash(rel)] = string(body)
			}
			return nil
		})
		var names []string
		for n := range sec {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			b.WriteString("-- " + n + " --\n" + sec[n])
		}
		return b.String()
	}
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

func sections(s string) map[string]string {
	out := map[string]string{}
	name := ""
	for _, line := range strings.SplitAfter(s, "\n") {
		if strings.HasPrefix(line, "-- ") && strings.HasSuffix(strings.TrimSpace(line), " --") {
			name = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(line), "-- "), " --")
			out[name] = ""
			continue
		}
		if name != "" {
			out[name] += line
		}
	}
	return out
}
