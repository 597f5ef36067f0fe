package trust

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/shellquote"
	"mvdan.cc/sh/v3/syntax"
)

// Command is a handler's command line made to run the allowed copy: every
// word that names a pinned file — the program, an interpreter's script, a
// file sourced, the target of `<` — is replaced by the copy's file, quoted.
// The rest of the line is kept byte for byte, and so are the environment
// and the working folder the handler gets, unless the line changes into a
// pinned folder (`cd hooks`): then into its copy. Only what was pinned
// comes from the copy. A path is resolved as the handler's shell will resolve it
// when it runs: relative to dir, after the line's own `cd`s (on its own
// line or before `&&`), the project variables as vars gives them (the
// tool's project folder, which need not be the config's).
//
// Edits are made at the positions mvdan.cc/sh gives each word, not by
// printing the syntax tree again, so that nothing else of the line can
// change; a program given to a shell with -c is rewritten the same way,
// nested.
//
// Unsure lists what of the line may still read a pinned file from the
// project: a word known only at run time that points under a pin, a
// program that reads its own files (make, npm, python -m), a line that
// does not parse. What it names runs as the project holds it: right when
// the project is as allowed, and not to be run when it is not.
//
// The error is a file the line names through a project variable that
// the allowance does not cover: the tool's project folder is not the
// config's (an agent started in a subfolder), and the file there is not
// what was allowed. Such a handler must not run.
func (c *Copy) Command(line, dir string, vars func(string) string) (out string, unsure []string, err error) {
	r := &rewriter{c: c, vars: vars}
	out = r.line(line, dir, 0)
	return out, r.unsure, r.err
}

// NotAllowedError is a file a handler would run that no allowance covers.
type NotAllowedError struct {
	Word, Path string
}

func (e *NotAllowedError) Error() string {
	return fmt.Sprintf("%s is %s when the hook runs, which the allowance does not cover (the tool's project folder is not the config's)", e.Word, e.Path)
}

type rewriter struct {
	c      *Copy
	vars   func(string) string
	unsure []string
	err    error
}

type edit struct {
	start, end int
	text       string
}

// maxNested bounds how deep -c programs are followed.
const maxNested = 4

func (r *rewriter) line(line, dir string, depth int) string {
	if depth > maxNested {
		r.unsure = append(r.unsure, "a program nested too deep")
		return line
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil {
		r.unsure = append(r.unsure, "a line that does not parse ("+err.Error()+")")
		return line
	}
	var edits []edit
	cwd := dir
	replace := func(w *syntax.Word, text string) {
		edits = append(edits, edit{int(w.Pos().Offset()), int(w.End().Offset()), text})
	}
	pinned := func(w *syntax.Word, program bool) {
		if program && !strings.Contains(w.Lit(), "/") && w.Lit() != "" {
			return // looked up in PATH
		}
		path, ok, partial := r.path(w, cwd)
		switch {
		case ok && r.runs(path):
			replace(w, shellquote.Word(r.c.Path(path)))
		case ok && projectVar(w) && !r.c.Holds(path) && r.err == nil:
			// At allow time this word named a file in the config's
			// project, which the allowance pins (every path inside the
			// project is); here it names another.
			r.err = &NotAllowedError{Word: line[w.Pos().Offset():w.End().Offset()], Path: path}
		case !ok && partial != "" && r.c.Holds(partial):
			r.unsure = append(r.unsure, fmt.Sprintf("%q (known only when it runs)", line[w.Pos().Offset():w.End().Offset()]))
		}
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Redirect:
			if n.Word != nil && (n.Op == syntax.RdrIn || n.Op == syntax.RdrInOut) {
				pinned(n.Word, false)
			}
		case *syntax.CallExpr:
			if len(n.Args) == 0 {
				return true
			}
			args := n.Args
			name := filepath.Base(args[0].Lit())
			if name == "cd" || name == "pushd" {
				if len(args) > 1 {
					w := args[len(args)-1]
					if p, ok, _ := r.path(w, cwd); ok {
						cwd = p
						if d := r.c.Dir(p); d != "" {
							// Into a pinned folder: its copy, so that
							// what a script there reads by a path
							// relative to the working folder (`.
							// ./lib.sh`) is the allowed version too.
							replace(w, shellquote.Word(d))
						}
					} else {
						cwd = "" // a folder known only at run time
					}
				}
				return true
			}
			switch {
			case name == "make" || name == "gmake" || name == "npm" || name == "npx" || name == "pnpm" || name == "yarn":
				if cwd == "" || r.c.Holds(filepath.Join(cwd, "package.json")) || r.c.Holds(filepath.Join(cwd, "Makefile")) {
					r.unsure = append(r.unsure, name+" (reads its own files)")
				}
			case strings.HasPrefix(name, "python") && slices.ContainsFunc(args, func(w *syntax.Word) bool { return w.Lit() == "-m" }):
				r.unsure = append(r.unsure, name+" -m (finds its module itself)")
			}
			for i, w := range args {
				if i > 0 && shell(name) && isDashC(w.Lit()) && i+1 < len(args) {
					if prog, ok := literal(args[i+1]); ok {
						nested := r.line(prog, cwd, depth+1)
						if nested != prog {
							replace(args[i+1], shellquote.Word(nested))
						}
					} else {
						r.unsure = append(r.unsure, name+" -c with a program known only when it runs")
					}
					break
				}
				if i > 0 && strings.HasPrefix(w.Lit(), "-") {
					continue
				}
				pinned(w, i == 0)
			}
		}
		return true
	})
	if len(edits) == 0 {
		return line
	}
	slices.SortFunc(edits, func(a, b edit) int { return a.start - b.start })
	var b strings.Builder
	at := 0
	for _, e := range edits {
		if e.start < at {
			continue // inside a word already replaced (a -c program)
		}
		b.WriteString(line[at:e.start])
		b.WriteString(e.text)
		at = e.end
	}
	b.WriteString(line[at:])
	return b.String()
}

