package shellcmd

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// PowerShell is the value of event.Tool.Shell for a command line that
// PowerShell runs; "" is a POSIX shell's line.
const PowerShell = "powershell"

// Read returns the simple commands of line as the given shell would run
// them: PowerShell's reading for PowerShell, bash's for anything else.
func Read(shell, line string) ([]Command, error) { return ReadIn(shell, line, "") }

// ReadIn is Read for a line run in the folder dir (CommandsIn); a
// PowerShell line is read as Read reads it.
func ReadIn(shell, line, dir string) ([]Command, error) {
	if shell == PowerShell {
		return PowerShellCommands(line)
	}
	return CommandsIn(line, dir)
}

// PowerShellCommands returns the simple commands of a PowerShell line, in
// the order they appear, nested ones included, like Commands does for
// bash. No Go module parses PowerShell, so this is a reader of its own,
// and a conservative one: it follows statements (`;`, newlines, `&&`,
// `||`), pipelines, PowerShell's quoting (`'…'`, where two quotes are one, `"…"` with
// backtick escapes, the typographic quotes and dashes PowerShell accepts),
// the call operator `&`, script blocks given to a command (read as if
// run), `powershell`/`pwsh -Command`, `-EncodedCommand`, `iex '…'`,
// `Start-Process` and `cmd /c`. Everything whose effect it cannot know
// from the text ends the reading with a *ParseError, so that policies are
// unsure: subexpressions `$(…)`, `@(…)`, parenthesised expressions, .NET
// method calls, here-strings, splatting, keywords (if, foreach, function,
// …), a command named by a variable, `iex` of a variable or of its input.
//
// The cmdlets and aliases the built-in policies care about are written
// with the POSIX name whose meaning they share, so that a policy written
// for `rm -rf` sees `Remove-Item -Recurse -Force` and `rm -r -fo`:
// Remove-Item (rm, del, erase, ri, rd, rmdir) → rm, Move-Item → mv,
// Copy-Item → cp, Get-Content → cat, Set-Content, Add-Content and
// Out-File → tee, New-Item → touch, Set-Location → cd,
// Invoke-WebRequest and Invoke-RestMethod → curl. Their parameters are
// matched as PowerShell does, abbreviated or not (`-r` is -Recurse, `-fo`
// -Force), and their paths are written with slashes (`C:\` reads `C:/`,
// `$env:USERPROFILE\x` reads `$HOME/x`). Other programs keep their
// arguments as written; their name loses its folder and `.exe` and is
// lower-cased, as PowerShell finds commands whatever their case.
func PowerShellCommands(line string) ([]Command, error) {
	r := &psReader{budget: budgetFactor*len(line) + budgetBase}
	r.program(line, psScope{parent: -1, inArg: -1, dir: &psDir{}})
	if r.err != nil {
		return r.out, r.err
	}
	return r.out, nil
}

// psReader collects the commands of one PowerShell line.
type psReader struct {
	out    []Command
	err    *ParseError
	pipes  int
	budget int
	vars   map[string]string // variables the line sets to a value it shows, by lower-cased name
}

// psDir is the folder the commands of a program run in, as Set-Location
// left it; PowerShell's location is the session's, so nested script
// blocks share it.
type psDir struct {
	dir     string
	unknown bool
}

// psScope is where a program is read: how deep, inside what, under which
// wrappers.
type psScope struct {
	depth         int
	via           []string
	sudo          bool
	parent, inArg int
	dir           *psDir
	text          string // the statement being read, as written: Command.Text
}

func (r *psReader) fail(depth int, msg string) {
	if r.err == nil {
		r.err = &ParseError{Nested: depth, Msg: msg, offset: -1}
	}
}

// nested reads a program found inside another, within the depth and
// byte budget.
func (r *psReader) nested(src string, s psScope, via string, cmd bool) {
	if s.depth+1 > maxDepth {
		r.fail(s.depth, "programs nested too deep")
		return
	}
	if r.budget -= len(src); r.budget < 0 {
		r.fail(s.depth, "nested programs too long")
		return
	}
	s.depth++
	s.via = append(s.via[:len(s.via):len(s.via)], via)
	if cmd {
		r.cmdProgram(src, s)
		return
	}
	r.program(src, s)
}

