// Package shellcmd splits a shell command line into the simple commands it
// would run, so that a policy sees `rm -rf /` inside `a && rm -rf /`,
// `bash -c '…'`, `sudo …` or `$(…)`, and does not see it inside
// `echo 'rm -rf /'`.
//
// The words are read by github.com/mattn/go-shellwords; this package adds
// only what shellwords leaves to its caller:
//
//   - Operators. shellwords stops at the first unquoted ; & | < > and says
//     where (Parser.Position, in runes), so a line is read one simple
//     command at a time by parsing again after each operator.
//   - Which `$(…)` and backticks are live. shellwords keeps them as text
//     and drops the quotes around them, so `'$(x)'` and `"$(x)"` would
//     read the same. Before parsing, a variable reference ${_hs_s} is put in
//     front of each one, and shellwords' own variable expansion
//     (Parser.ParseEnv, with our Getenv) replaces it by a marker byte where
//     the shell would expand it (unquoted and in double quotes), not in
//     single quotes. A marked `$(` or backtick is a command substitution.
//     Other variables are left as written (`$HOME`, `${HOME}` read `$HOME`).
//   - Newlines. shellwords reads a newline as a blank; the shell ends a
//     command there. Each newline is followed by `\x01;`: outside quotes the
//     `;` is an operator, inside quotes both bytes are taken out again.
//   - Subshells and process substitution. shellwords refuses a bare `(`;
//     `( … )` and `<( … )` are read as `$( … )` with a marker of their own.
//
// Everything is linear in the input: each simple command is parsed once
// (from a window that grows geometrically, since shellwords allocates for
// the whole string it is given), and nested scripts (`bash -c`, `$(…)`,
// `eval`) are parsed again at most maxDepth times.
package shellcmd

import (
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/mattn/go-shellwords"
)

// Command is one simple command a shell line would run.
type Command struct {
	// Args is argv after the wrappers: quotes removed, variables left as
	// written ($HOME), substitutions as written ($(…), `…`, <(…)).
	Args []string
	// Env holds the NAME=value assignments in front of the command (and
	// those given to env).
	Env []string
	// Sudo is true when the command runs through sudo or doas (as root,
	// unless -u names another user).
	Sudo bool
	// Via is the chain of wrappers the command was found in, outermost
	// first: "sudo", "doas", "env", "nice", "nohup", "time", "timeout",
	// "command", "exec", "xargs", "find -exec", "bash -c" (any shell's
	// name), "eval", and for nested commands "$()", "``", "<()", ">()", "()".
	Via []string
	// Redirects are the command's redirections, in order.
	Redirects []Redirect
	// Pipeline numbers the pipeline the command belongs to: commands with
	// the same number are connected by pipes, in the order listed.
	Pipeline int
	// Parent is the index of the command one of whose words holds this
	// command ($(…), `…`, <(…)), or of the find whose -exec runs it, or
	// -1. InArg is the index in the parent's Args of that word, or -1 when
	// it was a wrapper's word, an assignment, a redirection target or
	// find's -exec.
	Parent, InArg int
}

// Redirect is one redirection: its operator as written (`>`, `>>`, `2>`,
// `&>`, `<`, `<<`, …) and its target word.
type Redirect struct {
	Op     string
	Target string
}

// Name is the base name of the program: "rm" for /bin/rm.
func (c Command) Name() string {
	if len(c.Args) == 0 {
		return ""
	}
	n := c.Args[0]
	if i := strings.LastIndexByte(n, '/'); i >= 0 && i < len(n)-1 {
		n = n[i+1:]
	}
	return n
}

// SyntaxError says that part of a line could not be read: the commands
// returned with it are those read before the problem. A policy should be
// careful with such a line.
type SyntaxError struct {
	Msg string
}

func (e *SyntaxError) Error() string { return "shell syntax not followed: " + e.Msg }

// maxDepth bounds nested scripts (bash -c inside $(…) inside eval …).
const maxDepth = 8

