package shellcmd

import (
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// walker collects the commands of one line.
type walker struct {
	out    []Command
	err    error
	pipes  int
	budget int               // bytes of nested programs still to be parsed
	files  map[string]string // scripts the line writes, by path (files.go)
	cwd    string            // the folder the line runs in, absolute, or "" (CommandsIn)
}

func newWalker(line string) *walker {
	return &walker{budget: budgetFactor*len(line) + budgetBase}
}

func (w *walker) fail(err *ParseError) {
	if w.err == nil {
		w.err = err
	}
}

func (w *walker) newPipe() int {
	w.pipes++
	return w.pipes
}

// frame is the shell state a list of commands shares and a subshell
// copies: the working folder.
type frame struct {
	dir     string
	unknown bool
	vars    map[string]known // the variables the line sets (vars.go)
	tooMany bool             // one was given more values than maxValues
}

// cd follows a cd, pushd or popd run in this frame.
func (f *frame) cd(c Command) {
	ops, at := []string{}, []int{}
	for i := 1; i < len(c.Args); i++ {
		a := c.Args[i]
		if a == "--" {
			for j := i + 1; j < len(c.Args); j++ {
				ops, at = append(ops, c.Args[j]), append(at, j)
			}
			break
		}
		if len(a) > 1 && a[0] == '-' && !c.Dynamic[i] {
			continue
		}
		ops, at = append(ops, a), append(at, i)
	}
	switch {
	case c.Name() == "popd" || c.Name() == "pushd" && len(ops) == 0:
		f.dir, f.unknown = "", true
	case len(ops) == 0:
		f.dir, f.unknown = "~", false
	case c.Dynamic[at[0]] || ops[0] == "-" || strings.HasPrefix(ops[0], "+"):
		f.dir, f.unknown = "", true
	default:
		f.dir = joinDir(f.dir, ops[0])
	}
}

// pwd is $PWD where sc runs, when the walker knows the folder the line
// runs in (CommandsIn) and the line did not lose track of it: that
// folder, or the one the line changed to.
func (w *walker) pwd(sc *scope) (string, bool) {
	f := sc.frame
	if w.cwd == "" || f.unknown {
		return "", false
	}
	return joinDir(w.cwd, f.dir), true
}

// joinDir is dir, where the folder changed to, changed again to t.
func joinDir(dir, t string) string {
	if dir == "" || strings.HasPrefix(t, "/") || strings.HasPrefix(t, "~") || t == "$HOME" || strings.HasPrefix(t, "$HOME/") {
		return t
	}
	return path.Join(dir, t)
}

// feed is what a command reads on its standard input, when it matters:
// the text of a here-document, a here-string or a literal piped in
// (known), or where an unknown one comes from (kind).
type feed struct {
	text  string
	known bool
	kind  string
}

// scope is what the commands of a part of the tree inherit.
type scope struct {
	src           string // the program the tree was parsed from
	via           []string
	sudo          bool
	container     *Container // the container the commands run in, or nil
	depth         int        // nesting of programs parsed from strings
	parent, inArg int
	frame         *frame
	stdin         *feed      // nil: the call's own
	redirs        []Redirect // of the compound commands around
	pipe          int        // the pipeline the commands are in; 0: each its own
	cond          bool       // this part may or may not run: what it sets, it may set
	bind          map[string]bound
}

// sub is a scope whose folder changes stay in it: a subshell, a pipeline
// stage, a substitution, a function body.
func (sc *scope) sub() *scope {
	c := *sc
	f := *sc.frame
	f.vars = maps.Clone(f.vars)
	c.frame = &f
	return &c
}

// maybe is sc for a part of the line that may or may not run: the body
// of an if, a loop or a case, the right of && and ||.
func (sc *scope) maybe() *scope {
	c := *sc
	c.cond = true
	return &c
}

func push(list []string, s string) []string {
	return append(list[:len(list):len(list)], s)
}

// program parses src and walks its statements. how, when not "", is the
// wrapper that runs it (bash -c, eval …): the program is then nested and
// counted against the depth and byte budgets.
func (w *walker) program(src string, sc *scope, how string) {
	if how != "" {
		if sc.depth+1 > maxDepth {
			w.fail(&ParseError{Nested: sc.depth + 1, Msg: "programs nested too deep"})
			return
		}
		if len(src) > w.budget {
			w.fail(&ParseError{Nested: sc.depth + 1, Msg: "nested programs too long"})
			return
		}
		w.budget -= len(src)
		c := *sc
		c.depth++
		c.via = push(sc.via, how)
		sc = &c
	}
	c := *sc
	c.src = src
	sc = &c
	walked := 0 // where the statements walked end
	var failed *ParseError
	defer func() {
		// A fault of the parser's is this line's problem, not the call's.
		if p := recover(); p != nil {
			w.fail(&ParseError{Nested: sc.depth, Msg: fmt.Sprint("parser failed: ", p)})
		}
	}()
	for s, err := range newParser().StmtsSeq(strings.NewReader(src)) {
		// The loop runs to the iterator's end: StmtsSeq may go on after
		// an error, and panics when its loop was left early.
		switch {
		case failed != nil:
		case err != nil:
			failed = parseError(err, sc.depth)
		default:
			w.stmt(s, sc)
			walked = int(s.End().Offset())
		}
	}
	if failed != nil {
		w.fail(failed)
		w.salvage(src[walked:], failed.offset-walked, sc)
	}
}

func newParser() *syntax.Parser {
	return syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(false))
}

