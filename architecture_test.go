package hookshim_test

import (
	"go/build"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/hookshim/hookshim/"

// layers is the package table of docs/architecture.md: what each package
// may import from this module. A call flows down this table; nothing below
// internal/cli imports it.
var layers = map[string][]string{
	"cmd/hookshim":       {"internal/cli"},
	"internal/cli":       nil, // the top: anything below
	"internal/pipeline":  {"internal/detect", "internal/normalize", "internal/config", "internal/extend", "internal/trust", "internal/dedupe", "internal/run", "internal/respond", "internal/seen", "internal/dialect", "internal/provider", "internal/event", "internal/decision", "internal/rule", "internal/remotecall", "internal/shellquote", "internal/journal", "internal/shellcmd", "internal/wire", "internal/private"},
	"internal/detect":    {"internal/provider", "internal/event"},
	"internal/normalize": {"internal/provider", "internal/event", "internal/wire", "internal/patch"},
	"internal/config":    {"internal/event", "internal/policy", "internal/rule", "internal/remotecall", "internal/shellcmd"},
	"internal/extend":    {"internal/config", "internal/private", "internal/remotecall", "internal/install", "internal/wire"},
	"internal/rule":      {"internal/event", "internal/shellcmd"},
	"internal/trust":     {"internal/config", "internal/private", "internal/shellquote", "internal/shellcmd"},
	"internal/dedupe":    {"internal/config", "internal/event", "internal/wire", "internal/private"},
	"internal/run":       {"internal/config", "internal/decision", "internal/event", "internal/wire"},
	"internal/respond":   {"internal/provider", "internal/decision", "internal/event", "internal/run"},
	"internal/provider":  {"internal/decision", "internal/event", "internal/wire"},
	"internal/dialect":   {"internal/provider", "internal/event", "internal/decision", "internal/wire", "internal/config", "internal/patch", "internal/private", "internal/shellquote"},
	"internal/doctor":    {"internal/config", "internal/dialect", "internal/extend", "internal/install", "internal/journal", "internal/provider", "internal/seen", "internal/trust", "internal/event", "internal/wire"},
	"internal/simulate":  {"internal/config", "internal/decision", "internal/event", "internal/normalize", "internal/pipeline", "internal/policy", "internal/provider", "internal/run", "internal/wire", "internal/shellquote"},
	"internal/docs":      {"internal/provider", "internal/respond", "internal/run", "internal/config", "internal/decision", "internal/event", "internal/dialect", "internal/normalize", "internal/policy"},
	"internal/install":   {"internal/provider", "internal/private", "internal/shellquote", "internal/wire"},
	"internal/importer":  {"internal/install", "internal/provider", "internal/normalize", "internal/config", "internal/shellquote", "internal/wire"},
	"internal/export":    {"internal/config", "internal/event", "internal/install", "internal/normalize", "internal/provider", "internal/wire"},
	"internal/seen":      {"internal/private"},
	"internal/journal":   {"internal/private", "internal/wire", "internal/secret"},
	"internal/private":   {}, // one ownership policy for the state kept across calls (trust records, claims)
	"internal/event":     {"internal/wire", "internal/shellcmd"},
	"internal/decision":  {},
	"internal/wire":      {},
	"internal/shellcmd":  {},
	"internal/policy":    {"internal/event", "internal/decision", "internal/shellcmd", "internal/secret", "internal/provider"},
	"internal/secret":    {}, // the formats of secrets: prompt-secrets refuses them, the log redacts them

	// The program that sends http and prompt handlers: hookshim itself
	// never links net/http (nethttp_test.go).
	"cmd/hookshim-remote": {"internal/remote"},
	"internal/remote":     {"internal/remotecall", "internal/wire", "internal/buildinfo"},
	"internal/remotecall": {}, // what hookshim and hookshim-remote agree on

	// A word of a command line: hook entries, and hookshim-remote's path.
	"internal/shellquote": {},
	"internal/patch":      {},

	// What both programs' version commands report.
	"internal/buildinfo": {},

	// The shell completion scripts, read from the command line's usage text.
	"internal/completion": {"internal/provider", "internal/policy"},
}

// TestArchitecture: every package imports only what its row in
// docs/architecture.md allows, and every package has a row.
func TestArchitecture(t *testing.T) {
	var dirs []string
	for _, root := range []string{"cmd", "internal"} {
		require.NoError(t, filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || !d.IsDir() || d.Name() == "testdata" {
				if d != nil && d.Name() == "testdata" {
					return filepath.SkipDir
				}
				return err
			}
			if _, err := build.ImportDir(p, 0); err == nil {
				dirs = append(dirs, filepath.ToSlash(p))
			}
			return nil
		}))
	}
	doc, err := os.ReadFile("docs/architecture.md")
	require.NoError(t, err)
	for _, dir := range dirs {
		allowed, ok := layers[dir]
		if !assert.Truef(t, ok, "package %s has no row in docs/architecture.md and architecture_test.go", dir) {
			continue
		}
		assert.Containsf(t, string(doc), "`"+dir+"`", "docs/architecture.md has no row for %s", dir)
		pkg, err := build.ImportDir(dir, 0)
		require.NoError(t, err)
		for _, imp := range pkg.Imports {
			if imp == strings.TrimSuffix(module, "/") {
				continue // the embedded sample payloads
			}
			rel, ours := strings.CutPrefix(imp, module)
			if !ours {
				continue // a module of someone else's
			}
			if dir == "internal/cli" {
				assert.NotEqual(t, "cmd/hookshim", rel)
				continue
			}
			assert.Truef(t, slices.Contains(allowed, rel), "%s imports %s, which docs/architecture.md does not allow", dir, rel)
		}
	}
	for dir := range layers {
		assert.Truef(t, slices.Contains(dirs, dir), "docs/architecture.md lists %s, which does not exist", dir)
	}
}