// Markers. The bytes cannot occur in a real command line (the kernel takes
// argv as C strings and they are removed from the input first).
const (
	liveMark  = "\x00" // a live $( or backtick follows
	lineMark  = "\x01" // followed by ';': a newline outside quotes ends a command
	inMark    = "\x02" // <( : process substitution, read as $(
	outMark   = "\x03" // >(
	groupMark = "\x04" // ( : a subshell, read as $(

	liveRef  = "${_hs_s}"
	inRef    = "${_hs_i}"
	outRef   = "${_hs_o}"
	groupRef = "${_hs_g}"
)

func getenv(name string) string {
	switch name {
	case "_hs_s":
		return liveMark
	case "_hs_i":
		return inMark
	case "_hs_o":
		return outMark
	case "_hs_g":
		return groupMark
	}
	return "$" + name // other variables stay as written
}

// Commands returns the simple commands of line, nested ones included, in
// the order they appear. The error, a *SyntaxError, says the line was not
// read to its end (or a nested script was too deep); the commands read
// until then are returned all the same.
//
// The last line read is kept with its commands: the built-in policies and
// the rules of one call (policies run in parallel) all read the same
// command line, and it is split once. What Commands returns is therefore
// shared: read it, never change it.
func Commands(line string) ([]Command, error) {
	last.Lock()
	defer last.Unlock()
	if !last.read || last.line != line {
		w := &walker{}
		w.line(line, scope{parent: -1, inArg: -1})
		last.line, last.read, last.cmds, last.err = line, true, w.out, w.err
	}
	return last.cmds, last.err
}

// last is the line Commands read last, and what it found.
var last struct {
	sync.Mutex
	line string
	read bool
	cmds []Command
	err  error
}

type walker struct {
	out   []Command
	err   error
	pipes int
}

// scope is what a nested script inherits from the command that runs it.
type scope struct {
	via           []string
	sudo          bool
	depth         int
	parent, inArg int
}

func (w *walker) fail(msg string) {
	if w.err == nil {
		w.err = &SyntaxError{Msg: msg}
	}
}

// word is one word as shellwords gave it (raw, with markers) and as shown.
type word struct {
	raw, text string
}

// pending is the simple command being read.
type pending struct {
	words     []word
	redirects []Redirect
	dropped   []word // redirect targets: may hold substitutions
}

type heredoc struct {
	delim string
	tabs  bool // <<- strips leading tabs
}

// prepare removes the marker bytes from src and adds the references and
// newline markers described in the package comment.
func prepare(src string) string {
	b := make([]byte, 0, len(src)+len(src)/8)
	slashes := 0 // backslashes just before
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c <= 0x04:
			continue
		case c == '$' && i+1 < len(src) && src[i+1] == '(' && slashes%2 == 0:
			b = append(b, liveRef...)
		case c == '`' && slashes%2 == 0:
			b = append(b, liveRef...)
		case c == '\n' && slashes%2 == 1:
			// A line continuation: the shell drops backslash and newline.
			b = b[:len(b)-1]
			slashes = 0
			continue
		case c == '\n':
			b = append(b, "\n"+lineMark+";"...)
			slashes = 0
			continue
		}
		if c == '\\' {
			slashes++
		} else {
			slashes = 0
		}
		b = append(b, c)
	}
	return string(b)
}

var cleaner = sync.OnceValue(func() *strings.Replacer {
	return strings.NewReplacer(
		liveMark+"$(", "$(", inMark+"$(", "<(", outMark+"$(", ">(", groupMark+"$(", "(",
		liveMark, "", inMark, "", outMark, "", groupMark, "",
		lineMark+";", "", lineMark, "",
		liveRef, "", inRef, "", outRef, "", groupRef, "",
	)
})

// clean turns a raw word (or a piece of prepared text) back into the
// text as written.
func clean(s string) string {
	if !strings.ContainsAny(s, "\x00\x01\x02\x03\x04") && !strings.Contains(s, "${_hs_") {
		return s
	}
	return cleaner().Replace(s)
}

