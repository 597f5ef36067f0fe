package shellcmd

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Scripts the line writes. `echo 'rm -rf /' > x.sh && bash x.sh` runs
// what the line shows as surely as `bash -c 'rm -rf /'`: a file that a
// command writes with text the line shows (echo, printf, cat of a
// here-document, tee of a literal) is remembered, and a shell that runs
// it (bash x.sh, source x.sh, ./x.sh, sh < x.sh) reads that text as a
// nested program. A file written with anything else is forgotten.

// fileKey is where a file named t lands, for the folder sc runs in; ""
// when that is known only at run time.
func fileKey(sc *scope, t string) string {
	if t == "" || sc.frame.unknown && !strings.HasPrefix(t, "/") {
		return ""
	}
	return path.Clean(joinDir(sc.frame.dir, t))
}

// writes remembers what a statement's output redirections write.
func (w *walker) writes(s *syntax.Stmt, sc *scope) {
	var text *feed
	for _, rd := range s.Redirs {
		if rd.N != nil && rd.N.Value != "1" {
			continue
		}
		switch rd.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll:
		default:
			continue
		}
		a := w.render(sc, rd.Word)
		key := fileKey(sc, a.text)
		if a.dyn || key == "" {
			continue
		}
		if text == nil {
			// What the command prints, its input redirections kept and
			// its output ones dropped.
			c := *s
			c.Redirs = nil
			for _, r := range s.Redirs {
				if r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc || r.Op == syntax.WordHdoc {
					c.Redirs = append(c.Redirs, r)
				}
			}
			text = w.output(&c, sc)
		}
		w.wrote(key, text, rd.Op == syntax.AppOut || rd.Op == syntax.AppAll)
	}
}

// wrote remembers a file's text, or forgets it when the text is unknown.
func (w *walker) wrote(key string, f *feed, appends bool) {
	if !f.known || len(f.text) > w.budget {
		delete(w.files, key)
		return
	}
	old, had := w.files[key]
	if appends && !had {
		delete(w.files, key) // added to what the line does not show
		return
	}
	if w.files == nil {
		w.files = map[string]string{}
	}
	if !appends {
		old = ""
	}
	w.budget -= len(f.text)
	w.files[key] = old + f.text
}

// tee remembers the files tee writes with a literal input.
func (w *walker) tee(cl *call, args []arg) {
	appends := false
	for _, a := range args[1:] {
		switch {
		case a.text == "-a" || a.text == "--append":
			appends = true
		case strings.HasPrefix(a.text, "-"):
		case !a.dyn:
			if key := fileKey(cl.sc, a.text); key != "" {
				in := cl.stdin
				if in == nil {
					in = &feed{}
				}
				w.wrote(key, in, appends)
			}
		}
	}
}

// script is the text of a file the line wrote, by the name a command
// gives it.
func (w *walker) script(sc *scope, a arg) (string, bool) {
	if a.dyn || len(w.files) == 0 {
		return "", false
	}
	text, ok := w.files[fileKey(sc, a.text)]
	return text, ok
}

// runScript reads a script the line wrote that args run: the word at i
// names it. It reports whether it did.
func (w *walker) runScript(cl *call, args []arg, i int, how string, sameShell bool) bool {
	if i >= len(args) {
		return false
	}
	text, ok := w.script(cl.sc, args[i])
	if !ok {
		return false
	}
	for _, a := range args {
		if a.w != nil {
			cl.dropped = append(cl.dropped, a.w)
		}
	}
	w.dropped(cl, cl.sc.parent, cl.sc.inArg)
	w.nest(cl, text, strings.TrimSpace(how+" "+args[i].text), sameShell)
	return true
}