// salvage walks what comes before a syntax error in the statement that
// holds it (`rm -rf / && echo "x` runs rm -rf / before it fails): the text
// up to the error is parsed again, a few times at most, each time shorter.
func (w *walker) salvage(src string, end int, sc *scope) {
	for range 3 {
		if end <= 0 || end > len(src) {
			return
		}
		src = src[:end]
		f, err := newParser().Parse(strings.NewReader(src), "")
		if err == nil {
			c := *sc
			c.src = src
			w.stmts(f.Stmts, &c)
			return
		}
		next := parseError(err, sc.depth).offset
		if next >= end {
			return
		}
		end = next
	}
}

func parseError(err error, depth int) *ParseError {
	pe := &ParseError{Nested: depth, Msg: err.Error(), offset: -1}
	var se syntax.ParseError
	var le syntax.LangError
	switch {
	case errors.As(err, &se):
		pe.Line, pe.Col, pe.Msg, pe.offset = int(se.Pos.Line()), int(se.Pos.Col()), se.Text, int(se.Pos.Offset())
	case errors.As(err, &le):
		pe.Line, pe.Col, pe.Msg, pe.offset = int(le.Pos.Line()), int(le.Pos.Col()), le.Feature+" is not bash", int(le.Pos.Offset())
	}
	return pe
}

func (w *walker) stmts(list []*syntax.Stmt, sc *scope) {
	for _, s := range list {
		w.stmt(s, sc)
	}
}

