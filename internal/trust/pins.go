package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/shellcmd"
)

// The bounds of what one allowance pins: beyond them `hookshim allow`
// refuses (the scripts belong in a folder of their own), and a call whose
// pins have grown past them is not allowed.
const (
	MaxPinnedFiles = 1000
	MaxPinnedBytes = 10 << 20
)

// BoundError is an allowance that would pin more than the bounds.
type BoundError struct {
	Files int
	Bytes int64
	Pin   string // the pin that went past them
}

func (e *BoundError) Error() string {
	return fmt.Sprintf("the allowance would pin more than %d files or %d MiB (at %s: %d files, %d bytes so far)",
		MaxPinnedFiles, MaxPinnedBytes>>20, e.Pin, e.Files, e.Bytes)
}

// Pin is a part of the project an allowance covers besides the config:
// one file, or a folder with everything under it (Tree).
type Pin struct {
	Path string
	Tree bool
}

// Holds reports whether path is pinned by p.
func (p Pin) Holds(path string) bool {
	if p.Tree {
		return within(p.Path, path)
	}
	return path == p.Path
}

func (p Pin) line() string {
	if p.Tree {
		return "tree " + p.Path
	}
	return "file " + p.Path
}

func parsePins(s string) ([]Pin, error) {
	var out []Pin
	for _, l := range strings.Split(s, "\n") {
		if l == "" {
			continue
		}
		kind, path, _ := strings.Cut(l, " ")
		if kind != "tree" && kind != "file" || !filepath.IsAbs(path) {
			return nil, fmt.Errorf("not an allow record (line %q)", l)
		}
		out = append(out, Pin{Path: path, Tree: kind == "tree"})
	}
	return out, nil
}

// Pins is the rule of what an allowance covers, beside the config itself.
// Every path inside the project that a hook's command names or reaches is
// taken (see pinner.word), and pins:
//
//   - a folder below the project root: the folder, everything under it;
//   - a file (or a path that does not exist yet) in a folder below the
//     root: that folder, everything under it;
//   - a file directly in the project root: that file alone (the root is
//     never pinned whole: whatever the agent writes there would revoke the
//     allowance);
//   - the project root itself: nothing more.
//
// Paths outside the project are not pinned.
//
// A config that extends others (config.File.Extended, once resolved)
// pins each extended file by path, inside the project or not, and the
// paths its hooks' commands reach by the same rule, rooted at the
// extended file's folder when that is outside the project. A config
// fetched from a URL is not pinned by path: its pin is in the content of
// the file that extends it, which is pinned.
func Pins(f *config.File) []Pin {
	p := &pinner{root: f.Dir, self: f.Path}
	for _, h := range f.Hooks { // with the extended files' hooks
		p.line(h.Command, h.Dir, 0)
	}
	for _, x := range f.Extended {
		if filepath.IsAbs(x.Path) {
			p.pins = append(p.pins, Pin{Path: x.Path})
			// A link is pinned by what it holds, not by the file it
			// points at: that file is pinned too, as it is what is read.
			if real, err := filepath.EvalSymlinks(x.Path); err == nil && real != x.Path {
				p.pins = append(p.pins, Pin{Path: real})
			}
		}
		if _, inside := p.resolve(x.Dir, p.root); inside {
			continue // its hooks were read above
		}
		out := &pinner{root: x.Dir, self: x.Path}
		for _, h := range x.Hooks {
			out.line(h.Command, h.Dir, 0)
		}
		p.pins = append(p.pins, out.pins...)
	}
	return p.result()
}

type pinner struct {
	root, self string
	pins       []Pin
}

