package shellcmd

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Variables the line sets. `x=/; rm -rf $x` deletes the root folder as
// surely as `rm -rf /`: a variable the line itself sets to a value it
// shows is read with that value. Where the line may or may not set it
// (in an if, a loop, after &&), it may hold any of the values it is
// given, and what it held before; a command is then read once for each
// (`for d in /usr /tmp; do rm -rf $d; done` is two deletes). A variable
// the line does not set, or sets to what only the run shows (`x=$(pwd)`,
// `read x`), is known only at run time, as before.

// known is what a variable the line sets may hold where it is read.
type known struct {
	vals []string // the values the line gives it
	open bool     // it may also hold one the line does not show
}

// maxValues bounds the values one variable may hold, and the readings of
// one command (the combinations of its variables' values): past it, the
// line is more than this reader follows, and the policies are unsure.
const maxValues = 64

// maxVars bounds the variables one frame keeps: each subshell copies
// them. Past it, the line is more than this reader follows.
const maxVars = 128

// bound is a variable's value in one reading of a command: known or not.
type bound struct {
	val   string
	known bool
}

// lookup is the value of a variable where sc reads it, when the line
// gives it one value only (or the reading being made binds it to one).
func (sc *scope) lookup(name string) (string, bool) {
	if b, ok := sc.bind[name]; ok {
		return b.val, b.known
	}
	if k, ok := sc.frame.vars[name]; ok && !k.open && len(k.vals) == 1 {
		return k.vals[0], true
	}
	return "", false
}

// set gives a variable what an assignment may give it. In a part of the
// line that may not run (sc.cond), the values it had stay possible.
func (sc *scope) set(name string, k known) {
	f := sc.frame
	if sc.cond {
		old, had := f.vars[name]
		k = known{vals: union(old.vals, k.vals), open: k.open || old.open || !had}
	}
	if _, had := f.vars[name]; len(k.vals) > maxValues || !had && len(f.vars) >= maxVars {
		f.tooMany = true
		return
	}
	if f.vars == nil {
		f.vars = map[string]known{}
	}
	f.vars[name] = k
}

// open makes a variable known only at run time (read x, unset x,
// ((x++))); the values the line gave it stay possible.
func (sc *scope) open(name string) {
	if k, ok := sc.frame.vars[name]; ok {
		k.open = true
		sc.frame.vars[name] = k
	}
}

// wild makes every variable the line sets known only at run time: a
// command ran that may set any of them (source, eval of what only the
// run shows).
func (sc *scope) wild() {
	for name := range sc.frame.vars {
		sc.open(name)
	}
}

// exported is the frame a new shell started by this one begins with: the
// variables set here may be exported to it or not (open), and those given
// to the command itself (x=/ bash -c …, env x=/ …) are set.
func (f *frame) exported(given []assigned) {
	for name := range f.vars {
		k := f.vars[name]
		k.open = true
		f.vars[name] = k
	}
	for _, a := range given {
		if f.vars == nil {
			f.vars = map[string]known{}
		}
		if a.known {
			f.vars[a.name] = known{vals: []string{a.val}}
		} else {
			f.vars[a.name] = known{open: true}
		}
	}
}

// mayRun adds to f what a part of the line that may or may not run set
// in its frame, from: a function body, run when it is called.
func (f *frame) mayRun(from *frame) {
	for name, k := range from.vars {
		old, had := f.vars[name]
		if had && slices.Equal(old.vals, k.vals) && old.open == k.open {
			continue
		}
		if f.vars == nil {
			f.vars = map[string]known{}
		}
		f.vars[name] = known{vals: union(old.vals, k.vals), open: k.open || old.open || !had}
	}
	f.tooMany = f.tooMany || from.tooMany
}