func (w *walker) stmt(s *syntax.Stmt, sc *scope) {
	if s == nil {
		return
	}
	if s.Background || s.Coprocess || s.Disown {
		sc = sc.sub() // run in a subshell of their own
	}
	if ce, ok := s.Cmd.(*syntax.CallExpr); ok || s.Cmd == nil {
		if ce == nil {
			ce = &syntax.CallExpr{}
		}
		w.call(ce, s.Redirs, sc)
		if len(s.Redirs) > 0 {
			w.writes(s, sc)
		}
		return
	}
	if len(s.Redirs) > 0 {
		c := *sc
		c.redirs = append(sc.redirs[:len(sc.redirs):len(sc.redirs)], w.redirects(s.Redirs, sc)...)
		if in := w.stdinOf(s.Redirs, sc); in != nil {
			c.stdin = in
		}
		sc = &c
		for _, r := range s.Redirs {
			w.subs(r, sc, sc.parent, -1)
		}
	}
	switch c := s.Cmd.(type) {
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			pipe := sc.pipe
			if pipe == 0 {
				pipe = w.newPipe()
			}
			left := sc.sub()
			left.pipe = pipe
			w.stmt(c.X, left)
			right := sc.sub()
			right.pipe = pipe
			right.stdin = w.output(c.X, left)
			w.stmt(c.Y, right)
			return
		}
		w.stmt(c.X, sc)
		w.stmt(c.Y, sc.maybe())
	case *syntax.Subshell:
		in := sc.sub()
		in.via = push(sc.via, "()")
		w.stmts(c.Stmts, in)
	case *syntax.Block:
		w.stmts(c.Stmts, sc)
	case *syntax.IfClause:
		w.stmts(c.Cond, sc)
		w.stmts(c.Then, sc.maybe())
		for c = c.Else; c != nil; c = c.Else {
			w.stmts(c.Cond, sc.maybe())
			w.stmts(c.Then, sc.maybe())
		}
	case *syntax.WhileClause:
		w.stmts(c.Cond, sc.maybe())
		w.stmts(c.Do, sc.maybe())
	case *syntax.ForClause:
		w.subs(c.Loop, sc, sc.parent, sc.inArg)
		body := sc.maybe()
		if it, ok := c.Loop.(*syntax.WordIter); ok && it.Name != nil {
			// The body reads the loop's variable as each of its words.
			k := known{open: !it.InPos.IsValid()} // for x; do: the arguments
			for _, a := range w.words(sc, it.Items) {
				if a.dyn {
					k.open = true
				} else {
					k.vals = union(k.vals, []string{a.text})
				}
			}
			name := it.Name.Value
			before, had := sc.frame.vars[name]
			loop := *sc
			loop.cond = false
			loop.set(name, k)
			w.stmts(c.Do, body)
			if (sc.cond || len(it.Items) == 0) && sc.frame.vars != nil {
				// The loop may not run: what the variable held before
				// stays possible.
				after := sc.frame.vars[name]
				sc.frame.vars[name] = known{vals: union(after.vals, before.vals), open: after.open || before.open || !had}
			}
			break
		}
		w.stmts(c.Do, body)
	case *syntax.CaseClause:
		w.subs(c.Word, sc, sc.parent, sc.inArg)
		for _, it := range c.Items {
			for _, p := range it.Patterns {
				w.subs(p, sc, sc.parent, sc.inArg)
			}
			w.stmts(it.Stmts, sc.maybe())
		}
	case *syntax.FuncDecl:
		// The body runs if the function is called, which the line may do
		// in a way not followed here: it counts as run, and what it sets
		// may be set.
		body := sc.sub()
		body.cond = true
		w.stmt(c.Body, body)
		sc.frame.mayRun(body.frame)
	case *syntax.ArithmCmd:
		sc.wild()
		w.subs(c.X, sc, sc.parent, sc.inArg)
	case *syntax.TestClause:
		w.subs(c.X, sc, sc.parent, sc.inArg)
	case *syntax.DeclClause:
		w.declare(sc, c)
		words := []*syntax.Word{{Parts: []syntax.WordPart{c.Variant}}}
		for _, a := range c.Args {
			words = append(words, assignWord(a))
		}
		w.call(&syntax.CallExpr{Args: words}, nil, sc)
	case *syntax.LetClause:
		sc.wild()
		args := []arg{{text: "let", unset: "let"}}
		for _, x := range c.Exprs {
			t := w.slice(sc.src, x)
			args = append(args, arg{text: t, unset: t, dyn: true})
		}
		idx := w.emit(&call{sc: sc, via: sc.via, sudo: sc.sudo}, args)
		for _, x := range c.Exprs {
			w.subs(x, sc, idx, -1)
		}
	case *syntax.TimeClause:
		in := *sc
		in.via = push(sc.via, "time")
		w.stmt(c.Stmt, &in)
	case *syntax.CoprocClause:
		in := sc.sub()
		in.via = push(sc.via, "coproc")
		w.stmt(c.Stmt, in)
	case *syntax.TestDecl:
		w.stmt(c.Body, sc.sub())
	default:
		w.fail(&ParseError{Nested: sc.depth, Msg: "a construct this reader does not follow"})
	}
}