// line reads a command line as the shell runs it: simple commands in
// order, the working folder following each cd.
func (p *pinner) line(line, dir string, depth int) {
	if depth > 4 {
		return // sh -c "sh -c '…'" nested deeper: not followed
	}
	cwd := dir
	// Read by shellcmd, as the policies read commands: the simple
	// commands in order (after ;, &&, newlines), nested ones (sh -c,
	// $(…)) included, each with its redirections.
	cmds, _ := shellcmd.Commands(line)
	for _, c := range cmds {
		if words := unwrap(c.Args); len(words) > 0 {
			p.command(words, &cwd, depth)
		}
		for _, r := range c.Redirects {
			// What a command reads on its standard input from a file:
			// for a shell or an interpreter (`sh < lib/x.sh`), a program.
			if (r.Op == "<" || r.Op == "<>") && !r.Dynamic {
				if path, dir, ok := p.word(r.Target, cwd); ok {
					p.pin(path, dir)
				}
			}
		}
	}
}

// unwrap drops what runs the real command: assignments, exec, command,
// nohup, time (config.SkipWrappers), and env with its options and
// assignments, nice, timeout with its duration.
func unwrap(words []string) []string {
	for {
		words = config.SkipWrappers(words)
		if len(words) == 0 {
			return words
		}
		switch filepath.Base(words[0]) {
		case "env", "nice", "timeout":
			name := filepath.Base(words[0])
			words = words[1:]
			for len(words) > 0 && (strings.HasPrefix(words[0], "-") || name == "env" && strings.Contains(words[0], "=")) {
				if (words[0] == "-n" && name == "nice" || words[0] == "-s" && name == "timeout" || words[0] == "-u" && name == "env") && len(words) > 1 {
					words = words[1:] // the option's value
				}
				words = words[1:]
			}
			if name == "timeout" && len(words) > 0 {
				words = words[1:] // the duration
			}
		default:
			return words
		}
	}
}

// shell reports whether name is a program whose -c argument is itself a
// command line. (A switch, not a map literal, which every process would
// build at start.)
func shell(name string) bool {
	switch name {
	case "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox":
		return true
	}
	return false
}

func (p *pinner) command(words []string, cwd *string, depth int) {
	name := filepath.Base(words[0])
	if name == "cd" || name == "pushd" {
		target := ""
		for _, w := range words[1:] {
			if !strings.HasPrefix(w, "-") {
				target = w
				break
			}
		}
		if target == "" || strings.ContainsAny(target, "*?[`~") {
			return // the shell's own idea of where: relative paths stay as they were
		}
		if v, _, ok := leadingVar(target); ok && v != "PWD" && !slices.Contains(projectVars, v) {
			return
		}
		dir, _, ok := p.word(target, *cwd)
		if !ok {
			// A folder that does not exist (yet), or one outside the
			// project: what follows is relative to it.
			dir = filepath.Clean(filepath.Join(*cwd, target))
			if filepath.IsAbs(target) {
				dir = filepath.Clean(target)
			}
		}
		p.pin(dir, true)
		*cwd = dir
		return
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		if i > 0 && shell(name) && isDashC(w) && i+1 < len(words) {
			p.line(words[i+1], *cwd, depth+1)
			i++
			continue
		}
		if i > 0 && strings.HasPrefix(w, "-") {
			continue // a flag, not a path
		}
		if path, dir, ok := p.word(w, *cwd); ok {
			p.pin(path, dir)
		}
	}
	switch {
	case name == "make" || name == "gmake":
		dir, files := *cwd, []string{"GNUmakefile", "makefile", "Makefile"}
		for i := 1; i+1 < len(words); i++ {
			switch words[i] {
			case "-C", "--directory":
				if d, ok := p.resolve(words[i+1], *cwd); ok {
					dir = d
				}
			case "-f", "--file", "--makefile":
				files = []string{words[i+1]} // named: pinned as a word above
				dir = ""
			}
		}
		if dir != "" {
			for _, m := range files {
				p.pin(filepath.Join(dir, m), false)
			}
		}
	case name == "node" || name == "bun" || name == "deno" || name == "tsx" || name == "ts-node":
		if script := scriptArg(words); script != "" {
			if path, _, ok := p.word(script, *cwd); ok {
				p.imports(path, jsImport, jsModule, 0)
			}
		}
	case name == "npm" || name == "npx" || name == "pnpm" || name == "yarn":
		p.pin(filepath.Join(*cwd, "package.json"), false)
		p.pin(filepath.Join(*cwd, "scripts"), true)
	case strings.HasPrefix(name, "python"):
		if script := scriptArg(words); script != "" {
			if path, _, ok := p.word(script, *cwd); ok {
				p.imports(path, pythonImport, pythonModule, 0)
			}
		}
		for i := 1; i+1 < len(words); i++ {
			if words[i] == "-m" {
				mod, _, _ := strings.Cut(words[i+1], ".")
				pkg := filepath.Join(*cwd, mod)
				if st, err := os.Stat(pkg); err == nil && st.IsDir() {
					p.pin(pkg, true)
				} else {
					p.pin(pkg+".py", false)
				}
				break
			}
		}
	}
}