// psWord is one word of a command: its text with quotes removed and
// variables as written, and what parts of it are known only at run time.
type psWord struct {
	text    string
	unset   string // text with each run-time expansion empty
	dynamic bool
	param   bool     // starts with an unquoted dash: a parameter name
	quoted  bool     // starts with a quote: a string, a value at a command's place
	parts   []psWord // the word split at unquoted commas (an array); nil when it has none
	block   string   // a script block's text, when the word is one
	isBlock bool
}

// psToken kinds.
const (
	tWord = iota
	tSep  // ; newline && ||
	tPipe // |
	tCall // & before a command, or a lone .
	tRedir
)

type psToken struct {
	kind int
	word psWord
	op   string // redirection operator
	at   int    // where it starts in the program
}

// lexer turns a program into tokens; it stops at the first construct it
// does not follow.
type psLexer struct {
	src  string
	i    int
	fail string
	op   bool // an assignment's operator comes next: $x=… was split
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\f' || c == '\v' }

// Typographic quotes and dashes PowerShell reads as ' " and -.
func singleQuote(r rune) bool { return r == '\'' || r >= 0x2018 && r <= 0x201B }
func doubleQuote(r rune) bool { return r == '"' || r >= 0x201C && r <= 0x201E }
func dash(r rune) bool        { return r == '-' || r >= 0x2013 && r <= 0x2015 }

func (l *psLexer) rune() (rune, int) { return utf8.DecodeRuneInString(l.src[l.i:]) }

// next returns the next token; ok is false at the end or on failure.
func (l *psLexer) next(atCommand bool) (psToken, bool) {
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case isSpace(c):
			l.i++
		case c == '`' && l.i+1 < len(l.src) && (l.src[l.i+1] == '\n' || l.src[l.i+1] == '\r'):
			l.i += 2 // a line continued
		case c == '#':
			for l.i < len(l.src) && l.src[l.i] != '\n' {
				l.i++
			}
		case c == '<' && strings.HasPrefix(l.src[l.i:], "<#"):
			end := strings.Index(l.src[l.i+2:], "#>")
			if end < 0 {
				l.fail = "a block comment is not closed"
				return psToken{}, false
			}
			l.i += end + 4
		default:
			at := l.i
			t, ok := l.token(atCommand)
			t.at = at
			return t, ok
		}
	}
	return psToken{}, false
}