// assignWord is an assignment of a declaration (export X=1) as the word
// it is written as.
func assignWord(a *syntax.Assign) *syntax.Word {
	var parts []syntax.WordPart
	if a.Name != nil {
		op := "="
		if a.Append {
			op = "+="
		}
		if a.Naked {
			op = ""
		}
		parts = append(parts, &syntax.Lit{ValuePos: a.Name.ValuePos, ValueEnd: a.Name.ValueEnd, Value: a.Name.Value + op})
	}
	if a.Value != nil {
		parts = append(parts, a.Value.Parts...)
	}
	return &syntax.Word{Parts: parts}
}

// subs walks the command and process substitutions inside node: each is
// a program of its own, nested under parent's word inArg.
func (w *walker) subs(node syntax.Node, sc *scope, parent, inArg int) {
	if node == nil {
		return
	}
	syntax.Walk(node, func(n syntax.Node) bool {
		var how string
		var list []*syntax.Stmt
		switch x := n.(type) {
		case *syntax.CmdSubst:
			how, list = "$()", x.Stmts
			if x.Backquotes {
				how = "``"
			}
		case *syntax.ProcSubst:
			how, list = ">()", x.Stmts
			if x.Op == syntax.CmdIn {
				how = "<()"
			}
		case *syntax.BraceExp: // Walk does not know it
			for _, e := range x.Elems {
				w.subs(e, sc, parent, inArg)
			}
			return false
		default:
			return true
		}
		in := sc.sub()
		in.via = push(sc.via, how)
		in.parent, in.inArg = parent, inArg
		in.stdin, in.redirs, in.pipe = nil, nil, 0
		w.stmts(list, in)
		return false
	})
}

// slice is the source text of a node.
func (w *walker) slice(src string, n syntax.Node) string {
	a, b := int(n.Pos().Offset()), int(n.End().Offset())
	if a < 0 || b > len(src) || a > b {
		return ""
	}
	return src[a:b]
}

// arg is one word of a command: as shown, as it reads when its run-time
// expansions are empty, whether it has such expansions, and the word of
// the tree it comes from (nil for the second and later words of a brace
// expansion, whose substitutions are walked once).
type arg struct {
	text, unset string
	dyn         bool
	w           *syntax.Word
	set         bool // it reads a variable the line sets, with its value
}

// words renders the words of a command, brace expansions expanded.
func (w *walker) words(sc *scope, list []*syntax.Word) []arg {
	out := make([]arg, 0, len(list))
	for _, wd := range list {
		if !syntax.SplitBraces(wd) {
			out = append(out, w.fields(sc, wd)...)
			continue
		}
		var ws []*syntax.Word
		for x, err := range expand.BracesSeq(nil, wd) {
			if err != nil || len(ws) >= maxBraces {
				ws = nil
				w.fail(&ParseError{Nested: sc.depth, Msg: "brace expansion too large"})
				break
			}
			ws = append(ws, x)
		}
		if ws == nil {
			a := w.render(sc, wd)
			a.dyn = true
			out = append(out, a)
			continue
		}
		for i, x := range ws {
			for j, a := range w.fields(sc, x) {
				if i > 0 || j > 0 {
					a.w = nil
				} else {
					a.w = wd
				}
				out = append(out, a)
			}
		}
	}
	return out
}

// render reads one word: quotes removed, $'…' decoded, variables the
// line sets with their values, other variables and substitutions as
// written. It is read as one word, as a redirection's target is.
func (w *walker) render(sc *scope, wd *syntax.Word) arg {
	r := renderer{w: w, sc: sc, src: sc.src, noSplit: true}
	for _, p := range wd.Parts {
		r.part(p, false)
	}
	return arg{text: r.text.String(), unset: r.unset.String(), dyn: r.dyn, w: wd, set: r.set}
}

// fields reads one word of a command as render does, and splits it where
// the shell splits an unquoted variable's value (x="/ /tmp"; rm -rf $x
// deletes two folders). A word that is an unquoted empty value is none.
func (w *walker) fields(sc *scope, wd *syntax.Word) []arg {
	r := renderer{w: w, sc: sc, src: sc.src}
	for _, p := range wd.Parts {
		r.part(p, false)
	}
	out := r.fields
	if r.text.Len() > 0 || r.dyn || len(out) == 0 && (!r.split || r.quoted) {
		out = append(out, arg{text: r.text.String(), unset: r.unset.String(), dyn: r.dyn})
	}
	for i := range out {
		out[i].set = r.set
	}
	if len(out) > 0 {
		out[0].w = wd
	}
	return out
}