// isDashC reports whether w is a shell option cluster holding -c (-c,
// -ec, -lc...).
func isDashC(w string) bool {
	return len(w) > 1 && w[0] == '-' && w[1] != '-' && strings.ContainsRune(w, 'c')
}

// projectVars name the project folder in a command.
var projectVars = []string{"CLAUDE_PROJECT_DIR", "HOOKSHIM_PROJECT_DIR", "GEMINI_PROJECT_DIR", "CURSOR_PROJECT_DIR"}

// word reads one word of a command as a path: $PWD and the project
// variables resolved; a glob or another variable cut to the folder before
// it (dir: a folder is meant). A word is a path when it contains a slash,
// has a script's extension, or names something that exists.
func (p *pinner) word(w, cwd string) (path string, dir, ok bool) {
	if w == "" || strings.HasPrefix(w, "~") {
		return "", false, false
	}
	base := cwd
	if v, rest, ok := leadingVar(w); ok {
		switch {
		case v == "PWD":
		case slices.Contains(projectVars, v):
			base = p.root
		default:
			return "", false, false // another variable: any folder at all
		}
		w = "." + rest
	}
	if i := strings.IndexAny(w, "*?[$`{"); i >= 0 {
		prefix := w[:i]
		if j := strings.LastIndexByte(prefix, '/'); j >= 0 {
			w, dir = prefix[:j+1], true
		} else {
			w, dir = ".", true
		}
	}
	cwd = base
	path, ok = p.resolve(w, cwd)
	if !ok {
		return "", false, false
	}
	if !dir && !strings.ContainsRune(w, '/') && !slices.Contains(config.ScriptExts, filepath.Ext(w)) {
		if _, err := os.Lstat(path); err != nil {
			return "", false, false
		}
	}
	return path, dir, true
}