func union(a, b []string) []string {
	out := slices.Clip(a)
	for _, v := range b {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// assigned is a variable given to one command (x=/ cmd, env x=/ cmd).
type assigned struct {
	name, val string
	known     bool
}

// bindings are the readings of a command whose words read variables the
// line gives several values: one for each combination of their values
// (and of "known only at run time", for a variable that may also hold
// another). A command that reads none is read once, with no binding. ok
// is false past maxValues readings.
func (w *walker) bindings(sc *scope, ce *syntax.CallExpr, redirs []*syntax.Redirect) (out []map[string]bound, ok bool) {
	if len(sc.frame.vars) == 0 {
		return oneReading, !sc.frame.tooMany // most lines set none: nothing to walk or allocate
	}
	nodes := make([]syntax.Node, 0, len(ce.Args)+len(ce.Assigns)+len(redirs))
	for _, a := range ce.Args {
		nodes = append(nodes, a)
	}
	for _, a := range ce.Assigns {
		nodes = append(nodes, a)
	}
	for _, rd := range redirs {
		nodes = append(nodes, rd)
	}
	var names []string
	for _, n := range nodes {
		syntax.Walk(n, func(n syntax.Node) bool {
			switch x := n.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst:
				return false // programs of their own, read with their own bindings
			case *syntax.ParamExp:
				if x.Param == nil || slices.Contains(names, x.Param.Value) {
					break
				}
				if _, ok := sc.bind[x.Param.Value]; ok {
					break
				}
				if k, ok := sc.frame.vars[x.Param.Value]; ok && (len(k.vals) > 1 || k.open && len(k.vals) > 0) {
					names = append(names, x.Param.Value)
				}
			}
			return true
		})
	}
	out = []map[string]bound{nil}
	for _, name := range names {
		k := sc.frame.vars[name]
		choices := make([]bound, 0, len(k.vals)+1)
		for _, v := range k.vals {
			choices = append(choices, bound{v, true})
		}
		if k.open {
			choices = append(choices, bound{})
		}
		if len(out)*len(choices) > maxValues {
			return nil, false
		}
		next := make([]map[string]bound, 0, len(out)*len(choices))
		for _, b := range out {
			for _, c := range choices {
				m := maps.Clone(sc.bind)
				if m == nil {
					m = map[string]bound{}
				}
				maps.Copy(m, b)
				m[name] = c
				next = append(next, m)
			}
		}
		out = next
	}
	return out, !sc.frame.tooMany
}

// oneReading is the readings of a command that reads no variable the
// line sets to several values: one, with no binding. Never written to.
var oneReading = []map[string]bound{nil}

// withBind is sc for one reading of a command.
func withBind(sc *scope, b map[string]bound) *scope {
	if b == nil {
		return sc
	}
	c := *sc
	c.bind = b
	return &c
}

// assign gives the variables of a statement that only assigns (x=/, a=1
// b=$a) their values, in order, over all readings of the statement.
func (w *walker) assign(sc *scope, list []*syntax.Assign, binds []map[string]bound) {
	for _, a := range list {
		if a.Name == nil {
			continue
		}
		name := a.Name.Value
		if a.Index != nil || a.Naked || a.Array != nil && a.Append {
			sc.open(name)
			continue
		}
		var k known
		for _, b := range binds {
			var v arg
			if a.Array != nil {
				v = w.array(withBind(sc, b), a.Array)
			} else {
				v = w.value(withBind(sc, b), a.Value)
			}
			switch {
			case v.dyn:
				k.open = true
			case a.Append:
				old, had := sc.frame.vars[name]
				if !had || old.open {
					k.open = true
				}
				for _, o := range old.vals {
					k.vals = union(k.vals, []string{o + v.text})
				}
			default:
				k.vals = union(k.vals, []string{v.text})
			}
		}
		sc.set(name, k)
	}
}

// value reads an assignment's value: as a word, without field splitting.
func (w *walker) value(sc *scope, wd *syntax.Word) arg {
	if wd == nil {
		return arg{}
	}
	r := renderer{w: w, sc: sc, src: sc.src, noSplit: true}
	for _, p := range wd.Parts {
		r.part(p, false)
	}
	return arg{text: r.text.String(), unset: r.unset.String(), dyn: r.dyn}
}

// array reads an array's elements, (rm -rf /): its value holds them
// joined by NUL bytes, as the positional parameters are; an element with
// an index ([3]=x) is not followed.
func (w *walker) array(sc *scope, a *syntax.ArrayExpr) arg {
	var words []*syntax.Word
	for _, e := range a.Elems {
		if e.Index != nil || e.Value == nil {
			return arg{dyn: true}
		}
		words = append(words, e.Value)
	}
	var elems []string
	for _, x := range w.words(sc, words) {
		if x.dyn {
			return arg{dyn: true}
		}
		elems = append(elems, x.text)
	}
	return arg{text: strings.Join(elems, "\x00")}
}

// declare reads export, declare, local, readonly and typeset: their
// assignments set variables; with options (-i, -n, -a …) what they set
// is known only at run time, as is a name declared without a value.
func (w *walker) declare(sc *scope, c *syntax.DeclClause) {
	opts := false
	for _, a := range c.Args {
		switch {
		case a.Name == nil:
			opts = true // an option word: -i, -x, -n …
		case opts || a.Naked || a.Array != nil || a.Index != nil:
			sc.open(a.Name.Value)
		default:
			w.assign(sc, []*syntax.Assign{a}, []map[string]bound{nil})
		}
	}
}

// setsVars makes the variables a command may set known only at run time:
// read, mapfile, getopts, printf -v, unset name theirs; source, . and let
// may set any.
func setsVars(sc *scope, c Command) {
	if len(sc.frame.vars) == 0 && c.Name() != "set" && c.Name() != "printf" {
		return
	}
	switch c.Name() {
	case "source", ".", "let":
		sc.wild()
	case "set":
		positional(sc, c)
	case "printf":
		if len(c.Args) > 3 && c.Args[1] == "-v" && !c.Dynamic[2] {
			// printf -v x '%s' /: x is what printf would print.
			v, _, err := expand.Format(nil, c.Args[3], c.Args[4:])
			if err == nil && !slices.Contains(c.Dynamic[3:], true) {
				sc.set(c.Args[2], known{vals: []string{v}})
			} else {
				sc.set(c.Args[2], known{open: true})
			}
			return
		}
		fallthrough
	case "read", "mapfile", "readarray", "getopts", "unset", "cd", "pushd", "popd":
		for _, a := range c.Args[1:] {
			sc.open(a)
		}
		sc.open("REPLY")
		sc.open("PWD")
		sc.open("OLDPWD")
	}
}

// value adds a value the line shows (a variable's, a substitution's
// output) to the word being read: as it is in quotes, split unquoted.
func (r *renderer) value(v string, quoted bool) {
	r.set = true
	if quoted {
		r.both(v)
		return
	}
	r.split = true
	r.splitValue(v)
}

// splitValue adds an unquoted expansion's value to the word being read:
// split into fields at the characters of IFS, as the shell splits it.
func (r *renderer) splitValue(v string) {
	if r.noSplit {
		r.both(v)
		return
	}
	ifs, ok := r.sc.lookup("IFS")
	if !ok {
		if _, set := r.sc.frame.vars["IFS"]; set {
			ifs = " \t\n,:;|/=-" // set to what only the run shows: every likely separator
		} else {
			ifs = " \t\n"
		}
	}
	for {
		i := strings.IndexAny(v, ifs)
		if i < 0 {
			r.both(v)
			return
		}
		r.both(v[:i])
		r.cut()
		v = v[i+1:]
	}
}

// cut ends the field being read (if it has anything) and starts the next.
func (r *renderer) cut() {
	if r.text.Len() == 0 && !r.dyn {
		return
	}
	r.fields = append(r.fields, arg{text: r.text.String(), unset: r.unset.String(), dyn: r.dyn})
	r.text.Reset()
	r.unset.Reset()
	r.dyn = false
}

// paramValue is the value of a parameter expansion other than a plain $x
// (${x:-/}, ${x%/*}, ${x}) whose variables all have a known value here,
// as mvdan.cc/sh's expand reads it with those values; ok is false for one
// that reads a variable known only at run time, or that expand refuses.
func (r *renderer) paramValue(x *syntax.ParamExp) (string, bool) {
	var env []string
	ok := true
	syntax.Walk(x, func(n syntax.Node) bool {
		switch y := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp:
			ok = false
		case *syntax.ParamExp:
			if y.Param == nil {
				ok = false
				break
			}
			v, known := r.lookup(y.Param.Value)
			if !known {
				ok = false
			}
			env = append(env, y.Param.Value+"="+v)
		}
		return ok
	})
	if !ok {
		return "", false
	}
	if x.Exp != nil && (x.Exp.Op == syntax.AssignUnset || x.Exp.Op == syntax.AssignUnsetOrNull) {
		return "", false // ${x:=v} sets x: read as before
	}
	cfg := &expand.Config{Env: expand.ListEnviron(env...)}
	v, err := expand.Literal(cfg, &syntax.Word{Parts: []syntax.WordPart{x}})
	return v, err == nil
}