type renderer struct {
	w           *walker
	sc          *scope
	src         string
	text, unset strings.Builder
	dyn         bool
	noSplit     bool  // one word: no field splitting (an assignment's value, a redirection)
	fields      []arg // the fields split off before the one being read
	split       bool  // an unquoted value of a variable the line sets was read
	quoted      bool  // the word has quotes
	set         bool  // a variable the line sets was read with its value
}

func (r *renderer) both(s string) {
	r.text.WriteString(s)
	r.unset.WriteString(s)
}

func (r *renderer) runtime(s string) {
	r.text.WriteString(s)
	r.dyn = true
}

func (r *renderer) slice(n syntax.Node) string {
	a, b := int(n.Pos().Offset()), int(n.End().Offset())
	if a < 0 || b > len(r.src) || a > b {
		return "?"
	}
	return r.src[a:b]
}

func (r *renderer) part(p syntax.WordPart, quoted bool) {
	switch x := p.(type) {
	case *syntax.Lit:
		if t, ok := strings.CutPrefix(x.Value, "~+"); ok && !quoted && r.text.Len() == 0 && !r.dyn &&
			(t == "" || t[0] == '/') && !r.sc.frame.unknown {
			// ~+ is $PWD.
			if d, ok := r.w.pwd(r.sc); ok {
				r.value(d, true)
			} else {
				r.value(".", true)
			}
			r.both(unescape(t))
			return
		}
		if quoted {
			r.both(unescapeIn(x.Value, "$`\"\\"))
		} else {
			r.both(unescape(x.Value))
		}
	case *syntax.SglQuoted:
		r.quoted = true
		s := x.Value
		if x.Dollar {
			s, _, _ = expand.Format(nil, s, nil)
			s, _, _ = strings.Cut(s, "\x00")
		}
		r.both(s)
	case *syntax.DblQuoted:
		r.quoted = true
		for _, q := range x.Parts {
			r.part(q, true)
		}
	case *syntax.ParamExp:
		if v, list, ok := r.lineValue(x); ok {
			if len(v) > r.w.budget {
				// x=$x$x doubles what each reading copies: bounded as
				// nested programs are.
				r.w.fail(&ParseError{Nested: r.sc.depth, Msg: "variables set in the line grow too long to follow"})
				v = ""
			}
			r.w.budget -= len(v)
			if list == '@' || list == '*' && !quoted {
				// Each parameter a word of its own, quoted or not.
				for i, p := range strings.Split(v, "\x00") {
					if i > 0 {
						r.cut()
					}
					r.value(p, quoted)
				}
				return
			}
			r.value(strings.ReplaceAll(v, "\x00", " "), quoted) // "$*" joins them
			return
		}
		if x.Param != nil && x.Exp != nil && (x.Exp.Op == syntax.AssignUnset || x.Exp.Op == syntax.AssignUnsetOrNull) {
			r.sc.open(x.Param.Value) // ${x:=v} sets x
		}
		switch {
		case simpleParam(x) && x.Param.Value == "HOME" || homeOr(x):
			r.both("$HOME")
		case simpleParam(x) && x.Param.Value == "PWD" && !r.sc.frame.unknown:
			// The folder the command runs in, when the reader is not told
			// which: "." to it, whatever the line changed it to ($PWD/.. is
			// the folder above).
			r.value(".", quoted)
		case simpleParam(x):
			r.runtime("$" + x.Param.Value)
		case x.Exp != nil && x.Param != nil && x.Index == nil && !x.Excl && !x.Length:
			// ${X:-word} reads word when X is empty, ${X:?} never is.
			r.text.WriteString(r.slice(x))
			r.dyn = true
			switch x.Exp.Op {
			case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
				if x.Exp.Word != nil {
					in := renderer{w: r.w, sc: r.sc, src: r.src, noSplit: true}
					for _, q := range x.Exp.Word.Parts {
						in.part(q, quoted)
					}
					r.unset.WriteString(in.unset.String())
				}
			case syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
				r.unset.WriteString(r.slice(x)) // not empty: the shell stops first
			}
		default:
			r.runtime(r.slice(x))
		}
	case *syntax.ArithmExp:
		if t := r.slice(x); strings.Contains(t, "=") || strings.Contains(t, "++") || strings.Contains(t, "--") {
			r.sc.wild() // $((x=1)), $((x++)) set variables
		}
		r.runtime(r.slice(x))
	case *syntax.CmdSubst:
		// $(echo /) is what echo prints, as it is when piped.
		if len(x.Stmts) == 1 {
			if f := r.w.output(x.Stmts[0], r.sc); f.known && len(f.text) <= r.w.budget {
				r.w.budget -= len(f.text)
				r.value(strings.TrimRight(f.text, "\n"), quoted)
				return
			}
		}
		r.runtime(r.slice(x))
	case *syntax.ProcSubst:
		r.runtime(r.slice(x))
	case *syntax.ExtGlob:
		r.both(x.Op.String() + x.Pattern.Value + ")")
	case *syntax.BraceExp:
		// Left unexpanded (too large): shown as written.
		r.runtime("{")
		sep := ","
		if x.Sequence {
			sep = ".."
		}
		for i, e := range x.Elems {
			if i > 0 {
				r.runtime(sep)
			}
			for _, q := range e.Parts {
				r.part(q, quoted)
			}
		}
		r.runtime("}")
	default:
		r.runtime("?")
	}
}