// parse reads one simple command's words from the start of s. It returns
// the words, the byte offset of the operator that ended them (-1 at the
// end of s) and shellwords' error.
func parse(s string) ([]string, int, error) {
	for n := 512; ; n *= 2 {
		whole := n >= len(s)
		piece := s
		if !whole {
			piece = s[:n]
		}
		p := shellwords.NewParser()
		p.ParseEnv, p.ParseComment, p.ParseBacktick = true, true, false
		p.Getenv = getenv
		words, err := p.Parse(piece)
		if err == nil && p.Position >= 0 {
			// An operator inside the window: what came before it reads
			// the same in the whole string.
			return words, runeOffset(piece, p.Position), nil
		}
		if whole {
			return words, -1, err
		}
	}
}

// runeOffset is the byte offset of the n-th rune of s, counted as range
// does (one per invalid byte).
func runeOffset(s string, n int) int {
	off := 0
	for ; n > 0 && off < len(s); n-- {
		_, size := utf8.DecodeRuneInString(s[off:])
		off += size
	}
	return off
}

// line reads a script: one or more commands.
func (w *walker) line(src string, sc scope) {
	if sc.depth > maxDepth {
		w.fail("scripts nested too deep")
		return
	}
	s := prepare(src)
	pipe := w.newPipe()
	var cur pending
	var hd []heredoc // here-documents whose bodies start on the next line
	redirect := ""   // the operator whose target comes next
	for rest := s; ; {
		words, at, err := parse(rest)
		if err != nil {
			t := strings.TrimLeft(rest, " \t\n"+lineMark+";")
			if strings.HasPrefix(t, "(") && len(cur.words) == 0 && redirect == "" {
				rest = groupRef + "$" + t // a subshell: read ( … ) as $( … )
				continue
			}
			w.fail(err.Error() + " in " + quoteShort(clean(rest)))
			w.finish(&cur, sc, pipe)
			return
		}
		ws := make([]word, 0, len(words))
		for _, raw := range words {
			if raw == lineMark {
				continue
			}
			ws = append(ws, word{raw, clean(raw)})
		}
		if redirect != "" && len(ws) > 0 {
			cur.redirects = append(cur.redirects, Redirect{Op: redirect, Target: ws[0].text})
			cur.dropped = append(cur.dropped, ws[0])
			if strings.HasSuffix(redirect, "<<") {
				// <<- reads as << and a word starting with -.
				delim, tabs := strings.CutPrefix(ws[0].text, "-")
				hd = append(hd, heredoc{delim: delim, tabs: tabs})
				cur.redirects[len(cur.redirects)-1] = Redirect{Op: redirect + map[bool]string{true: "-"}[tabs], Target: delim}
			}
			ws = ws[1:]
			redirect = ""
		}
		cur.words = append(cur.words, ws...)
		if at < 0 {
			w.finish(&cur, sc, pipe)
			return
		}
		newline := at > 0 && rest[at-1] == lineMark[0]
		after := strings.TrimLeft(rest[at:], "0123456789")
		tail := strings.TrimLeft(after, ";&|<>")
		op := rest[at : len(rest)-len(tail)]
		opChars := after[:len(after)-len(tail)]
		rest = tail
		if opChars == "" {
			w.fail("no operator where shellwords stopped")
			w.finish(&cur, sc, pipe)
			return
		}
		switch {
		case (opChars == "<" || opChars == ">") && strings.HasPrefix(rest, "("):
			// Process substitution: an argument of this command.
			if opChars == "<" {
				rest = inRef + "$" + rest
			} else {
				rest = outRef + "$" + rest
			}
		case strings.ContainsAny(opChars, "<>"):
			redirect = op
		default:
			w.finish(&cur, sc, pipe)
			if opChars != "|" && opChars != "|&" {
				pipe = w.newPipe()
			}
			if newline && len(hd) > 0 {
				rest, hd = skipHeredocs(rest, hd), nil
			}
		}
	}
}