// lineValue is the value of a parameter expansion that reads only
// variables the line sets, each to one value where it is read.
//
// A list (an array, the positional parameters) holds its words joined by
// NUL bytes: list is '@' when each is a word of its own ("$@",
// "${a[@]}"), '*' when they are joined ("$*", "${a[*]}"); $a and
// ${a[0]} are its first.
func (r *renderer) lineValue(x *syntax.ParamExp) (v string, list byte, ok bool) {
	if x.Param == nil || x.Excl || x.Names != 0 ||
		len(r.sc.frame.vars) == 0 && len(r.sc.bind) == 0 && (r.w.cwd == "" || !mentionsPWD(x)) {
		return "", 0, false
	}
	name := x.Param.Value
	if x.Index != nil {
		i := *x
		i.Index = nil
		if !simpleParam(&i) {
			return "", 0, false
		}
		v, ok = r.sc.lookup(name)
		lit, isLit := x.Index.(*syntax.Word)
		switch {
		case !ok || !isLit:
			return "", 0, false
		case lit.Lit() == "@" || lit.Lit() == "*":
			return v, lit.Lit()[0], true
		}
		n, err := strconv.Atoi(lit.Lit())
		elems := strings.Split(v, "\x00")
		if err != nil || n < 0 {
			return "", 0, false
		}
		if n >= len(elems) {
			return "", 0, true
		}
		return elems[n], 0, true
	}
	if simpleParam(x) {
		v, ok = r.lookup(name)
		switch {
		case !ok:
			return "", 0, false
		case name == "@" || name == "*":
			return v, name[0], true
		}
		first, _, _ := strings.Cut(v, "\x00")
		return first, 0, true
	}
	v, ok = r.paramValue(x)
	return v, 0, ok
}

