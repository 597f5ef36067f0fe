package private

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// StateDir is hookshim's folder for state kept across calls (trust
// records, the decision log, last-call stamps): $XDG_STATE_HOME/hookshim,
// else ~/.local/state/hookshim; "" when neither variable is set.
func StateDir(getenv func(string) string) string {
	return under(getenv, "XDG_STATE_HOME", ".local", "state")
}

// CacheDir is hookshim's folder for what can be fetched again (extended
// configs): $XDG_CACHE_HOME/hookshim, else ~/.cache/hookshim; "" when
// neither variable is set.
func CacheDir(getenv func(string) string) string {
	return under(getenv, "XDG_CACHE_HOME", ".cache")
}

func under(getenv func(string) string, xdg string, fallback ...string) string {
	dir := getenv(xdg)
	if dir == "" {
		home := getenv("HOME")
		if home == "" {
			return ""
		}
		dir = filepath.Join(append([]string{home}, fallback...)...)
	}
	return filepath.Join(dir, "hookshim")
}

// EnsureDir makes dir (0700, with its parents) when it is missing, and
// refuses it unless it is this user's alone (Dir). One lstat when it
// exists, as it does on every call but the first.
func EnsureDir(dir string) error {
	st, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
		st, err = os.Lstat(dir)
	}
	if err != nil {
		return err
	}
	return Dir(dir, st)
}

// WriteFile replaces hookshim's own state at path (a trust record, a
// cached config, an install record) with data, atomically (write). The
// file gets perm, 0600 for state that is this user's alone, whatever it
// had; and a symbolic link at path is replaced, never followed: in a
// folder someone else could write in, a link would have hookshim write
// over a file of the user's that the link names.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	return write(path, data, perm)
}

// WriteThrough replaces a file of the user's that hookshim edits (a
// tool's config, .openhook.json) with data, atomically (write), where its
// symbolic links lead: a file linked into place from a dotfiles
// repository is replaced there, and the link stays a link (LinkTarget).
// The file keeps its mode; a new one gets perm.
func WriteThrough(path string, data []byte, perm fs.FileMode) error {
	target, err := LinkTarget(path)
	if err != nil {
		return err
	}
	if st, err := os.Stat(target); err == nil {
		perm = st.Mode().Perm()
	}
	return write(target, data, perm)
}

// write is the one way hookshim replaces a file: a temporary file in the
// same folder, flushed to disk (fsync) and renamed over path, so that a
// reader (a hook call, the tool) sees the old file or the new one, never
// half of one, and a crash does not leave an empty file where the old one
// was. The file gets perm. The folder must exist.
func write(path string, data []byte, perm fs.FileMode) error {
	// A hidden name: tools that read every file of their folder
	// (.github/hooks/*.json) skip it should hookshim die before the rename.
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".hookshim-*")
	if err != nil {
		return err
	}
	renamed := false
	defer func() {
		if !renamed {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	// CreateTemp made it 0600; Chmod sets perm whatever the umask.
	if err := os.Chmod(f.Name(), perm); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return err
	}
	renamed = true
	return nil
}

// maxLinks bounds the symbolic links LinkTarget follows, as the kernel
// bounds them (ELOOP): a loop of links is an error, not a hang.
const maxLinks = 32

// LinkTarget is the file that path names once its symbolic links are
// followed, one by one, each relative to the folder of the link that
// holds it; path itself when it is no link. A dangling link gives the
// path it points to, where a new file is then written.
func LinkTarget(path string) (string, error) {
	p := path
	for range maxLinks {
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return p, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return p, nil
		}
		dest, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(p), dest)
		}
		p = dest
	}
	return "", fmt.Errorf("%s: too many symbolic links", path)
}