// leadingVar splits "$NAME/rest" or "${NAME}/rest" into NAME and "/rest".
func leadingVar(w string) (name, rest string, ok bool) {
	if !strings.HasPrefix(w, "$") {
		return "", "", false
	}
	w = w[1:]
	if strings.HasPrefix(w, "{") {
		name, rest, ok = strings.Cut(w[1:], "}")
		return name, rest, ok && (rest == "" || rest[0] == '/')
	}
	i := strings.IndexFunc(w, func(r rune) bool {
		return !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
	if i < 0 {
		i = len(w)
	}
	name, rest = w[:i], w[i:]
	return name, rest, name != "" && (rest == "" || rest[0] == '/')
}

// resolve makes w absolute from cwd; ok only inside the project.
func (p *pinner) resolve(w, cwd string) (string, bool) {
	if w == "" {
		return "", false
	}
	if !filepath.IsAbs(w) {
		w = filepath.Join(cwd, w)
	}
	w = filepath.Clean(w)
	rel, err := filepath.Rel(p.root, w)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return w, true
}

// pin applies the rule of Pins to one path inside the project.
func (p *pinner) pin(path string, dir bool) {
	if _, inside := p.resolve(path, p.root); !inside || path == p.root || path == p.self {
		return
	}
	if !dir {
		if st, err := os.Stat(path); err == nil && st.IsDir() {
			dir = true
		}
	}
	if !dir {
		if filepath.Dir(path) == p.root {
			p.pins = append(p.pins, Pin{Path: path})
			return
		}
		path = filepath.Dir(path)
	}
	p.pins = append(p.pins, Pin{Path: path, Tree: true})
}

// result sorts the pins and drops those another pin already covers.
func (p *pinner) result() []Pin {
	slices.SortFunc(p.pins, func(a, b Pin) int { return strings.Compare(a.Path, b.Path) })
	var out []Pin
	for _, pin := range p.pins {
		if slices.ContainsFunc(out, func(o Pin) bool { return o.Tree && within(o.Path, pin.Path) || o == pin }) {
			continue
		}
		out = append(out, pin)
	}
	return out
}

func within(dir, path string) bool {
	return path == dir || strings.HasPrefix(path, dir+string(filepath.Separator))
}

// digest hashes the config and every entry of its pins, and lists the
// files it read. Each entry is hashed with its kind, so that a file that
// appears, disappears, becomes a link or a folder is a change too.
func digest(path string, content []byte, pins []Pin) (string, []string, error) {
	return walkPins(path, content, pins, nil)
}

// entry is one thing an allowance holds, as digest hashed it: kind is
// "file", "link" (Content is its target), "dir" or "absent".
type entry struct {
	Kind, Path string
	Content    []byte
	Mode       fs.FileMode
}

// walkPins is digest, handing each entry it hashes to visit (when not
// nil): `hookshim allow` keeps them, as what was allowed (copy.go).
func walkPins(path string, content []byte, pins []Pin, visit func(entry)) (string, []string, error) {
	h := sha256.New()
	record := func(kind, path string, b []byte, mode fs.FileMode) {
		writeEntry(h, kind, path, b)
		if visit != nil {
			visit(entry{Kind: kind, Path: path, Content: b, Mode: mode})
		}
	}
	fmt.Fprintf(h, "%s\n", header)
	writeEntry(h, "config", path, content)
	var files []string
	var size int64
	add := func(pin, path string) error {
		st, err := os.Lstat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			record("absent", path, nil, 0)
			return nil
		case err != nil:
			return err
		}
		if len(files) >= MaxPinnedFiles {
			return &BoundError{Files: len(files) + 1, Bytes: size, Pin: pin}
		}
		files = append(files, path)
		switch {
		case st.Mode()&fs.ModeSymlink != 0:
			// The link itself, not what it points at: a link out of the
			// project pins its name, not a file the project does not hold.
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			record("link", path, []byte(target), 0)
		case st.IsDir():
			record("dir", path, nil, st.Mode())
		case st.Mode().IsRegular():
			b, err := config.ReadFileMax(path, MaxPinnedBytes-size)
			var big *config.TooLargeError
			if errors.As(err, &big) {
				return &BoundError{Files: len(files), Bytes: size + big.Size, Pin: pin}
			}
			if err != nil {
				return err
			}
			size += int64(len(b))
			record("file", path, b, st.Mode())
		default:
			record("other "+st.Mode().Type().String(), path, nil, 0)
		}
		return nil
	}
	for _, pin := range pins {
		if !pin.Tree {
			if err := add(pin.Path, pin.Path); err != nil {
				return "", nil, err
			}
			continue
		}
		err := filepath.WalkDir(pin.Path, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) && path == pin.Path {
					record("absent", path, nil, 0)
					return nil
				}
				return err
			}
			if path != pin.Path && Generated(d.Name()) {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			return add(pin.Path, path)
		})
		if err != nil {
			return "", nil, err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), files, nil
}

// Pinned lists what an allowance of f would pin now: the pins, and the
// files under them (for `hookshim trust` and `hookshim allow`).
func Pinned(f *config.File) ([]Pin, []string, error) {
	pins := Pins(f)
	_, files, err := digest(f.Path, nil, pins)
	return pins, files, err
}