// TestRemoteLinksLittle: hookshim-remote links, of this module, only
// itself, internal/remote, the contract it shares with hookshim
// (internal/remotecall), the JSON writer (internal/wire) and the version
// stamp (internal/buildinfo). Not the config parser, the policy pack, the rule
// engine (expr) or the shell reader: it is started for every http and
// prompt handler, and what it links it loads.
func TestRemoteLinksLittle(t *testing.T) {
	own := []string{"cmd/hookshim-remote", "internal/remote", "internal/remotecall", "internal/wire", "internal/buildinfo"}
	deps := linked(t, "./cmd/hookshim-remote")
	require.True(t, deps[module+"internal/remotecall"], "the walk found hookshim-remote's packages")
	for dep := range deps {
		if rel, ours := strings.CutPrefix(dep, module); ours {
			assert.Truef(t, slices.Contains(own, rel), "hookshim-remote links %s", rel)
		}
		// The expression engine of rule handlers, wherever it comes from.
		assert.Falsef(t, strings.Contains(dep, "expr-lang/expr") || strings.Contains(dep, "third_party/expr"), "hookshim-remote links %s", dep)
	}
}

// linked is every package that pkg (a folder of this module, "./cmd/…")
// links, pkg included, by import path.
func linked(t *testing.T, pkg string) map[string]bool {
	t.Helper()
	deps := map[string]bool{}
	var walk func(path, dir string)
	walk = func(path, dir string) {
		if deps[path] || path == "C" || path == "unsafe" {
			return
		}
		deps[path] = true
		p, err := build.Import(path, dir, 0)
		require.NoError(t, err, path)
		for _, imp := range p.Imports {
			walk(imp, p.Dir)
		}
	}
	walk(pkg, ".")
	return deps
}

// TestAddProviderChecklist keeps the "Add a provider" checklist of
// docs/architecture.md honest for every registered provider.
func TestAddProviderChecklist(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	providersDoc, err := os.ReadFile("docs/providers.md")
	require.NoError(t, err)
	for _, p := range provider.All {
		t.Run(p.ID, func(t *testing.T) {
			// Step 1: the provider's own files.
			_, err := os.Stat(filepath.Join("internal/provider", providerFile(p)))
			assert.NoErrorf(t, err, "provider %s: no internal/provider/%s", p.ID, providerFile(p))

			// Step 2: a fixture per native event, a golden per fixture.
			dir := filepath.Join(payloadDir, p.ID)
			entries, err := os.ReadDir(dir)
			require.NoErrorf(t, err, "provider %s has no fixtures", p.ID)
			var fixtures []string
			for _, e := range entries {
				if name, ok := strings.CutSuffix(e.Name(), ".json"); ok {
					fixtures = append(fixtures, name)
					_, err := os.Stat(filepath.Join(dir, name+".golden"))
					assert.NoErrorf(t, err, "%s/%s.json has no golden", dir, name)
				}
			}
			_, err = os.Stat(filepath.Join(dir, "README.md"))
			assert.NoErrorf(t, err, "%s has no README saying where its payloads came from", dir)
			for _, s := range p.Events {
				assert.Truef(t, slices.ContainsFunc(fixtures, func(f string) bool {
					return strings.HasPrefix(strings.ToLower(f), strings.ToLower(s.Native))
				}), "%s event %s has no fixture in %s", p.ID, s.Native, dir)
			}

			// Step 3: install goldens for a tool hookshim installs into.
			if p.Install != nil {
				_, err := os.Stat(filepath.Join("testdata/install", p.ID, "fresh.golden"))
				assert.NoErrorf(t, err, "%s installs but has no testdata/install/%s/fresh.golden", p.ID, p.ID)
			}

			// Step 4: the docs rows.
			assert.Containsf(t, string(readme), "| `"+p.ID+"` |", "README's Supported tools table has no row for %s", p.ID)
			assert.Containsf(t, string(providersDoc), "(`"+p.ID+"`)", "docs/providers.md has no table for %s", p.ID)
		})
	}
}

// providerFile is the file that defines a provider: its id less the
// vendor's suffix ("claude-code" is claude.go, "factory-droid" droid.go).
func providerFile(p *provider.Provider) string {
	id := p.ID
	for _, cut := range []string{"-code", "-cli", "-copilot", "factory-"} {
		id = strings.ReplaceAll(id, cut, "")
	}
	return id + ".go"
}

// TestGoInstallable: `go install github.com/hookshim/hookshim/cmd/hookshim@latest`
// (the README's install line) refuses a module whose go.mod replaces or
// excludes another.
func TestGoInstallable(t *testing.T) {
	mod, err := os.ReadFile("go.mod")
	require.NoError(t, err)
	for _, line := range strings.Split(string(mod), "\n") {
		f := strings.Fields(line)
		if len(f) > 0 && (f[0] == "replace" || f[0] == "exclude") {
			t.Errorf("go.mod: %q: go install …@version would refuse this module", line)
		}
	}
}