// homeOr is ${HOME:?}, ${HOME?msg}, ${HOME:-x} or ${HOME-x}: the home
// folder, which is set wherever an agent runs.
func homeOr(p *syntax.ParamExp) bool {
	if p.Param == nil || p.Param.Value != "HOME" || p.Exp == nil || p.Excl || p.Length || p.Index != nil {
		return false
	}
	switch p.Exp.Op {
	case syntax.ErrorUnset, syntax.ErrorUnsetOrNull, syntax.DefaultUnset, syntax.DefaultUnsetOrNull:
		return true
	}
	return false
}

func simpleParam(p *syntax.ParamExp) bool {
	return p.Param != nil && p.Flags == nil && !p.Excl && !p.Length && !p.Width && !p.IsSet &&
		p.NestedParam == nil && p.Index == nil && len(p.Modifiers) == 0 && p.Slice == nil &&
		p.Repl == nil && p.Names == 0 && p.Exp == nil
}

// unescape removes the backslashes of an unquoted literal.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 == len(s) {
			// The program's last byte: bash -c keeps it, a shell reading
			// the program from its input drops it (`rm -rf /\`); read as
			// the second, the one that deletes.
			break
		}
		if s[i] == '\\' {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// unescapeIn removes the backslashes the shell removes in double quotes
// and in a here-document with an unquoted delimiter: before a newline
// (which goes too) and before a byte of special: dollar, backquote and
// backslash, and in double quotes the double quote.
func unescapeIn(s, special string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch {
			case s[i+1] == '\n':
				i++
				continue
			case strings.IndexByte(special, s[i+1]) >= 0:
				i++
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// heredoc reads a here-document's body: literal when its delimiter is
// quoted, else with backslashes and expansions as in double quotes.
func (w *walker) heredoc(sc *scope, rd *syntax.Redirect) arg {
	r := renderer{w: w, sc: sc, src: sc.src, noSplit: true}
	quotedDelim := false
	for _, p := range rd.Word.Parts {
		switch x := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			quotedDelim = true
		case *syntax.Lit:
			quotedDelim = quotedDelim || strings.Contains(x.Value, `\`)
		}
	}
	if rd.Hdoc != nil {
		for _, p := range rd.Hdoc.Parts {
			switch lit, ok := p.(*syntax.Lit); {
			case ok && quotedDelim:
				r.both(lit.Value)
			case ok:
				r.both(unescapeIn(lit.Value, "$`\\"))
			default:
				r.part(p, true)
			}
		}
	}
	return arg{text: r.text.String(), unset: r.unset.String(), dyn: r.dyn, w: rd.Hdoc}
}

// redirects renders a command's redirections.
func (w *walker) redirects(list []*syntax.Redirect, sc *scope) []Redirect {
	out := make([]Redirect, 0, len(list))
	for _, rd := range list {
		op := rd.Op.String()
		if rd.N != nil {
			op = rd.N.Value + op
		}
		a := w.render(sc, rd.Word)
		out = append(out, Redirect{Op: op, Target: a.text, Dynamic: a.dyn})
	}
	return out
}

// stdinOf is what the last input redirection of list feeds, or nil.
func (w *walker) stdinOf(list []*syntax.Redirect, sc *scope) *feed {
	var in *feed
	for _, rd := range list {
		if rd.N != nil && rd.N.Value != "0" {
			continue
		}
		switch rd.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			a := w.heredoc(sc, rd)
			in = &feed{text: a.text, known: !a.dyn, kind: ProgramStdin}
		case syntax.WordHdoc:
			a := w.render(sc, rd.Word)
			in = &feed{text: a.text + "\n", known: !a.dyn, kind: ProgramStdin}
		case syntax.RdrIn:
			in = &feed{kind: ProgramFile}
			if text, ok := w.script(sc, w.render(sc, rd.Word)); ok {
				in = &feed{text: text, known: true, kind: ProgramFile} // sh < x.sh, x.sh written by the line
			}
		case syntax.DplIn, syntax.RdrInOut:
			in = &feed{kind: ProgramStdin}
		}
	}
	return in
}

// output is what a pipeline stage writes, when it is a literal: echo or
// printf of static words, cat of a here-document or here-string.
func (w *walker) output(s *syntax.Stmt, sc *scope) *feed {
	return w.outputOf(s, sc, 0)
}

// maxDecoders is how many decoders in a row a literal may go through and
// still be read (`echo … | base64 -d | rev`): a bound, so that a long
// pipeline, whose every stage asks for what the stages before print, is
// read in linear time.
const maxDecoders = 3

func (w *walker) outputOf(s *syntax.Stmt, sc *scope, depth int) *feed {
	unknown := &feed{kind: ProgramStdin}
	if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && b.Op == syntax.Pipe && len(s.Redirs) == 0 {
		// `echo cm0gLXJmIC8= | base64 -d`: a literal through a decoder
		// is the decoded text, known as well.
		if depth >= maxDecoders {
			return unknown
		}
		if in := w.outputOf(b.X, sc, depth+1); in.known {
			return w.decoded(b.Y, sc, in.text)
		}
		return unknown
	}
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return unknown
	}
	for _, rd := range s.Redirs {
		if rd.Op != syntax.Hdoc && rd.Op != syntax.DashHdoc && rd.Op != syntax.WordHdoc {
			return unknown
		}
	}
	args := make([]string, 0, len(ce.Args))
	for _, wd := range ce.Args {
		a := w.render(sc, wd)
		if a.dyn || strings.ContainsAny(a.text, "{*?[") {
			return unknown
		}
		args = append(args, a.text)
	}
	switch base(args[0]) {
	case "echo":
		args = args[1:]
		newline, escapes := "\n", false
		for len(args) > 0 && len(args[0]) > 1 && strings.Trim(args[0], "-neE") == "" && args[0][0] == '-' {
			if strings.Contains(args[0], "n") {
				newline = ""
			}
			escapes = escapes || strings.Contains(args[0], "e")
			args = args[1:]
		}
		text := strings.Join(args, " ")
		if escapes {
			var err error
			if text, _, err = expand.Format(nil, "%b", []string{text}); err != nil {
				return unknown
			}
		}
		return &feed{text: text + newline, known: true}
	case "printf":
		args = args[1:]
		if len(args) > 0 && args[0] == "--" {
			args = args[1:]
		}
		if len(args) == 0 || strings.HasPrefix(args[0], "-") {
			return unknown
		}
		text, _, err := expand.Format(nil, args[0], args[1:])
		if err != nil {
			return unknown
		}
		return &feed{text: text, known: true}
	case "cat":
		if len(args) > 1 {
			return unknown
		}
		if in := w.stdinOf(s.Redirs, sc); in != nil && in.known {
			return in
		}
	case "base64", "xxd", "rev":
		// A decoder of a here-string or a here-document.
		if in := w.stdinOf(s.Redirs, sc); in != nil && in.known {
			if text, ok := decode(args, in.text); ok {
				return &feed{text: text, known: true}
			}
		}
	case "pwd":
		// pwd -P would resolve links the reader cannot see.
		if d, ok := w.pwd(sc); ok && (len(args) == 1 || len(args) == 2 && args[1] == "-L") {
			return &feed{text: d + "\n", known: true}
		}
	case "dirname":
		args = args[1:]
		if len(args) > 0 && args[0] == "--" {
			args = args[1:]
		}
		// A relative "." may stand for $PWD when the reader is not told
		// the folder, whose dirname is the folder above, not ".".
		if len(args) == 1 && !strings.HasPrefix(args[0], "-") && args[0] != "." && args[0] != ".." &&
			!strings.HasPrefix(args[0], "./") && !strings.HasPrefix(args[0], "../") {
			return &feed{text: dirname(args[0]) + "\n", known: true}
		}
	}
	return unknown
}