// Dir is the copy of the folder at abs when abs is a pinned folder the
// copy holds, else "".
func (c *Copy) Dir(abs string) string {
	if !c.Holds(abs) {
		return ""
	}
	d := c.Path(abs)
	if st, err := os.Lstat(d); err != nil || !st.IsDir() {
		return ""
	}
	return d
}

// runs reports whether the path a word names is a file of the allowance
// to run from the copy: under a pin, and not a folder (a folder argument
// stays the project's).
func (r *rewriter) runs(path string) bool {
	if !r.c.Holds(path) {
		return false
	}
	if st, err := os.Stat(r.c.Path(path)); err == nil && st.IsDir() {
		return false
	}
	return true
}

// path reads a word as the path it names: ok with the absolute path when
// the word is known before it runs; else partial is the folder its known
// start names, if any.
func (r *rewriter) path(w *syntax.Word, cwd string) (path string, ok bool, partial string) {
	var b strings.Builder
	static := true
	var parts func(list []syntax.WordPart, quoted bool)
	parts = func(list []syntax.WordPart, quoted bool) {
		for _, part := range list {
			if !static {
				return
			}
			switch p := part.(type) {
			case *syntax.Lit:
				switch j := strings.IndexAny(p.Value, `*?[\`); {
				case !quoted && b.Len() == 0 && strings.HasPrefix(p.Value, "~"):
					static = false
				case j >= 0 && !(quoted && p.Value[j] != '\\'):
					b.WriteString(p.Value[:j]) // the known start of a glob
					static = false
				default:
					b.WriteString(p.Value)
				}
			case *syntax.SglQuoted:
				if p.Dollar {
					static = false
				} else {
					b.WriteString(p.Value)
				}
			case *syntax.DblQuoted:
				parts(p.Parts, true)
			case *syntax.ParamExp:
				v := ""
				if b.Len() == 0 && simpleParam(p) {
					switch name := p.Param.Value; {
					case name == "PWD":
						v = cwd
					case slices.Contains(projectVars, name):
						v = r.vars(name)
					}
				}
				if v == "" {
					static = false
				}
				b.WriteString(v)
			default:
				static = false
			}
		}
	}
	parts(w.Parts, false)
	s := b.String()
	if !static {
		if i := strings.LastIndexByte(s, '/'); i > 0 && (filepath.IsAbs(s) || cwd != "") {
			partial = s[:i]
			if !filepath.IsAbs(partial) {
				partial = filepath.Join(cwd, partial)
			}
			return "", false, filepath.Clean(partial)
		}
		return "", false, ""
	}
	if s == "" {
		return "", false, ""
	}
	if !filepath.IsAbs(s) {
		if cwd == "" {
			return "", false, ""
		}
		s = filepath.Join(cwd, s)
	}
	return filepath.Clean(s), true, ""
}

// projectVar reports whether the word starts with a project variable.
func projectVar(w *syntax.Word) bool {
	if len(w.Parts) == 0 {
		return false
	}
	p, ok := w.Parts[0].(*syntax.ParamExp)
	if !ok {
		if q, isQ := w.Parts[0].(*syntax.DblQuoted); isQ && len(q.Parts) > 0 {
			p, ok = q.Parts[0].(*syntax.ParamExp)
		}
	}
	return ok && p.Param != nil && slices.Contains(projectVars, p.Param.Value)
}

// literal is the value of a word quoted or not that holds no expansion.
func literal(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if strings.Contains(p.Value, `\`) {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				lit, ok := q.(*syntax.Lit)
				if !ok || strings.Contains(lit.Value, `\`) {
					return "", false
				}
				b.WriteString(lit.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

func simpleParam(p *syntax.ParamExp) bool {
	return p.Param != nil && p.Flags == nil && !p.Excl && !p.Length && !p.Width && !p.IsSet &&
		p.NestedParam == nil && p.Index == nil && len(p.Modifiers) == 0 && p.Slice == nil &&
		p.Repl == nil && p.Names == 0 && p.Exp == nil
}
