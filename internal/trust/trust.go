// Package trust decides whether a project's .openhook.json may run, the
// way direnv decides for .envrc: the user allows a file, and the allowance
// holds for that path with exactly that content — and exactly the content
// of every script inside the project its commands point at. Any change
// revokes it. A deny beats an allow.
//
// Without this, cloning a repository would be enough to run its code on
// every tool call of every agent the user has.
package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/mattn/go-shellwords"
)

// State is a config file's trust state.
type State int

const (
	Unknown State = iota // never allowed
	Allowed              // allowed, unchanged since
	Changed              // allowed once, changed since: not allowed
	Denied               // denied: never runs until allowed again
)

func (s State) String() string {
	switch s {
	case Allowed:
		return "allowed"
	case Changed:
		return "changed since allowed"
	case Denied:
		return "denied"
	}
	return "not allowed"
}

// Store keeps the records, one file per config path, under
// $XDG_STATE_HOME/hookshim/trust.
type Store struct {
	Dir string
}

// DefaultStore is the store for this user.
func DefaultStore(getenv func(string) string) (Store, error) {
	dir := getenv("XDG_STATE_HOME")
	if dir == "" {
		home := getenv("HOME")
		if home == "" {
			return Store{}, errors.New("neither XDG_STATE_HOME nor HOME is set: nowhere to keep trust records")
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return Store{Dir: filepath.Join(dir, "hookshim", "trust")}, nil
}

func key(path string) string {
	sum := sha256.Sum256([]byte(path))
	return hex.EncodeToString(sum[:])
}

// records are where a config's allow and deny records are kept (its path
// hashed once: the check runs on every hook call).
func (s Store) records(path string) (allow, deny string) {
	k := key(path)
	return filepath.Join(s.Dir, "allow", k), filepath.Join(s.Dir, "deny", k)
}

// Allowance is the file that records path's allowance. Each allow writes
// it anew, so its size and time tell one allowance from the next.
func (s Store) Allowance(path string) string {
	allow, _ := s.records(path)
	return allow
}

// Digest is the hash that an allowance records: the config's absolute path
// and content, and the path and content of every project script its
// commands reference. It also returns those scripts.
func Digest(f *config.File) (string, []string, error) {
	// The bytes discovery parsed: the file is read once per call, and what
	// is hashed is exactly what runs.
	content := f.Content
	if content == nil {
		var err error
		if content, err = config.ReadFile(f.Path); err != nil {
			return "", nil, err
		}
	}
	h := sha256.New()
	writeEntry(h, "", f.Path, content)
	scripts := Scripts(f)
	for _, s := range scripts {
		b, err := config.ReadFile(s)
		if err != nil {
			return "", nil, err
		}
		writeEntry(h, "\n", s, b)
	}
	return hex.EncodeToString(h.Sum(nil)), scripts, nil
}

// writeEntry hashes one file as "<sep><path>\n<length>\n<content>".
func writeEntry(h hash.Hash, sep, path string, content []byte) {
	fmt.Fprintf(h, "%s%s\n%d\n", sep, path, len(content))
	h.Write(content)
}

// Scripts lists the files inside the config's project that its commands
// point at: any word of a command that names an existing regular file under
// the project root. Editing one of them revokes the allowance, as editing
// the config does.
func Scripts(f *config.File) []string {
	root := f.Dir
	var out []string
	for _, h := range f.Hooks {
		for _, w := range words(h.Command) {
			if w == "" || strings.HasPrefix(w, "-") {
				continue
			}
			p := w
			if !filepath.IsAbs(p) {
				p = filepath.Join(h.Dir, p)
			}
			p = filepath.Clean(p)
			rel, err := filepath.Rel(root, p)
			if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				continue
			}
			if slices.Contains(out, p) {
				continue
			}
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && p != f.Path {
				out = append(out, p)
			}
		}
	}
	slices.Sort(out)
	return out
}

// words splits a command line into candidate paths. Shell syntax is cut at
// operators; what remains is split with shell quoting rules.
func words(cmd string) []string {
	cmd = strings.Map(func(r rune) rune {
		switch r {
		case '|', '&', ';', '(', ')', '<', '>', '`':
			return ' '
		}
		return r
	}, strings.ReplaceAll(cmd, "$(", " "))
	w, err := shellwords.Parse(cmd)
	if err != nil {
		return strings.Fields(cmd)
	}
	return w
}

// Check returns the file's trust state.
func (s Store) Check(f *config.File) (State, error) {
	allow, deny := s.records(f.Path)
	if _, err := os.Stat(deny); err == nil {
		return Denied, nil
	}
	rec, err := config.ReadFile(allow)
	if errors.Is(err, fs.ErrNotExist) {
		return Unknown, nil
	}
	if err != nil {
		return Unknown, err
	}
	sum, _, err := Digest(f)
	if err != nil {
		return Unknown, err
	}
	want, _, _ := strings.Cut(string(rec), "\n")
	if want == sum {
		return Allowed, nil
	}
	return Changed, nil
}

// Allow records the file as allowed with its current content, and lifts a
// deny.
func (s Store) Allow(f *config.File) ([]string, error) {
	sum, scripts, err := Digest(f)
	if err != nil {
		return nil, err
	}
	rec := sum + "\n" + f.Path + "\n" + strings.Join(scripts, "\n")
	allow, deny := s.records(f.Path)
	if err := writeAtomic(allow, []byte(rec)); err != nil {
		return nil, err
	}
	if err := os.Remove(deny); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return scripts, nil
}

// Deny records the path as denied (whatever its content) and drops an
// allowance.
func (s Store) Deny(path string) error {
	allow, deny := s.records(path)
	if err := writeAtomic(deny, []byte(path+"\n")); err != nil {
		return err
	}
	if err := os.Remove(allow); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// writeAtomic writes through a temporary file and a rename, so that
// hookshim processes running in parallel never read half a record.
func writeAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