func (l *psLexer) token(atCommand bool) (psToken, bool) {
	s := l.src[l.i:]
	switch {
	case s[0] == '\n' || s[0] == '\r' || s[0] == ';':
		l.i++
		return psToken{kind: tSep}, true
	case strings.HasPrefix(s, "&&") || strings.HasPrefix(s, "||"):
		l.i += 2
		return psToken{kind: tSep}, true
	case s[0] == '|':
		l.i++
		return psToken{kind: tPipe}, true
	case s[0] == '&':
		l.i++
		if atCommand {
			return psToken{kind: tCall}, true
		}
		return psToken{kind: tSep}, true // a background job: what follows is another statement
	case atCommand && s[0] == '.' && len(s) > 1 && (isSpace(s[1])):
		l.i++
		return psToken{kind: tCall}, true // dot-sourcing runs the command in this scope
	case s[0] == '(' || s[0] == ')':
		l.fail = "a parenthesised expression runs when the line runs"
		return psToken{}, false
	case s[0] == '}':
		l.fail = "a script block is not opened"
		return psToken{}, false
	case s[0] == '{':
		end := l.blockEnd(l.i)
		if end < 0 {
			l.fail = "a script block is not closed"
			return psToken{}, false
		}
		w := psWord{isBlock: true, block: l.src[l.i+1 : end], text: l.src[l.i : end+1]}
		w.unset = w.text
		l.i = end + 1
		return psToken{kind: tWord, word: w}, true
	case s[0] == '@':
		if len(s) > 1 && (s[1] == '(' || s[1] == '{') {
			l.fail = "an array or hash table expression runs when the line runs"
		} else if r, _ := utf8.DecodeRuneInString(s[1:]); singleQuote(r) || doubleQuote(r) {
			l.fail = "here-strings are not followed"
		} else {
			l.fail = "splatting (@name) passes arguments known only at run time"
		}
		return psToken{}, false
	case s[0] == '<':
		l.fail = "the < operator is reserved in PowerShell"
		return psToken{}, false
	}
	if op := redirOp(s); op != "" {
		l.i += len(op)
		return psToken{kind: tRedir, op: op}, true
	}
	if l.op {
		// `$x=Remove-Item …`, `$p="C:\"`: the operator, then the value,
		// as when they are written apart.
		l.op = false
		for _, op := range []string{"??=", "+=", "-=", "*=", "/=", "%=", "="} {
			if strings.HasPrefix(s, op) {
				l.i += len(op)
				return psToken{kind: tWord, word: psWord{text: op, unset: op}}, true
			}
		}
	}
	if n := psVarLen(s); atCommand && s[0] == '$' && n > 1 && n < len(s) && psAssignsAt(s[n:]) {
		l.i += n
		l.op = true
		return psToken{kind: tWord, word: psWord{text: s[:n], dynamic: true}}, true
	}
	w, ok := l.word()
	return psToken{kind: tWord, word: w}, ok
}

// redirOp is the redirection operator s starts with: >, >>, 2>, *>>,
// 2>&1, …; "" when none.
func redirOp(s string) string {
	i := 0
	if len(s) > 0 && (s[0] == '*' || s[0] >= '1' && s[0] <= '6') {
		i = 1
	}
	if i >= len(s) || s[i] != '>' {
		return ""
	}
	i++
	if i < len(s) && s[i] == '>' {
		i++
	}
	if i+1 < len(s) && s[i] == '&' && s[i+1] >= '1' && s[i+1] <= '6' {
		i += 2
	}
	return s[:i]
}

// blockEnd is the index of the brace that closes the one at open, or -1.
func (l *psLexer) blockEnd(open int) int {
	depth := 0
	for i := open; i < len(l.src); {
		r, n := utf8.DecodeRuneInString(l.src[i:])
		switch {
		case r == '`':
			n++
		case r == '#' && (i == 0 || l.src[i-1] != '<'):
			for i < len(l.src) && l.src[i] != '\n' {
				i++
			}
			continue
		case singleQuote(r) || doubleQuote(r):
			single := singleQuote(r)
			j := i + n
			for j < len(l.src) {
				q, m := utf8.DecodeRuneInString(l.src[j:])
				if !single && q == '`' {
					j += m + 1
					continue
				}
				if single && singleQuote(q) || !single && doubleQuote(q) {
					if q2, m2 := utf8.DecodeRuneInString(l.src[j+m:]); single && singleQuote(q2) || !single && doubleQuote(q2) {
						j += m + m2
						continue
					}
					j += m
					break
				}
				j += m
			}
			i = j
			continue
		case r == '{':
			depth++
		case r == '}':
			depth--
			if depth == 0 {
				return i
			}
		}
		i += n
	}
	return -1
}

