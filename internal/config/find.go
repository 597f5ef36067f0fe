package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/hookshim/hookshim/internal/remotecall"
)

// FileName is the project config file, found by walking up from the
// project directory.
const FileName = ".openhook.json"

// Sources says where configs may come from.
type Sources struct {
	Flag      string              // --config: used alone, trusted (the user named it)
	Getenv    func(string) string // for HOOKSHIM_CONFIG, XDG_CONFIG_HOME, HOME
	StartDirs []string            // where the project search starts (tool's project dir, workspace roots, cwd)

	// Gate, when set, decides on the project file before a byte of it is
	// parsed: it returns the bytes to parse (those it checked), or
	// ErrSkip to leave the file out. An untrusted file, however broken
	// or large, then never stops discovery of the user's own config.
	// Nil: the project file is read and parsed (doctor, simulate).
	Gate func(path string) ([]byte, error)
}

// ErrSkip is what a Gate returns for a file that is left out.
var ErrSkip = errors.New("config skipped")

// MaxFileSize is the largest config file hookshim reads on a hook call
// that it has not been told to trust: larger ones are not read at all.
// A config fetched by URL has the same bound.
const MaxFileSize = remotecall.MaxConfigSize

// TooLargeError is a file refused for its size, unread.
type TooLargeError struct {
	Path      string
	Size, Max int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %d bytes (%d): not read", e.Path, e.Max, e.Size)
}

// Found is a config file and how it was found.
type Found struct {
	*File
	Discovered bool // found by walking up from the project: needs trust
}

// UserPath is the user-level config: $XDG_CONFIG_HOME/hookshim/openhook.json.
func UserPath(getenv func(string) string) string {
	dir := getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home := getenv("HOME")
		if home == "" {
			return ""
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "hookshim", "openhook.json")
}

// Discover loads the configs in force, in order: --config alone; else
// HOOKSHIM_CONFIG alone; else the user-level file followed by the project's
// .openhook.json (the first found walking up from each start dir). Handlers
// keep this order when their answers are merged.
func Discover(s Sources) ([]Found, error) {
	if s.Flag != "" {
		f, err := Load(s.Flag)
		if err != nil {
			return nil, err
		}
		return []Found{{File: f}}, nil
	}
	if p := s.Getenv("HOOKSHIM_CONFIG"); p != "" {
		f, err := Load(p)
		if err != nil {
			return nil, err
		}
		return []Found{{File: f}}, nil
	}
	var out []Found
	if up := UserPath(s.Getenv); up != "" {
		f, err := Load(up)
		switch {
		case err == nil:
			out = append(out, Found{File: f})
		case !os.IsNotExist(err):
			// (Not errors.Is: its interface checks make the runtime build
			// method tables on first use, on every call that has no user
			// config. ReadFile's errors are plain *fs.PathError.)
			return nil, err
		}
	}
	var seen []string     // a few start dirs: a list is enough
	var searched []string // folders already looked in, without a config
	for _, start := range s.StartDirs {
		path := findUp(start, &searched)
		if path == "" || slices.Contains(seen, path) {
			continue
		}
		seen = append(seen, path)
		if len(out) > 0 && out[0].Path == path {
			continue
		}
		var f *File
		var err error
		if s.Gate == nil {
			f, err = Load(path)
		} else {
			var data []byte
			data, err = s.Gate(path)
			if err == ErrSkip {
				break // left out: the user's config still runs
			}
			if err == nil {
				f, err = parseAt(path, data)
			}
		}
		if err != nil {
			return nil, err
		}
		out = append(out, Found{File: f, Discovered: true})
		break // one project config: the nearest to the first start dir that has one
	}
	return out, nil
}

// FindUp returns the nearest .openhook.json at or above dir.
func FindUp(dir string) string {
	return findUp(dir, nil)
}

// findUp is FindUp that skips what an earlier search looked at: the start
// folders of one call are mostly the same folder (the project folder, the
// working folder, "."), and each search goes up to the root.
func findUp(dir string, searched *[]string) string {
	if dir == "" {
		return ""
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		if searched != nil {
			if slices.Contains(*searched, dir) {
				// Looked in already, and everything above it up to
				// the config that search found, if any.
				return ""
			}
			*searched = append(*searched, dir)
		}
		p := filepath.Join(dir, FileName)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// LongestTimeout is the longest timeout of the handlers a call in dir
// waits for (async ones it does not), from the configs in force there,
// trusted or not: install registers at least that, so that a tool does
// not stop hookshim while a handler still runs. Zero when no config is
// found or one cannot be read.
func LongestTimeout(getenv func(string) string, dir string) time.Duration {
	found, err := Discover(Sources{Getenv: getenv, StartDirs: []string{dir}})
	if err != nil {
		return 0
	}
	var longest time.Duration
	for _, f := range found {
		for _, h := range f.Hooks {
			if !h.Async {
				longest = max(longest, h.Timeout)
			}
		}
	}
	return longest
}