// decoded is what the pipeline stage s prints when fed the known text
// in: the decoders that hide a program or a path from a simpler reader
// (decode), and cat.
func (w *walker) decoded(s *syntax.Stmt, sc *scope, in string) *feed {
	unknown := &feed{kind: ProgramStdin}
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 || len(s.Redirs) > 0 || len(ce.Assigns) > 0 {
		return unknown
	}
	args := make([]string, 0, len(ce.Args))
	for _, wd := range ce.Args {
		a := w.render(sc, wd)
		if a.dyn {
			return unknown
		}
		args = append(args, a.text)
	}
	if base(args[0]) == "cat" && len(args) == 1 {
		return &feed{text: in, known: true}
	}
	if text, ok := decode(args, in); ok {
		return &feed{text: text, known: true}
	}
	return unknown
}

// decode is what a decoder given args prints for the input in: base64
// -d (--decode, macOS's -D), with -i (ignore garbage) or not; xxd -r -p
// (plain hex); rev. ok is false for other programs and options (base32,
// whose package would cost every call its start-up tables, is left to
// the run: unsure), and for input the decoder would refuse.
func decode(args []string, in string) (string, bool) {
	name, opts := base(args[0]), args[1:]
	flag := func(want ...string) bool {
		for _, o := range opts {
			if !slices.Contains(want, o) {
				return false
			}
		}
		return true
	}
	switch name {
	case "base64":
		if !slices.ContainsFunc(opts, func(o string) bool { return o == "-d" || o == "--decode" || o == "-D" || o == "-di" || o == "-id" }) ||
			!flag("-d", "--decode", "-D", "-i", "--ignore-garbage", "-di", "-id") {
			return "", false
		}
		text := strings.Join(strings.Fields(in), "")
		b, err := base64.StdEncoding.DecodeString(text)
		if err != nil {
			b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(text, "="))
		}
		return string(b), err == nil
	case "xxd":
		if !flag("-r", "-p", "-rp", "-pr", "-ps", "-plain", "-revert") || !slices.ContainsFunc(opts, func(o string) bool { return strings.Contains(o, "r") }) ||
			!slices.ContainsFunc(opts, func(o string) bool { return strings.Contains(o, "p") }) {
			return "", false
		}
		b, err := hex.DecodeString(strings.Join(strings.Fields(in), ""))
		return string(b), err == nil
	case "rev":
		if len(opts) > 0 {
			return "", false
		}
		lines := strings.SplitAfter(in, "\n")
		for i, l := range lines {
			body := strings.TrimSuffix(l, "\n")
			r := []rune(body)
			slices.Reverse(r)
			lines[i] = string(r) + l[len(body):]
		}
		return strings.Join(lines, ""), true
	}
	return "", false
}

// dirname is what POSIX dirname prints for p: p without its last
// component and the slashes around it.
func dirname(p string) string {
	q := strings.TrimRight(p, "/")
	switch {
	case p == "":
		return "."
	case q == "":
		return "/"
	}
	i := strings.LastIndexByte(q, '/')
	if i < 0 {
		return "."
	}
	if q = strings.TrimRight(q[:i], "/"); q == "" {
		return "/"
	}
	return q
}
