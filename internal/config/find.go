package config

import (
	"os"
	"path/filepath"
	"slices"
)

// FileName is the project config file, found by walking up from the
// project directory.
const FileName = ".openhook.json"

// Sources says where configs may come from.
type Sources struct {
	Flag      string              // --config: used alone, trusted (the user named it)
	Getenv    func(string) string // for HOOKSHIM_CONFIG, XDG_CONFIG_HOME, HOME
	StartDirs []string            // where the project search starts (tool's project dir, workspace roots, cwd)
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
	var seen []string // a few start dirs: a list is enough
	for _, start := range s.StartDirs {
		path := FindUp(start)
		if path == "" || slices.Contains(seen, path) {
			continue
		}
		seen = append(seen, path)
		if len(out) > 0 && out[0].Path == path {
			continue
		}
		f, err := Load(path)
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
	if dir == "" {
		return ""
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
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