// lookup is sc.lookup, and $PWD where the line does not set it: the
// folder the walker knows it runs in (walker.pwd).
func (r *renderer) lookup(name string) (string, bool) {
	if name == "PWD" {
		_, set := r.sc.frame.vars[name]
		if _, bound := r.sc.bind[name]; !set && !bound {
			return r.w.pwd(r.sc)
		}
	}
	return r.sc.lookup(name)
}

// mentionsPWD reports whether a parameter expansion reads $PWD.
func mentionsPWD(x *syntax.ParamExp) bool {
	found := false
	syntax.Walk(x, func(n syntax.Node) bool {
		if y, ok := n.(*syntax.ParamExp); ok && y.Param != nil && y.Param.Value == "PWD" {
			found = true
		}
		return !found
	})
	return found
}

// positional reads `set -- a b` (and `set a b`, `set -e -- a b`): the
// positional parameters, which "$@" runs as a command (set -- rm -rf /;
// "$@"). "@" and "*" hold them joined by NUL bytes, which no argument
// holds.
func positional(sc *scope, c Command) {
	args := c.Args[1:]
	dyn := c.Dynamic[1:]
	i := 0
	for i < len(args) && !dyn[i] && len(args[i]) > 0 && (args[i][0] == '-' || args[i][0] == '+') && args[i] != "--" && args[i] != "-" {
		if args[i] == "-o" || args[i] == "+o" {
			i++ // its option's name
		}
		i++
	}
	switch {
	case i < len(args) && (args[i] == "--" || args[i] == "-"):
		i++
	case i == len(args) && i > 0:
		return // only options: the parameters stay
	}
	setParams(sc, args[i:], !slices.Contains(dyn[i:], true))
}

// setParams sets the positional parameters: "@" and "*" (joined by NUL
// bytes), "1" to "9"; known only at run time unless sure.
func setParams(sc *scope, ps []string, sure bool) {
	set := func(name, v string) {
		if sure {
			sc.set(name, known{vals: []string{v}})
		} else {
			sc.set(name, known{open: true})
		}
	}
	set("@", strings.Join(ps, "\x00"))
	set("*", strings.Join(ps, "\x00"))
	for n := 1; n <= 9; n++ {
		v := ""
		if n <= len(ps) {
			v = ps[n-1]
		}
		set(string(rune('0'+n)), v)
	}
}

// shellParams sets what a shell started with -c PROGRAM gets after its
// program: $0, then the positional parameters (sh -c 'rm -rf "$1"' _ /;
// find -exec sh -c '…' _ {} \;). fed says xargs or parallel add more
// when they run.
func shellParams(sc *scope, after []arg, fed bool) {
	sure := !fed
	words := make([]string, 0, len(after))
	for _, a := range after {
		sure = sure && !a.dyn
		words = append(words, a.text)
	}
	if len(words) > 0 {
		if !after[0].dyn {
			sc.set("0", known{vals: []string{words[0]}})
		} else {
			sc.set("0", known{open: true})
		}
		words = words[1:]
	}
	setParams(sc, words, sure)
}