// word reads one word, up to a space or an operator.
func (l *psLexer) word() (psWord, bool) {
	var w psWord
	var text, unset strings.Builder
	var parts []psWord
	start := l.i
	first := true
	cut := func() {
		if text.Len() > 0 || len(parts) == 0 {
			parts = append(parts, psWord{text: text.String(), unset: unset.String(), dynamic: w.dynamic})
		}
		w.text += text.String() + ","
		w.unset += unset.String() + ","
		text.Reset()
		unset.Reset()
	}
	lit := func(s string) { text.WriteString(s); unset.WriteString(s) }
	for l.i < len(l.src) {
		c := l.src[l.i]
		if isSpace(c) || strings.IndexByte(";|&(){}\n\r", c) >= 0 {
			break
		}
		if c == '>' && l.i > start {
			break
		}
		r, n := l.rune()
		switch {
		case first && dash(r):
			w.param = true
			lit("-")
			l.i += n
		case r == ',':
			cut()
			l.i += n
		case r == '`':
			if l.i+n >= len(l.src) {
				l.fail = "a backtick ends the line"
				return w, false
			}
			e, m := utf8.DecodeRuneInString(l.src[l.i+n:])
			lit(escape(e))
			l.i += n + m
		case singleQuote(r):
			w.quoted = w.quoted || first
			l.i += n
			if !l.single(lit) {
				return w, false
			}
		case doubleQuote(r):
			w.quoted = w.quoted || first
			l.i += n
			if !l.double(&text, &unset, &w) {
				return w, false
			}
		case r == '$':
			if !l.variable(&text, &unset, &w) {
				return w, false
			}
		default:
			lit(l.src[l.i : l.i+n])
			l.i += n
		}
		first = false
	}
	if parts != nil {
		cut()
		w.text, w.unset = w.text[:len(w.text)-1], w.unset[:len(w.unset)-1]
		w.parts = parts
		return w, true
	}
	w.text, w.unset = text.String(), unset.String()
	return w, true
}

// escape is what a backtick followed by r stands for.
func escape(r rune) string {
	switch r {
	case '0':
		return "\x00"
	case 'a':
		return "\a"
	case 'b':
		return "\b"
	case 'e':
		return "\x1b"
	case 'f':
		return "\f"
	case 'n':
		return "\n"
	case 'r':
		return "\r"
	case 't':
		return "\t"
	case 'v':
		return "\v"
	}
	return string(r)
}

// single reads a '…' string after its opening quote: two quotes in a
// row are one.
func (l *psLexer) single(lit func(string)) bool {
	for l.i < len(l.src) {
		r, n := l.rune()
		l.i += n
		if singleQuote(r) {
			if q, m := l.rune(); l.i < len(l.src) && singleQuote(q) {
				lit("'")
				l.i += m
				continue
			}
			return true
		}
		lit(string(r))
	}
	l.fail = "a quoted string is not closed"
	return false
}

// double reads a "…" string after its opening quote: backtick escapes, ""
// as one quote, variables; a subexpression $(…) runs, and is not followed.
func (l *psLexer) double(text, unset *strings.Builder, w *psWord) bool {
	for l.i < len(l.src) {
		r, n := l.rune()
		switch {
		case doubleQuote(r):
			l.i += n
			if q, m := l.rune(); l.i < len(l.src) && doubleQuote(q) {
				text.WriteByte('"')
				unset.WriteByte('"')
				l.i += m
				continue
			}
			return true
		case r == '`':
			if l.i+n >= len(l.src) {
				l.fail = "a quoted string is not closed"
				return false
			}
			e, m := utf8.DecodeRuneInString(l.src[l.i+n:])
			text.WriteString(escape(e))
			unset.WriteString(escape(e))
			l.i += n + m
		case r == '$':
			if !l.variable(text, unset, w) {
				return false
			}
		default:
			text.WriteString(l.src[l.i : l.i+n])
			unset.WriteString(l.src[l.i : l.i+n])
			l.i += n
		}
	}
	l.fail = "a quoted string is not closed"
	return false
}

// homeVars are the variables that name the user's home folder: they read
// $HOME, as in a POSIX line.
var homeVars = []string{"$home", "$env:home", "$env:userprofile"}

