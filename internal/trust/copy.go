package trust

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/private"
)

// Copy is what the user allowed, kept by `hookshim allow` beside the
// allow record: the config's bytes and every file its pins held, as they
// were hashed. A hook call runs the handlers' scripts from it (see
// Copy.Command), never from the project, for two reasons:
//
//   - a change in the project (an edit, an agent's `touch`, a checkout)
//     does not switch the policy off: the allowed version keeps running,
//     and every call says so, until the user allows the change;
//   - what runs is what was hashed: a script swapped in the project
//     between the check and the start of the handler is not what runs,
//     as the copy was written from the very bytes the allowance hashed,
//     into a folder only this user can write in (package private).
//
// The copy mirrors the files' absolute paths under Root/files, so that a
// script keeps its name, its folder and its neighbours there: an
// interpreter that finds its modules next to the script (Python's sibling
// imports, `source "$(dirname "$0")/lib.sh"`) finds the allowed ones.
// The handler's working folder and the project variables stay the
// project's: a policy still looks at the project it guards.
type Copy struct {
	Root string
	Pins []Pin
}

// copyDir is where the copy of an allowance with this digest is kept.
func (s Store) copyDir(sum string) string { return filepath.Join(s.Dir, "copy", sum) }

// Path is where the copy holds the file at abs.
func (c *Copy) Path(abs string) string {
	return filepath.Join(c.Root, "files", abs[len(filepath.VolumeName(abs)):])
}

// Config is the allowed config's content.
func (c *Copy) Config() ([]byte, error) {
	return config.ReadFileMax(filepath.Join(c.Root, "config"), config.MaxFileSize)
}

// Holds reports whether abs lies under one of the copy's pins.
func (c *Copy) Holds(abs string) bool {
	return slices.ContainsFunc(c.Pins, func(p Pin) bool { return p.Holds(abs) })
}

// keep writes the copy of an allowance: the config and the entries of its
// pins, into a fresh folder renamed into place whole, so that a call never
// sees half a copy. Files are read-only; a file that could be run stays
// runnable.
func (s Store) keep(sum string, content []byte, entries []entry) error {
	dir := filepath.Join(s.Dir, "copy")
	if err := private.EnsureDir(dir); err != nil {
		return err
	}
	final := s.copyDir(sum)
	if st, err := os.Lstat(final); err == nil && st.IsDir() {
		return nil // the same allowance, kept already
	}
	var nonce [8]byte
	_, _ = rand.Read(nonce[:])
	tmp := filepath.Join(dir, ".new-"+hex.EncodeToString(nonce[:]))
	if err := os.Mkdir(tmp, 0o700); err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	c := &Copy{Root: tmp}
	if err := os.WriteFile(filepath.Join(tmp, "config"), content, 0o400); err != nil {
		return err
	}
	for _, e := range entries {
		p := c.Path(e.Path)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			return err
		}
		var err error
		switch e.Kind {
		case "file":
			mode := fs.FileMode(0o400)
			if e.Mode&0o100 != 0 {
				mode = 0o500
			}
			err = os.WriteFile(p, e.Content, mode)
		case "link":
			// A link the system will not make (Windows without the
			// privilege) is left out: a command naming it then names a
			// file the copy lacks, and fails as its on_error says.
			_ = os.Symlink(string(e.Content), p)
		case "dir":
			err = os.MkdirAll(p, 0o700)
		}
		if err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, final); err != nil {
		if st, serr := os.Lstat(final); serr == nil && st.IsDir() {
			return nil // kept by an allow running beside this one
		}
		return err
	}
	return nil
}

// copyOf is the kept copy of the allowance with this digest, nil when
// there is none (an allowance recorded before copies were kept) or when
// it is not this user's alone.
func (s Store) copyOf(sum string, pins []Pin) *Copy {
	root := s.copyDir(sum)
	st, err := os.Lstat(root)
	if err != nil || private.Dir(root, st) != nil {
		return nil
	}
	return &Copy{Root: root, Pins: pins}
}

// Change is one difference between what was allowed and the project now.
type Change struct {
	Path string
	How  string // "edited", "added", "removed", "unreadable: …"
}

func (c Change) String() string { return c.Path + " " + c.How }

// changes lists what differs between the copy and the project now: the
// config first, then each pinned entry in path order.
func (c *Copy) changes(path string) []Change {
	var out []Change
	allowed, err := c.Config()
	now, nerr := config.ReadFileMax(path, config.MaxFileSize)
	switch {
	case errors.Is(nerr, fs.ErrNotExist):
		out = append(out, Change{path, "removed"})
	case nerr != nil:
		out = append(out, Change{path, "unreadable: " + nerr.Error()})
	case err != nil || !bytes.Equal(allowed, now):
		out = append(out, Change{path, "edited"})
	}
	seen := map[string]bool{}
	for _, pin := range c.Pins {
		walk(pin, func(p string, d fs.DirEntry) {
			seen[p] = true
			if d.IsDir() {
				if st, err := os.Lstat(c.Path(p)); err != nil || !st.IsDir() {
					out = append(out, Change{p, "added"})
				}
				return
			}
			if how := differs(p, c.Path(p)); how != "" {
				out = append(out, Change{p, how})
			}
		})
		// What the copy holds under the pin and the project no longer does.
		cp := &Copy{Root: c.Root}
		walk(Pin{Path: cp.Path(pin.Path), Tree: pin.Tree}, func(p string, _ fs.DirEntry) {
			rel, err := filepath.Rel(cp.Path(pin.Path), p)
			if err != nil {
				return
			}
			if orig := filepath.Join(pin.Path, rel); !seen[orig] {
				out = append(out, Change{orig, "removed"})
			}
		})
	}
	// The config's own change first, then the others by path.
	start := 0
	if len(out) > 0 && out[0].Path == path {
		start = 1
	}
	slices.SortStableFunc(out[start:], func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// walk calls fn for each entry under pin that exists, generated files
// left out.
func walk(pin Pin, fn func(string, fs.DirEntry)) {
	if !pin.Tree {
		if st, err := os.Lstat(pin.Path); err == nil {
			fn(pin.Path, fs.FileInfoToDirEntry(st))
		}
		return
	}
	_ = filepath.WalkDir(pin.Path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if p != pin.Path && Generated(d.Name()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		fn(p, d)
		return nil
	})
}

// differs says how the project's file at now differs from the copy's at
// allowed, "" when it does not.
func differs(now, allowed string) string {
	a, aerr := os.Lstat(allowed)
	n, err := os.Lstat(now)
	if err != nil {
		return "unreadable: " + err.Error()
	}
	if aerr != nil {
		return "added"
	}
	if a.Mode().Type() != n.Mode().Type() {
		return "replaced by a " + kind(n.Mode())
	}
	switch {
	case n.Mode()&fs.ModeSymlink != 0:
		x, _ := os.Readlink(now)
		y, _ := os.Readlink(allowed)
		if x != y {
			return "edited (the link points elsewhere)"
		}
	case n.Mode().IsRegular():
		x, err := os.ReadFile(now)
		if err != nil {
			return "unreadable: " + err.Error()
		}
		y, _ := os.ReadFile(allowed)
		if !bytes.Equal(x, y) {
			return "edited"
		}
	}
	return ""
}

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "link"
	case m.IsDir():
		return "folder"
	case m.IsRegular():
		return "file"
	}
	return fmt.Sprintf("%v", m.Type())
}