func (w *walker) newPipe() int {
	w.pipes++
	return w.pipes
}

// skipHeredocs skips the bodies of here-documents, which start on the
// line after their command: prepared lines are separated by "\n\x01;".
func skipHeredocs(rest string, hd []heredoc) string {
	for _, h := range hd {
		for {
			line, next, found := strings.Cut(rest, "\n"+lineMark+";")
			line = clean(line)
			if h.tabs {
				line = strings.TrimLeft(line, "\t")
			}
			if !found {
				return ""
			}
			rest = next
			if line == h.delim {
				break
			}
		}
	}
	return rest
}

// finish unwraps and records the command read so far, then resets cur.
func (w *walker) finish(cur *pending, sc scope, pipe int) {
	words, redirects, dropped := cur.words, cur.redirects, cur.dropped
	*cur = pending{}
	if len(words) == 0 && len(redirects) == 0 {
		w.subs(dropped, sc, -1)
		return
	}
	w.command(words, redirects, dropped, sc, pipe)
}

// shells are the programs whose -c argument is a script.
var shells = []string{
	"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash",
	"fish",
}

// keywords start a command without being one.
var keywords = []string{
	"if", "then", "else", "elif", "do", "while",
	"until", "!", "{", "}", "fi", "done"}

// command unwraps the wrappers in front of words and records what is left.
func (w *walker) command(words []word, redirects []Redirect, dropped []word, sc scope, pipe int) {
	via := sc.via
	sudo := sc.sudo
	var env []string
	push := func(v string) { via = append(via[:len(via):len(via)], v) }
	for len(words) > 0 {
		name := base(words[0].text)
		switch {
		case isAssignment(words[0].text):
			env = append(env, words[0].text)
			dropped = append(dropped, words[0])
			words = words[1:]
			continue
		case slices.Contains(keywords, words[0].text):
			words = words[1:]
			continue
		}
		var rest, split1 []word
		elevate := false
		switch name {
		case "sudo", "doas":
			var user string
			rest, user = options(words[1:], sudoArgs, "-u", "--user")
			elevate = user == "" || user == "root" || user == "0" || user == "#0"
		case "env":
			var split string
			rest, split = options(words[1:], envArgs, "-S", "--split-string")
			for len(rest) > 0 && isAssignment(rest[0].text) {
				env = append(env, rest[0].text)
				dropped = append(dropped, rest[0])
				rest = rest[1:]
			}
			if split != "" {
				// env -S splits its argument into words.
				if ws, err := shellwords.Parse(split); err == nil {
					for _, s := range ws {
						split1 = append(split1, word{s, s})
					}
				}
			}
		case "nice", "ionice", "nohup", "time", "timeout", "stdbuf", "exec", "builtin":
			rest, _ = options(words[1:], wrapperArgs(name), "", "")
			if name == "timeout" && len(rest) > 0 {
				rest = rest[1:] // the duration
			}
		case "command":
			rest, _ = options(words[1:], nil, "", "")
			if len(rest) > 0 && len(words) > 1 && (hasFlag(words[1:len(words)-len(rest)], 'v') || hasFlag(words[1:len(words)-len(rest)], 'V')) {
				rest = nil // command -v only looks the name up
			}
		case "xargs":
			rest, _ = options(words[1:], xargsArgs, "", "")
		case "eval":
			// The words are read again as a script, which finds their
			// substitutions too.
			texts := make([]string, 0, len(words)-1)
			for _, x := range words[1:] {
				texts = append(texts, x.text)
			}
			w.subs(dropped, sc, -1)
			w.line(strings.Join(texts, " "), w.nest(sc, via, sudo, "eval"))
			return
		}
		if slices.Contains(shells, name) {
			if script, ok := shellScript(words[1:]); ok {
				// Substitutions in the script are found when it is read;
				// a double-quoted one runs before the shell starts, a
				// single-quoted one inside it: the same command either way.
				w.subs(dropped, sc, -1)
				w.line(script, w.nest(sc, via, sudo, name+" -c"))
				return
			}
		}
		if len(rest) == 0 && len(split1) == 0 {
			break
		}
		sudo = sudo || elevate
		dropped = append(dropped, words[:len(words)-len(rest)]...)
		push(name)
		words = append(split1, rest...)
	}
	if len(words) == 0 && len(redirects) == 0 {
		w.subs(dropped, sc, -1)
		return
	}
	if len(words) == 1 && strings.HasPrefix(words[0].raw, groupMark+"$(") {
		// A subshell: its commands, not the group as a word.
		w.subs(dropped, sc, -1)
		w.sub(words[0], scope{via: via, sudo: sudo, depth: sc.depth, parent: sc.parent}, sc.inArg)
		return
	}
	c := Command{Env: env, Sudo: sudo, Via: via, Redirects: redirects, Pipeline: pipe, Parent: sc.parent, InArg: sc.inArg}
	c.Args = make([]string, len(words))
	for i, x := range words {
		c.Args[i] = x.text
	}
	idx := len(w.out)
	w.out = append(w.out, c)
	own := scope{via: sc.via, depth: sc.depth, parent: idx, inArg: -1}
	w.subs(dropped, own, -1)
	for i, x := range words {
		w.sub(x, own, i)
	}
	if c.Name() == "find" {
		w.findExec(words, own, via, sudo)
	}
}

