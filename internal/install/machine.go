package install

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/toml"
	"github.com/tidwall/gjson"
)

// Bin finds the command entries should run: this hookshim, by absolute
// path, so a tool that starts hooks with a bare PATH still finds it.
// Where hookshim was started through a symbolic link found in PATH
// (/opt/homebrew/bin/hookshim -> ../Cellar/hookshim/1.2.0/bin/hookshim),
// the link is written: it survives upgrades, the versioned target does
// not.
func Bin(getenv func(string) string) (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	chosen := exe
	if arg0 := os.Args[0]; arg0 != "" {
		cand := ""
		if strings.ContainsRune(arg0, filepath.Separator) || strings.ContainsRune(arg0, '/') {
			cand, _ = filepath.Abs(arg0)
		} else {
			cand = lookPath(arg0, getenv("PATH"))
		}
		if cand != "" && cand != exe && sameFile(cand, exe) {
			chosen = cand
		}
	}
	if strings.Contains(filepath.ToSlash(chosen), "/go-build") {
		return "", errors.New("this hookshim runs from go's temporary build folder (go run), which is gone when it exits")
	}
	return chosen, nil
}

func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// lookPath finds an executable in a PATH list.
func lookPath(name, pathList string) string {
	for _, dir := range filepath.SplitList(pathList) {
		if dir == "" {
			continue
		}
		for _, n := range []string{name, name + ".exe"} {
			p := filepath.Join(dir, n)
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() && (fi.Mode()&0o111 != 0 || strings.HasSuffix(n, ".exe")) {
				if abs, err := filepath.Abs(p); err == nil {
					return abs
				}
				return p
			}
		}
	}
	return ""
}

// OnMachine reports whether the tool seems installed for this user: one
// of its programs is in PATH or its folder is in the home directory.
func OnMachine(env Env, p *provider.Provider) bool {
	if p.Install == nil {
		return false
	}
	for _, h := range p.Install.Homes {
		if env.Home != "" {
			if fi, err := os.Stat(filepath.Join(env.Home, h)); err == nil && fi.IsDir() {
				return true
			}
		}
	}
	path := ""
	if env.Getenv != nil {
		path = env.Getenv("PATH")
	}
	for _, b := range p.Install.Binaries {
		if lookPath(b, path) != "" {
			return true
		}
	}
	return false
}

// InProject reports whether the project has the tool's project folder.
func InProject(env Env, p *provider.Provider) bool {
	t := Target(p, provider.ScopeProject)
	if t == nil || env.Project == "" {
		return false
	}
	fi, err := os.Stat(filepath.Join(env.Project, t.Dir))
	return err == nil && fi.IsDir()
}

// ProjectRoot is the folder install works in when --dir is not given:
// the nearest folder upwards that holds .git, else dir itself.
func ProjectRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// Disabled lists the settings that turn all of p's hooks off, as
// "KEY = VALUE in FILE".
func Disabled(env Env, p *provider.Provider) []string {
	if p.Install == nil {
		return nil
	}
	var out []string
	for _, sw := range p.Install.Switches {
		path, err := env.Path(sw.At)
		if err != nil {
			continue
		}
		text, exists, err := readFile(path)
		if err != nil || !exists {
			continue
		}
		var v any
		var ok bool
		if strings.HasSuffix(path, ".toml") {
			m, err := toml.Parse(text)
			if err != nil {
				continue
			}
			v, ok = dig(m, strings.Split(sw.Key, "."))
		} else {
			r := gjson.Get(standard(text), sw.Key) // comments allowed
			v, ok = r.Value(), r.Exists()
		}
		if ok && v == sw.Off {
			out = append(out, fmt.Sprintf("%s = %v in %s", sw.Key, sw.Off, env.Display(path)))
		}
	}
	return out
}

func dig(m map[string]any, keys []string) (any, bool) {
	var cur any = m
	for _, k := range keys {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = mm[k]; !ok {
			return nil, false
		}
	}
	return cur, true
}