// variable reads a variable at a $ ($name, $env:NAME, ${…}, $_), or a $
// that starts none.
func (l *psLexer) variable(text, unset *strings.Builder, w *psWord) bool {
	s := l.src[l.i:]
	if len(s) > 1 && s[1] == '(' {
		l.fail = "a subexpression $(…) runs when the line runs"
		return false
	}
	n := 0
	switch {
	case len(s) > 1 && s[1] == '{':
		end := strings.IndexByte(s, '}')
		if end < 0 {
			l.fail = "a variable ${…} is not closed"
			return false
		}
		n = end + 1
	case len(s) > 1 && strings.IndexByte("_$?^", s[1]) >= 0:
		n = 2
	default:
		n = psVarLen(s)
		if n == 1 {
			text.WriteByte('$')
			unset.WriteByte('$')
			l.i++
			return true
		}
	}
	name := s[:n]
	for _, h := range homeVars {
		if strings.EqualFold(name, h) {
			text.WriteString("$HOME")
			unset.WriteString("$HOME")
			l.i += n
			return true
		}
	}
	if env, ok := strings.CutPrefix(strings.ToLower(strings.Trim(name, "${}")), "env:"); ok {
		if v, ok := windowsFolder(env); ok {
			text.WriteString(v)
			unset.WriteString(v)
			l.i += n
			return true
		}
	}
	text.WriteString(name)
	w.dynamic = true
	l.i += n
	return true
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// keywords start statements this reader does not follow.
var keywords = []string{
	"if", "elseif", "else", "switch", "foreach", "for", "while", "do", "until", "function", "filter",
	"workflow", "try", "catch", "finally", "trap", "throw", "return", "break", "continue", "exit",
	"param", "begin", "process", "end", "class", "enum", "using", "data", "configuration", "dynamicparam",
}

// program reads a PowerShell program: statements of pipelines of commands.
func (r *psReader) program(src string, s psScope) {
	l := &psLexer{src: src}
	var cmd []psToken
	call := false
	pipe, pos := r.newPipe(), 0
	start, end := 0, 0 // the statement's text in src
	flush := func() {
		if len(cmd) > 0 || call {
			s.text = src[start:end]
			r.statement(cmd, call, pipe, pos, s)
			pos++
		}
		cmd, call = cmd[:0], false
	}
	for r.err == nil {
		t, ok := l.next(len(cmd) == 0 && !call)
		if !ok {
			break
		}
		switch t.kind {
		case tSep:
			flush()
			pipe, pos = r.newPipe(), 0
		case tPipe:
			if len(cmd) == 0 && !call {
				r.fail(s.depth, "an empty pipeline element")
				return
			}
			flush()
		case tCall:
			if len(cmd) == 0 && !call {
				start = t.at
			}
			call, end = true, l.i
		default:
			if len(cmd) == 0 && !call {
				start = t.at
			}
			cmd, end = append(cmd, t), l.i
		}
	}
	if l.fail != "" {
		r.fail(s.depth, l.fail)
		return
	}
	flush()
}

func (r *psReader) newPipe() int {
	r.pipes++
	return r.pipes
}

// statement reads one element of a pipeline.
func (r *psReader) statement(toks []psToken, call bool, pipe, pos int, s psScope) {
	if r.err != nil {
		return
	}
	var words []psWord
	var redirs []Redirect
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind == tRedir {
			rd := Redirect{Op: t.op}
			if !strings.Contains(t.op, "&") {
				if i+1 >= len(toks) || toks[i+1].word.isBlock {
					r.fail(s.depth, "a redirection without a target")
					return
				}
				i++
				rd.Target, rd.Dynamic = slashes(toks[i].word.text), toks[i].word.dynamic
			}
			redirs = append(redirs, rd)
			continue
		}
		words = append(words, t.word)
	}
	if len(words) == 0 {
		if call {
			r.fail(s.depth, "the call operator & has nothing to call")
		}
		return
	}
	target := len(words) > 1 && strings.HasPrefix(words[0].text, "$") && isAssign(words[1].text)
	if target {
		r.substitute(words[1:])
	} else {
		r.substitute(words)
	}
	head := words[0]
	switch {
	case head.isBlock:
		// `& { … }` runs the block; a block alone is a value, but read it
		// all the same: what it would run is what a reader cares for.
		r.nested(head.block, s, "& {}", false)
		return
	case call:
		if head.dynamic {
			r.fail(s.depth, "the call operator & runs a command known only at run time")
			return
		}
	case head.dynamic || strings.HasPrefix(head.text, "$"):
		r.expression(words, pipe, pos, redirs, s)
		return
	case head.param, head.quoted && !call, head.text == "" && len(head.parts) == 0, head.text[0] >= '0' && head.text[0] <= '9' || head.text[0] == '[':
		r.expression(words, pipe, pos, redirs, s)
		return
	}
	for _, k := range keywords {
		if !call && strings.EqualFold(head.text, k) {
			r.fail(s.depth, "the keyword "+k+" is not followed")
			return
		}
	}
	r.command(words, pipe, pos, redirs, s)
}