// nest is the scope of a script run by a wrapper of the current command.
func (w *walker) nest(sc scope, via []string, sudo bool, how string) scope {
	return scope{via: append(via[:len(via):len(via)], how), sudo: sudo, depth: sc.depth + 1, parent: sc.parent, inArg: sc.inArg}
}

// findExec records the command that find -exec, -execdir, -ok and -okdir
// run, up to its ; or +.
func (w *walker) findExec(words []word, sc scope, via []string, sudo bool) {
	if sc.depth >= maxDepth {
		w.fail("scripts nested too deep")
		return
	}
	for i := 1; i < len(words); i++ {
		switch words[i].text {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		j := i + 1
		for j < len(words) && words[j].text != ";" && words[j].text != "+" {
			j++
		}
		if j > i+1 {
			w.command(words[i+1:j], nil, nil, w.nest(sc, via, sudo, "find -exec"), w.newPipe())
		}
		i = j
	}
}

// subs reads the substitutions in words that are not arguments.
func (w *walker) subs(words []word, sc scope, inArg int) {
	for _, x := range words {
		w.sub(x, sc, inArg)
	}
}

// sub reads the live substitutions of one word: each script inside is a
// nested command of sc.parent, found in its argument inArg.
func (w *walker) sub(x word, sc scope, inArg int) {
	raw := x.raw
	for {
		i := strings.IndexAny(raw, "\x00\x02\x03\x04")
		if i < 0 {
			return
		}
		mark := raw[i]
		raw = raw[i+1:]
		var script, how string
		switch {
		case mark == liveMark[0] && strings.HasPrefix(raw, "`"):
			end := strings.IndexByte(raw[1:], '`')
			if end < 0 {
				script, raw = raw[1:], ""
			} else {
				script, raw = raw[1:1+end], raw[2+end:]
			}
			how = "``"
		case strings.HasPrefix(raw, "$("):
			end := closing(raw[2:])
			if end < 0 {
				script, raw = raw[2:], ""
			} else {
				script, raw = raw[2:2+end], raw[3+end:]
			}
			switch mark {
			case 0:
				how = "$()"
			case 2:
				how = "<()"
			case 3:
				how = ">()"
			case 4:
				how = "()"
			}
		default:
			continue
		}
		w.line(clean(script), scope{via: append(sc.via[:len(sc.via):len(sc.via)], how), sudo: sc.sudo, depth: sc.depth + 1, parent: sc.parent, inArg: inArg})
	}
}

// closing is the index of the ) that closes an opened (, or -1.
func closing(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

// shellScript finds the script of `sh [options] -c SCRIPT`.
func shellScript(args []word) (string, bool) {
	c := false
	for i := 0; i < len(args); i++ {
		a := args[i].text
		switch {
		case a == "--" || a == "-":
			if c && i+1 < len(args) {
				return args[i+1].text, true
			}
			return "", false
		case strings.HasPrefix(a, "--"):
			// --login, --norc, …: no argument, except --rcfile/--init-file.
			if a == "--rcfile" || a == "--init-file" {
				i++
			}
		case strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+"):
			if strings.ContainsRune(a[1:], 'c') {
				c = true
			}
			if strings.ContainsAny(a[1:], "oO") { // -o option
				i++
			}
		default:
			if c {
				return a, true
			}
			return "", false
		}
	}
	return "", false
}

// Options of the wrappers that take an argument.
var (
	sudoArgs = []string{"-u", "-g", "-C", "-D", "-p", "-r",
		"-t", "-T", "-U", "-a", "--user", "--group",
		"--close-from", "--chdir", "--prompt", "--role", "--type",
		"--command-timeout", "--other-user", "--host"}
	envArgs   = []string{"-u", "-C", "-S", "--unset", "--chdir", "--split-string"}
	xargsArgs = []string{"-a", "-d", "-E", "-I", "-L", "-n", "-P", "-s", "--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-chars", "--max-lines", "--process-slot-var"}
)

// wrapperArgs are the options of a wrapper that take an argument. Lists
// and a switch, not maps: a map literal is built when the process starts,
// which every hook call is, rules or not.
func wrapperArgs(name string) []string {
	switch name {
	case "nice":
		return []string{"-n", "--adjustment"}
	case "ionice":
		return []string{"-c", "-n", "-p", "--class", "--classdata"}
	case "timeout":
		return []string{"-s", "-k", "--signal", "--kill-after"}
	case "stdbuf":
		return []string{"-i", "-o", "-e"}
	case "exec":
		return []string{"-a"}
	}
	return nil
}

// options skips the options in front of a wrapped command: those named in
// withArg take the next word. It returns the words from the command on,
// and the value of the option named short or long, if given.
func options(args []word, withArg []string, short, long string) ([]word, string) {
	var value string
	for i := 0; i < len(args); i++ {
		a := args[i].text
		if a == "--" {
			return args[i+1:], value
		}
		if len(a) < 2 || a[0] != '-' {
			return args[i:], value
		}
		name, v, eq := strings.Cut(a, "=")
		if strings.HasPrefix(a, "--") {
			if !eq && slices.Contains(withArg, name) && i+1 < len(args) {
				i++
				v = args[i].text
			}
			if name == long && long != "" {
				value = v
			}
			continue
		}
		// A cluster of short options: the first one that takes an
		// argument takes the rest of the word or the next word.
		for j := 1; j < len(a); j++ {
			o := "-" + a[j:j+1]
			if !slices.Contains(withArg, o) {
				continue
			}
			v = a[j+1:]
			if v == "" && i+1 < len(args) {
				i++
				v = args[i].text
			}
			if o == short && short != "" {
				value = v
			}
			break
		}
	}
	return nil, value
}

func hasFlag(args []word, f byte) bool {
	for _, a := range args {
		if strings.HasPrefix(a.text, "-") && !strings.HasPrefix(a.text, "--") && strings.IndexByte(a.text, f) > 0 {
			return true
		}
	}
	return false
}

// isAssignment reports whether a word is NAME=value.
func isAssignment(s string) bool {
	i := strings.IndexByte(s, '=')
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		c := s[j]
		if c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || (j > 0 && '0' <= c && c <= '9') {
			continue
		}
		return false
	}
	return true
}

func base(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 && i < len(s)-1 {
		return s[i+1:]
	}
	return s
}

func quoteShort(s string) string {
	const max = 40
	if len(s) > max {
		s = s[:max] + "…"
	}
	return "\"" + strings.ToValidUTF8(s, "?") + "\""
}
