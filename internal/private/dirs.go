package private

import (
	"errors"
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

// WriteFile replaces path with data at once, through a temporary file in
// the same folder renamed over it: a call reading it never sees half a
// record (or half a config). The file gets perm: 0600, this user's alone,
// for hookshim's own state.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if err == nil && perm != 0o600 { // CreateTemp's own mode
		err = tmp.Chmod(perm)
	}
	if err != nil {
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