// expression reads a statement that is a value, not a command: an
// assignment runs its right-hand side when that is a command; any other
// expression is readable only when it is plain values and operators.
func (r *psReader) expression(words []psWord, pipe, pos int, redirs []Redirect, s psScope) {
	if len(words) > 1 && strings.HasPrefix(words[0].text, "$") && isAssign(words[1].text) {
		rest := words[2:]
		r.assign(words[0].text, words[1].text, rest)
		if len(rest) > 0 && !rest[0].isBlock && !rest[0].dynamic && !rest[0].param && !rest[0].quoted && rest[0].text != "" &&
			!strings.HasPrefix(rest[0].text, "$") && !(rest[0].text[0] >= '0' && rest[0].text[0] <= '9') {
			r.command(rest, pipe, pos, redirs, s)
			return
		}
		words = rest
	}
	for _, w := range words {
		if w.isBlock {
			// A script block as a value runs only when something invokes
			// it, which this reader cannot tell.
			r.fail(s.depth, "a script block in an expression is not followed")
			return
		}
		if strings.Contains(w.text, "::") {
			r.fail(s.depth, "a .NET call is not followed")
			return
		}
	}
}

func isAssign(s string) bool {
	switch s {
	case "=", "+=", "-=", "*=", "/=", "%=", "??=":
		return true
	}
	return false
}

// psName is a command's name as PowerShell finds it: its folder and an
// executable's extension dropped, lower-cased.
func psName(s string) string {
	s = strings.ToLower(s[strings.LastIndexAny(s, `\/`)+1:])
	for _, ext := range []string{".exe", ".com", ".cmd", ".bat"} {
		if t, ok := strings.CutSuffix(s, ext); ok && t != "" {
			return t
		}
	}
	return s
}

// emit adds one command; what it runs in blocks given to it is read next.
func (r *psReader) emit(args []psWord, pipe, pos int, redirs []Redirect, s psScope) int {
	c := Command{Pipeline: pipe, Parent: s.parent, InArg: s.inArg, Sudo: s.sudo, Via: s.via, Redirects: redirs,
		Dir: s.dir.dir, DirUnknown: s.dir.unknown, Text: s.text}
	for _, a := range args {
		c.Args = append(c.Args, a.text)
		c.Dynamic = append(c.Dynamic, a.dynamic)
		c.Unset = append(c.Unset, a.unset)
	}
	r.out = append(r.out, c)
	return len(r.out) - 1
}

