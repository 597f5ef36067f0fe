// Package pins reads e2e/versions.json, the one list of the client versions
// the end-to-end tests run, and installs a pinned package from npm into
// .e2e/<name>/<version> (kept between runs).
package pins

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Pin is one entry of versions.json.
type Pin struct {
	Package string `json:"package"`
	Version string `json:"version"`
	Bin     string `json:"bin,omitempty"`   // the executable the package installs, or its path inside the package
	Range   string `json:"range,omitempty"` // Bump stays within this npm range (a major version)
	// Bare installs the package's published files without its
	// dependencies, and With beside it: for a bundle that runs on its own
	// but whose declared dependencies do not all install from the
	// registry (Letta Code's).
	Bare bool     `json:"bare,omitempty"`
	With []string `json:"with,omitempty"`
	// Node is the pin of the node the client runs on ("node22"), for one
	// that the system's node is too old for; "" for the system's.
	Node string `json:"node,omitempty"`
}

// Read reads a versions.json.
func Read(path string) (map[string]Pin, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var p map[string]Pin
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return p, nil
}

// Write writes a versions.json: one entry per line, in name order.
func Write(path string, pins map[string]Pin) error {
	var out strings.Builder
	out.WriteString("{\n")
	names := Names(pins)
	for i, n := range names {
		line, err := json.Marshal(pins[n])
		if err != nil {
			return err
		}
		fmt.Fprintf(&out, "  %q: %s", n, spaced(line))
		if i < len(names)-1 {
			out.WriteString(",")
		}
		out.WriteString("\n")
	}
	out.WriteString("}\n")
	return os.WriteFile(path, []byte(out.String()), 0o644)
}

// spaced lays a compact JSON value out as versions.json is written by
// hand: a space after every ":" and "," outside strings.
func spaced(compact []byte) string {
	var b strings.Builder
	inString, escaped := false, false
	for _, c := range compact {
		b.WriteByte(c)
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && (c == ':' || c == ','):
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// Names lists the pinned names in order.
func Names(pins map[string]Pin) []string {
	names := make([]string, 0, len(pins))
	for n := range pins {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

var locks sync.Map // install folder -> *sync.Mutex

// Install installs p into cache/<name>/<version> unless it is there already
// and returns that folder. The folder is complete or absent, never
// half-written: npm runs in a staging folder renamed at the end.
func Install(cache, name string, p Pin) (string, error) {
	dir := filepath.Join(cache, name, p.Version)
	mu, _ := locks.LoadOrStore(dir, &sync.Mutex{})
	mu.(*sync.Mutex).Lock()
	defer mu.(*sync.Mutex).Unlock()
	if _, err := os.Stat(filepath.Join(dir, ".installed")); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", err
	}
	stage, err := os.MkdirTemp(filepath.Dir(dir), "."+p.Version+".staging-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(stage)
	if err := os.WriteFile(filepath.Join(stage, "package.json"), []byte(`{"private": true}`+"\n"), 0o644); err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	run := func(name string, args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Dir = stage
		cmd.Env = append(os.Environ(), "npm_config_update_notifier=false")
		out, err := cmd.CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out), nil
	}
	install := []string{"install", "--no-audit", "--no-fund", "--loglevel=error", "--save-exact"}
	if !p.Bare {
		if _, err := run("npm", append(install, append(p.With, p.Package+"@"+p.Version)...)...); err != nil {
			return "", err
		}
	} else {
		if len(p.With) > 0 {
			if _, err := run("npm", append(install, p.With...)...); err != nil {
				return "", err
			}
		}
		// After the install, which would prune a package it did not put there.
		out, err := run("npm", "pack", "--silent", p.Package+"@"+p.Version)
		if err != nil {
			return "", err
		}
		lines := strings.Fields(out)
		if len(lines) == 0 {
			return "", fmt.Errorf("npm pack %s@%s named no tarball", p.Package, p.Version)
		}
		tgz := lines[len(lines)-1]
		into := filepath.Join("node_modules", filepath.FromSlash(p.Package))
		if err := os.MkdirAll(filepath.Join(stage, into), 0o755); err != nil {
			return "", err
		}
		if _, err := run("tar", "-xzf", tgz, "-C", into, "--strip-components=1"); err != nil {
			return "", err
		}
		_ = os.Remove(filepath.Join(stage, tgz))
	}
	if err := os.WriteFile(filepath.Join(stage, ".installed"), []byte(p.Package+"@"+p.Version+"\n"), 0o644); err != nil {
		return "", err
	}
	_ = os.RemoveAll(dir)
	if err := os.Rename(stage, dir); err != nil {
		return "", err
	}
	return dir, nil
}

// BinPath is where an installed pin's executable is: node_modules/.bin for
// a client, the package's own bin folder for a node package (which npm
// does not link into .bin under its own name).
func BinPath(dir string, p Pin) string {
	if strings.Contains(p.Bin, "/") || p.Bare {
		// A path inside the package: a CLI bundled in another package
		// (CodeBuddy Code's, in @tencent-ai/agent-sdk), or a bare
		// package's, has no .bin link.
		return filepath.Join(dir, "node_modules", p.Package, filepath.FromSlash(p.Bin))
	}
	if link := filepath.Join(dir, "node_modules", ".bin", p.Bin); exists(link) {
		return link
	}
	return filepath.Join(dir, "node_modules", p.Package, "bin", p.Bin)
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Published lists a pinned package's released versions newer than its pin
// (within its range, if it has one), newest first.
func Published(p Pin) ([]string, error) {
	// Every version, or those a range matches ("versions" ignores a range).
	args := []string{"view", p.Package, "versions", "--json"}
	if p.Range != "" {
		args = []string{"view", p.Package + "@" + p.Range, "version", "--json"}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "npm", args...).Output()
	if err != nil {
		return nil, err
	}
	// One version is a JSON string; several an array.
	var many []string
	if err := json.Unmarshal(out, &many); err != nil {
		var one string
		if json.Unmarshal(out, &one) != nil || one == "" {
			return nil, fmt.Errorf("unexpected answer from npm view: %s", strings.TrimSpace(string(out)))
		}
		many = []string{one}
	}
	var newer []string
	for _, v := range many {
		if Newer(v, p.Version) {
			newer = append(newer, v)
		}
	}
	sort.Slice(newer, func(i, j int) bool { return Newer(newer[i], newer[j]) })
	return newer, nil
}

// Newer compares dotted release versions numerically (22.23.3 > 22.9.0);
// a pre-release is never newer.
func Newer(a, b string) bool {
	if strings.Contains(a, "-") {
		return false
	}
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		x, _ := strconv.Atoi(pa[i])
		y, _ := strconv.Atoi(pb[i])
		if x != y {
			return x > y
		}
	}
	return len(pa) > len(pb)
}
