package install

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/hookshim/hookshim/internal/provider"
	"github.com/mattn/go-shellwords"
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

// ResolveBin checks a --bin: an existing executable file, looked up in
// PATH when it names no folder. It returns the absolute path.
func ResolveBin(bin string, getenv func(string) string) (string, error) {
	path := bin
	if !strings.ContainsAny(bin, `/\`) {
		if path = lookPath(bin, getenv("PATH")); path == "" {
			return "", &BinError{Bin: bin, Problem: "is not in PATH"}
		}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if problem := runnable(abs); problem != "" {
		return "", &BinError{Bin: bin, Problem: problem}
	}
	return abs, nil
}

// BinError is a --bin that names no executable.
type BinError struct {
	Bin     string
	Problem string
}

func (e *BinError) Error() string { return "--bin " + e.Bin + " " + e.Problem }

// runnable says what keeps path from running as a program; "" when
// nothing does.
func runnable(path string) string { return runnableOn(runtime.GOOS, path) }

// runnableOn is runnable on the system goos: Windows has no mode bit that
// lets a file run.
func runnableOn(goos, path string) string {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "does not exist"
	case err != nil:
		return "cannot be read: " + err.Error()
	case fi.IsDir():
		return "is a folder"
	case goos != "windows" && fi.Mode()&0o111 == 0:
		return "is not executable"
	}
	return ""
}

// LookPath finds an executable in a PATH list; "" when there is none.
func LookPath(name, pathList string) string { return lookPath(name, pathList) }

// ProjectRel is path relative to the project root, with / separators, when
// it lies inside the project.
func (env Env) ProjectRel(path string) (string, bool) {
	if env.Project == "" {
		return "", false
	}
	rel := func(base, p string) (string, bool) {
		r, err := filepath.Rel(base, p)
		if err != nil || r == "." || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return "", false
		}
		return filepath.ToSlash(r), true
	}
	if r, ok := rel(env.Project, path); ok {
		return r, true
	}
	// /tmp -> /private/tmp and the like: compare the real folders too.
	base, err1 := filepath.EvalSymlinks(env.Project)
	dir, err2 := filepath.EvalSymlinks(filepath.Dir(path))
	if err1 != nil || err2 != nil {
		return "", false
	}
	return rel(base, filepath.Join(dir, filepath.Base(path)))
}

// Missing lists, for each program r's entries run that cannot be found or
// run on this machine, what is wrong; empty when every one can run.
func (r Registration) Missing(env Env) []string {
	var out []string
	for _, bin := range r.Bins {
		path, how := env.locate(bin)
		if path == "" {
			out = append(out, "runs "+bin+" from PATH, and no "+bin+" is in PATH here")
			continue
		}
		if problem := runnable(path); problem != "" {
			out = append(out, "runs "+bin+", which "+how+problem)
		}
	}
	return out
}

// locate is the file a registered program names on this machine, and how
// it was found, for messages; "" when it is a bare name PATH lacks.
// Project-relative programs (ProjectDir/<path>) resolve against the
// project root.
func (env Env) locate(bin string) (path, how string) {
	var path0 string
	if env.Getenv != nil {
		path0 = env.Getenv("PATH")
	}
	switch {
	case !strings.Contains(bin, "/"):
		return lookPath(bin, path0), ""
	case filepath.IsAbs(bin):
		return bin, ""
	}
	rel := bin
	for _, p := range provider.All {
		if p.Install == nil || p.Install.ProjectDir == "" {
			continue
		}
		if dir := unquoteWord(p.Install.ProjectDir); strings.HasPrefix(bin, dir+"/") {
			rel = bin[len(dir)+1:]
			break
		}
	}
	path = filepath.Join(env.Project, filepath.FromSlash(rel))
	return path, "(" + env.Display(path) + " here) "
}

// unquoteWord is a word of shell text as parseCall reads it.
func unquoteWord(s string) string {
	w, err := shellwords.Parse(s)
	if err != nil || len(w) != 1 {
		return s
	}
	return w[0]
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

// InProject reports whether the project has the tool's project folder,
// or one of its ProjectMarks.
func InProject(env Env, p *provider.Provider) bool {
	t := Target(p, provider.ScopeProject)
	if t == nil || env.Project == "" {
		return false
	}
	for _, m := range p.Install.ProjectMarks {
		if _, err := os.Stat(filepath.Join(env.Project, m)); err == nil {
			return true
		}
	}
	if p.Install.SharedDir {
		fi, err := os.Stat(filepath.Join(env.Project, t.Dir, t.File))
		return err == nil && !fi.IsDir()
	}
	if t.Dir == "" {
		// The tool's file sits at the project root (Crush's crush.json):
		// the root itself says nothing, the file does.
		_, err := os.Stat(filepath.Join(env.Project, t.File))
		return err == nil
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
			m, err := parseTOML(text)
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