// command reads a command and its arguments: the cmdlets the policies
// read are written with their POSIX names, and the ones that run a
// program (powershell -Command, iex, Start-Process, cmd /c) have it read.
func (r *psReader) command(words []psWord, pipe, pos int, redirs []Redirect, s psScope) {
	name := psName(words[0].text)
	head := words[0]
	head.text = slashes(head.text)
	head.unset = head.text
	if i := strings.LastIndexByte(head.text, '/'); i >= 0 {
		head.text = head.text[:i+1] + name
	} else {
		head.text = name
	}
	head.unset = head.text
	args := append([]psWord{head}, words[1:]...)
	var blocks []int // indexes of script blocks among args
	for i, a := range args {
		if a.isBlock {
			blocks = append(blocks, i)
		}
	}
	at := -1
	defer func() {
		// The blocks given to a command run (ForEach-Object, Where-Object,
		// Invoke-Command, Start-Job …): read them as if they did.
		for _, i := range blocks {
			if r.err != nil {
				return
			}
			ns := s
			ns.parent, ns.inArg = at, i
			r.nested(args[i].block, ns, name+" {}", false)
		}
	}()
	if c, ok := cmdletTable()[name]; ok {
		posix, input, unknown := c.posix(args)
		if unknown && slices.Contains(posixNames, name) {
			// Options no cmdlet takes (rm -rf): an error on Windows, the
			// POSIX program's own options in pwsh on Linux and macOS.
			posix = []psWord{{text: name, unset: name}}
			for _, a := range args[1:] {
				if !a.param {
					a = pathWord(a)
				}
				posix = append(posix, a)
			}
		}
		at = r.emit(posix, pipe, pos, redirs, s)
		if input || pos > 0 && len(posix) > 0 && posix[len(posix)-1].text == "--" && len(c.paths) > 0 && !c.cd {
			r.out[at].Via = append(r.out[at].Via[:len(r.out[at].Via):len(r.out[at].Via)], "pipeline")
		}
		if c.cd {
			s.dir.cd(r.out[at])
		}
		return
	}
	switch name {
	case "sudo", "gsudo":
		if len(args) > 1 {
			s.sudo = true
			s.via = append(s.via[:len(s.via):len(s.via)], name)
			r.command(args[1:], pipe, pos, redirs, s)
		}
		return
	case "iex", "invoke-expression":
		at = r.emit(args, pipe, pos, redirs, s)
		r.iex(at, args, pos, s)
		return
	case "powershell", "pwsh":
		at = r.emit(args, pipe, pos, redirs, s)
		r.psShell(at, args, pos, s)
		return
	case "cmd":
		at = r.emit(args, pipe, pos, redirs, s)
		for i := 1; i < len(args); i++ {
			if a := strings.ToLower(args[i].text); a == "/c" || a == "/k" || a == "/r" {
				ns := s
				ns.parent, ns.inArg = at, -1
				r.nested(joinWords(args[i+1:]), ns, "cmd /c", true)
				return
			}
		}
		return
	case "start-process", "saps", "start":
		at = r.emit(args, pipe, pos, redirs, s)
		r.startProcess(at, args, s)
		return
	}
	at = r.emit(args, pipe, pos, redirs, s)
	r.inline(at, args, s)
}

// inline reads the code an interpreter is given on its command line
// (python -c, node -e …), as the bash reader does: what it hands to a
// shell is read as cmd.exe reads it, which runs it on Windows.
func (r *psReader) inline(at int, words []psWord, s psScope) {
	args := make([]arg, len(words))
	for i, w := range words {
		args[i] = arg{text: w.text, unset: w.unset, dyn: w.dynamic}
	}
	lang, code, how, ok := inlineCode(args)
	if !ok || len(code) > r.budget {
		return
	}
	r.budget -= len(code)
	ns := s
	ns.parent, ns.inArg = at, -1
	for _, run := range inlineRuns(lang, code) {
		if run.program != "" {
			r.nested(run.program, ns, how, true)
			continue
		}
		c := ns
		c.via = append(s.via[:len(s.via):len(s.via)], how)
		c.text = run.text
		posix := make([]psWord, len(run.words))
		for i, w := range run.words {
			posix[i] = pathWord(psWord{text: w, unset: w})
		}
		r.emit(posix, r.newPipe(), 0, nil, c)
	}
}

// cd follows Set-Location for the commands after it: PowerShell's
// location is the session's, so it holds in the blocks and nested
// programs that follow too.
func (d *psDir) cd(c Command) {
	for i := 1; i < len(c.Args); i++ {
		a := c.Args[i]
		if a == "--" || strings.HasPrefix(a, "-") && !c.Dynamic[i] {
			continue
		}
		if c.Dynamic[i] || a == "-" || a == "+" {
			d.dir, d.unknown = "", true
			return
		}
		switch {
		case drivePath(a):
			d.dir = a
		case !d.unknown:
			d.dir = joinDir(d.dir, a)
		}
		return
	}
}

