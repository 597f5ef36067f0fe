package pins

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Bumper moves pins to the newest published version that installs and
// runs here. Its three steps are functions so that the choice of version
// can be tested without npm; NewBumper gives the real ones.
type Bumper struct {
	// Published lists a pin's versions newer than it, newest first.
	Published func(p Pin) ([]string, error)
	// Install installs a pin and returns its folder.
	Install func(name string, p Pin) (string, error)
	// Runs reports why the pin installed in dir does not run ("nil": it
	// does); node is the folder of the node it runs on, "" for the
	// system's.
	Runs func(dir string, p Pin, node string) error
	// Tries is how many versions below the newest are tried before the
	// pin is kept.
	Tries int
	// Only names the pins to bump; the others are left as they are. Empty:
	// every pin.
	Only []string
}

// NewBumper is the Bumper of make e2e-bump: npm, and installs kept in
// cache.
func NewBumper(cache string, tries int) *Bumper {
	return &Bumper{
		Published: Published,
		Install:   func(name string, p Pin) (string, error) { return Install(cache, name, p) },
		Runs:      Runs,
		Tries:     tries,
	}
}

// Bump moves each pin of all, in name order, to the newest version that
// installs and runs: a version that does not install (a platform binary
// never published) or installs but does not start (a launcher whose
// platform package is missing) is reported and the next older one
// tried, down to the pin, which is kept. It writes one line per pin to
// out; a pin kept below its newest version says "NOT AT THE NEWEST" and
// why. It reports false when npm could not be asked about a package or a
// pin is not at its newest version: both need someone to look.
func (b *Bumper) Bump(all map[string]Pin, out io.Writer) (ok bool) {
	ok = true
	for _, n := range Names(all) {
		if len(b.Only) > 0 && !slices.Contains(b.Only, n) {
			continue
		}
		p := all[n]
		newer, err := b.Published(p)
		if err != nil {
			fmt.Fprintf(out, "%-8s %s: cannot ask npm: %v\n", n, p.Package, err)
			ok = false
			continue
		}
		if len(newer) == 0 {
			fmt.Fprintf(out, "%-8s %s %s (newest)\n", n, p.Package, p.Version)
			continue
		}
		moved := false
		for i, v := range newer {
			if i > b.Tries {
				break
			}
			try := p
			try.Version = v
			if why := b.usable(all, n, try); why != "" {
				fmt.Fprintf(out, "%-8s %s %s: NOT AT THE NEWEST: %s %s\n", n, p.Package, p.Version, v, why)
				ok = false
				continue
			}
			fmt.Fprintf(out, "%-8s %s %s -> %s\n", n, p.Package, p.Version, v)
			all[n] = try
			moved = true
			break
		}
		if !moved {
			fmt.Fprintf(out, "%-8s %s %s: NOT AT THE NEWEST: no newer version installs and runs; pin kept\n", n, p.Package, p.Version)
		}
	}
	return ok
}

// usable says why version p of pin n cannot be the pin ("" when it can):
// it does not install, or it installs and does not start.
func (b *Bumper) usable(all map[string]Pin, n string, p Pin) string {
	dir, err := b.Install(n, p)
	if err != nil {
		return "cannot be installed here: " + summary(err)
	}
	node := ""
	if p.Node != "" {
		np, ok := all[p.Node]
		if !ok {
			return fmt.Sprintf("runs on %q, which versions.json does not pin", p.Node)
		}
		ndir, err := b.Install(p.Node, np)
		if err != nil {
			return fmt.Sprintf("cannot be checked: its node (%s %s) cannot be installed here: %s", p.Node, np.Version, firstLine(err.Error()))
		}
		node = filepath.Dir(BinPath(ndir, np))
	}
	if err := b.Runs(dir, p, node); err != nil {
		return "installs but does not run here: " + firstLine(err.Error())
	}
	return ""
}

// Runs starts the executable of the pin installed in dir with --version,
// which every pinned client answers without an account or a network, in
// an empty home (nothing of this machine's configuration, no update
// written anywhere) with nothing on stdin. A package that installs can
// still fail here: an npm launcher whose platform binary was not
// published for this machine.
func Runs(dir string, p Pin, node string) error {
	home, err := os.MkdirTemp("", "pins-home-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(home)
	// Generous: only a hang should reach it, on a loaded machine.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bin := BinPath(dir, p)
	cmd := exec.CommandContext(ctx, bin, "--version")
	cmd.Dir = home
	path := "/usr/local/bin:/usr/bin:/bin"
	if node != "" {
		path = node + ":" + path
	}
	cmd.Env = []string{"HOME=" + home, "PATH=" + path, "LANG=C.UTF-8", "TERM=dumb", "NO_COLOR=1"}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(out.String())
		if msg == "" {
			return fmt.Errorf("%s --version: %v", filepath.Base(bin), err)
		}
		return fmt.Errorf("%s --version: %v: %s", filepath.Base(bin), err, oneLine(msg, 300))
	}
	return nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// summary is an install error on one line: the command that failed and
// the last thing npm said, which is why (a launcher's "failed to install
// the right package"), not where its log is.
func summary(err error) string {
	lines := strings.Split(strings.TrimSpace(err.Error()), "\n")
	for i := len(lines) - 1; i > 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l != "" && !strings.Contains(l, "A complete log of this run") {
			return lines[0] + ": " + oneLine(l, 300)
		}
	}
	return lines[0]
}

// oneLine puts a program's output on one line, clipped to n bytes: where
// a launcher says which platform package it misses can be its first line
// or come after a stack trace.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = s[:n] + " …"
	}
	return s
}