// assign keeps what `$x = VALUE` gives a variable: a value written as a
// string ($p = "C:\\"); anything else (a command, an
// expression, +=) makes it known only at run time.
func (r *psReader) assign(target, op string, rest []psWord) {
	name := psVarName(target)
	if name == "" {
		return
	}
	if op != "=" || len(rest) != 1 || !rest[0].quoted || rest[0].dynamic || rest[0].isBlock || rest[0].parts != nil {
		delete(r.vars, name)
		return
	}
	if r.vars == nil {
		r.vars = map[string]string{}
	}
	if len(r.vars) >= maxVars {
		r.fail(0, "variables set in the line are more than this reader follows")
		return
	}
	r.vars[name] = rest[0].text
}

// substitute reads the words' variables that the line set with their
// values: a word whose every variable is one ($p, "$p\\sub", ${p}) is no
// longer dynamic.
func (r *psReader) substitute(words []psWord) {
	if len(r.vars) == 0 {
		return
	}
	for i := range words {
		w := &words[i]
		if !w.dynamic || w.isBlock || !strings.Contains(w.text, "$") {
			continue
		}
		var b strings.Builder
		ok, s := true, w.text
		for s != "" && ok {
			j := strings.IndexByte(s, '$')
			if j < 0 {
				b.WriteString(s)
				break
			}
			b.WriteString(s[:j])
			n := psVarLen(s[j:])
			v, known := r.vars[psVarName(s[j:j+n])]
			ok = known
			b.WriteString(v)
			s = s[j+n:]
		}
		if ok && len(b.String()) <= r.budget {
			r.budget -= b.Len()
			w.text, w.unset, w.dynamic = b.String(), b.String(), false
		}
	}
}

// psVarLen is the length of the variable reference at the start of s
// ($name, $scope:name, ${…}); 1 for a lone $.
func psVarLen(s string) int {
	if strings.HasPrefix(s, "${") {
		if end := strings.IndexByte(s, '}'); end > 0 {
			return end + 1
		}
		return len(s)
	}
	n := 1
	for n < len(s) && (isNameByte(s[n]) || s[n] == ':' && n+1 < len(s) && isNameByte(s[n+1])) {
		n++
	}
	return n
}

// psVarName is a variable reference's name as PowerShell matches it:
// lower-cased, without braces or the script:, global: and local: scopes;
// "" for what is no simple variable ($_, $env:X stays env:x).
func psVarName(ref string) string {
	name := strings.ToLower(strings.TrimPrefix(ref, "$"))
	name = strings.TrimSuffix(strings.TrimPrefix(name, "{"), "}")
	for _, scope := range []string{"script:", "global:", "local:", "private:"} {
		name = strings.TrimPrefix(name, scope)
	}
	if name == "" || name == "_" || strings.ContainsAny(name, " ()[]") {
		return ""
	}
	return name
}

// psAssignsAt reports whether s starts with an assignment operator (not
// the comparison ==).
func psAssignsAt(s string) bool {
	for _, op := range []string{"??=", "+=", "-=", "*=", "/=", "%="} {
		if strings.HasPrefix(s, op) {
			return true
		}
	}
	return strings.HasPrefix(s, "=") && !strings.HasPrefix(s, "==")
}

// windowsFolder is the folder a Windows environment variable (its name
// lower-cased) names on a default installation ($env:SystemRoot and
// %windir% are C:\Windows): a policy judges the folder it most likely is.
func windowsFolder(name string) (string, bool) {
	switch name {
	case "userprofile", "home":
		return "$HOME", true
	case "systemroot", "windir":
		return `C:\Windows`, true
	case "systemdrive", "homedrive":
		return "C:", true
	case "programfiles":
		return `C:\Program Files`, true
	case "programfiles(x86)":
		return `C:\Program Files (x86)`, true
	case "programdata", "allusersprofile":
		return `C:\ProgramData`, true
	case "appdata":
		return `$HOME\AppData\Roaming`, true
	case "localappdata":
		return `$HOME\AppData\Local`, true
	case "public":
		return `C:\Users\Public`, true
	}
	return "", false
}
