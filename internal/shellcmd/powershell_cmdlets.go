package shellcmd

import (
	"encoding/base64"
	"strings"
	"sync"
	"unicode/utf16"
)

// cmdlet is a PowerShell command whose meaning a POSIX command shares,
// with the parameters PowerShell matches its arguments against.
type cmdlet struct {
	name       string   // the POSIX command it is written as
	flags      []string // options it always has (Add-Content appends: tee -a)
	positional []string // the parameters positional arguments bind to, in order
	switches   map[string]string
	values     []string          // the parameters that take a value
	aliases    map[string]string // parameter aliases, lower-case, to their parameter
	paths      []string          // the parameters whose values are the command's operands, in order
	cd         bool              // it changes the folder the next commands run in
	deflt      string            // the last operand when none is given (Move-Item's destination)
}

// commonValues are the common parameters that take a value, and
// commonSwitches those that do not; every cmdlet has them.
var (
	commonValues   = []string{"erroraction", "warningaction", "informationaction", "errorvariable", "warningvariable", "informationvariable", "outvariable", "outbuffer", "pipelinevariable", "progressaction"}
	commonSwitches = []string{"verbose", "debug", "whatif", "confirm"}
	commonAliases  map[string]string // filled by cmdletTable

	commonAliasPairs = [...]string{"ea", "erroraction", "wa", "warningaction", "infa", "informationaction", "ev", "errorvariable", "wv", "warningvariable", "iv", "informationvariable", "ov", "outvariable", "ob", "outbuffer", "pv", "pipelinevariable", "proga", "progressaction", "vb", "verbose", "db", "debug", "wi", "whatif", "cf", "confirm"}
)

// cmdletTable is the table of cmdlets, built on first use only: a hook
// call that reads no PowerShell line pays nothing for it.
func cmdletTable() map[string]*cmdlet {
	cmdletOnce.Do(buildCmdlets)
	return cmdlets
}

var (
	cmdletOnce sync.Once
	cmdlets    map[string]*cmdlet
)

func buildCmdlets() {
	commonAliases = map[string]string{}
	for i := 0; i < len(commonAliasPairs); i += 2 {
		commonAliases[commonAliasPairs[i]] = commonAliasPairs[i+1]
	}
	removeItem := &cmdlet{name: "rm", positional: []string{"path"},
		switches: map[string]string{"recurse": "-r", "force": "-f"},
		values:   []string{"path", "literalpath", "filter", "include", "exclude", "credential", "stream"},
		aliases:  map[string]string{"pspath": "literalpath", "lp": "literalpath"},
		paths:    []string{"path", "literalpath"}}
	moveItem := &cmdlet{name: "mv", positional: []string{"path", "destination"},
		switches: map[string]string{"force": "-f", "passthru": ""},
		values:   []string{"path", "literalpath", "destination", "filter", "include", "exclude", "credential"},
		aliases:  map[string]string{"pspath": "literalpath", "lp": "literalpath"},
		paths:    []string{"path", "literalpath", "destination"}, deflt: "."}
	copyItem := &cmdlet{name: "cp", positional: []string{"path", "destination"},
		switches: map[string]string{"recurse": "-r", "force": "-f", "passthru": "", "container": ""},
		values:   []string{"path", "literalpath", "destination", "filter", "include", "exclude", "credential", "fromsession", "tosession"},
		aliases:  map[string]string{"pspath": "literalpath", "lp": "literalpath"},
		paths:    []string{"path", "literalpath", "destination"}, deflt: "."}
	getContent := &cmdlet{name: "cat", positional: []string{"path"},
		switches: map[string]string{"raw": "", "force": "", "wait": "", "asbytestream": ""},
		values:   []string{"path", "literalpath", "readcount", "totalcount", "tail", "filter", "include", "exclude", "credential", "delimiter", "encoding", "stream"},
		aliases:  map[string]string{"pspath": "literalpath", "lp": "literalpath", "first": "totalcount", "head": "totalcount", "last": "tail"},
		paths:    []string{"path", "literalpath"}}
	setContent := &cmdlet{name: "tee", positional: []string{"path", "value"},
		switches: map[string]string{"passthru": "", "force": "", "nonewline": "", "asbytestream": ""},
		values:   []string{"path", "literalpath", "value", "filter", "include", "exclude", "credential", "encoding", "stream"},
		aliases:  map[string]string{"pspath": "literalpath", "lp": "literalpath"},
		paths:    []string{"path", "literalpath"}}
	outFile := &cmdlet{name: "tee", positional: []string{"filepath", "encoding"},
		switches: map[string]string{"append": "-a", "force": "", "noclobber": "", "nonewline": ""},
		values:   []string{"filepath", "literalpath", "encoding", "width", "inputobject"},
		aliases:  map[string]string{"path": "filepath", "pspath": "literalpath", "lp": "literalpath"},
		paths:    []string{"filepath", "literalpath"}}
	newItem := &cmdlet{name: "touch", positional: []string{"path"},
		switches: map[string]string{"force": ""},
		values:   []string{"path", "name", "itemtype", "value", "credential"},
		aliases:  map[string]string{"type": "itemtype", "target": "value"},
		paths:    []string{"path"}}
	setLocation := &cmdlet{name: "cd", positional: []string{"path"},
		switches: map[string]string{"passthru": ""},
		values:   []string{"path", "literalpath", "stackname"},
		aliases:  map[string]string{"pspath": "literalpath", "lp": "literalpath"},
		paths:    []string{"path", "literalpath"}, cd: true}
	webRequest := &cmdlet{name: "curl", positional: []string{"uri"},
		switches: map[string]string{"usebasicparsing": "", "usedefaultcredentials": "", "skipcertificatecheck": "", "passthru": "", "disablekeepalive": "", "skipheadervalidation": ""},
		values: []string{"uri", "outfile", "method", "body", "headers", "contenttype", "infile", "useragent", "credential", "websession",
			"sessionvariable", "timeoutsec", "maximumredirection", "proxy", "proxycredential", "certificate", "certificatethumbprint", "transferencoding", "form", "token", "authentication"},
		aliases: map[string]string{"url": "uri"},
		paths:   []string{"uri"}}

	// cmdlets are the commands written with a POSIX name, by their names and
	// aliases, lower-case. `curl` and `wget` are Invoke-WebRequest's aliases
	// in Windows PowerShell 5.1 only; as curl they are read either way.
	cmdlets = map[string]*cmdlet{
		"remove-item": removeItem, "rm": removeItem, "del": removeItem, "erase": removeItem, "ri": removeItem, "rd": removeItem, "rmdir": removeItem,
		"move-item": moveItem, "mv": moveItem, "move": moveItem, "mi": moveItem,
		"copy-item": copyItem, "cp": copyItem, "copy": copyItem, "cpi": copyItem,
		"get-content": getContent, "gc": getContent, "cat": getContent, "type": getContent,
		"set-content": setContent, "sc": setContent, "add-content": {name: "tee", flags: []string{"-a"}, positional: setContent.positional,
			switches: setContent.switches, values: setContent.values, aliases: setContent.aliases, paths: setContent.paths},
		"ac":       {name: "tee", flags: []string{"-a"}, positional: setContent.positional, switches: setContent.switches, values: setContent.values, aliases: setContent.aliases, paths: setContent.paths},
		"out-file": outFile,
		"new-item": newItem, "ni": newItem,
		"set-location": setLocation, "cd": setLocation, "chdir": setLocation, "sl": setLocation,
		"push-location": setLocation, "pushd": setLocation,
		"invoke-webrequest": webRequest, "iwr": webRequest, "invoke-restmethod": webRequest, "irm": webRequest, "curl": webRequest, "wget": webRequest,
	}
}

// param resolves a parameter name (lower-case, without its dash) as
// PowerShell does: exactly, by an alias, or by a prefix of one parameter
// only. ok is false for a name it does not know or one that is ambiguous,
// which PowerShell refuses to run.
func (c *cmdlet) param(name string) (param string, ok bool) {
	if p, ok := c.aliases[name]; ok {
		return p, true
	}
	if p, ok := commonAliases[name]; ok {
		return p, true
	}
	var found string
	n := 0
	try := func(p string) bool {
		if p == name {
			found, n = p, 1
			return true
		}
		if strings.HasPrefix(p, name) && p != found {
			found = p
			n++
		}
		return false
	}
	for _, list := range [][]string{c.values, commonValues, commonSwitches} {
		for _, p := range list {
			if try(p) {
				return found, true
			}
		}
	}
	for p := range c.switches {
		if try(p) {
			return found, true
		}
	}
	return found, n == 1
}

func (c *cmdlet) takesValue(p string) bool {
	for _, v := range c.values {
		if v == p {
			return true
		}
	}
	for _, v := range commonValues {
		if v == p {
			return true
		}
	}
	return false
}

// posix binds args (the command first) to the cmdlet's parameters and
// writes them as its POSIX command: the name, the options the switches
// stand for, "--", the paths.
// input says whether a path names the pipeline's input ($_, $PSItem);
// unknown whether a parameter matched none of the cmdlet's.
func (c *cmdlet) posix(args []psWord) (out []psWord, input, unknown bool) {
	bound := map[string][]psWord{}
	var flags []string
	next := 0
	bind := func(p string, w psWord) {
		if w.parts != nil {
			bound[p] = append(bound[p], w.parts...)
		} else {
			bound[p] = append(bound[p], w)
		}
	}
	positional := func(w psWord) {
		if next < len(c.positional) {
			bind(c.positional[next], w)
			next++
			return
		}
		// More positional arguments than the cmdlet takes is an error in
		// PowerShell; read them as operands all the same.
		bind(c.positional[0], w)
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		if !a.param || a.text == "-" || a.text == "--" {
			if a.text == "--" && a.param {
				for _, w := range args[i+1:] {
					positional(w)
				}
				break
			}
			positional(a)
			continue
		}
		// Cut before lower-casing: ToLower rewrites invalid UTF-8 to
		// U+FFFD, three bytes, and the value's place in the text moves.
		name, value, inline := strings.Cut(a.text[1:], ":")
		name = strings.ToLower(name)
		p, ok := c.param(name)
		if !ok {
			// A parameter this reader does not know: take what follows as
			// an operand, the reading that finds more to check.
			unknown = true
			continue
		}
		if c.takesValue(p) {
			if inline {
				w := a
				w.text, w.unset = a.text[len(a.text)-len(value):], a.unset[min(len(a.unset), len(a.text)-len(value)):]
				w.param, w.parts = false, nil
				bind(p, w)
			} else if i+1 < len(args) {
				i++
				bind(p, args[i])
			}
			continue
		}
		if inline && strings.EqualFold(value, "$false") {
			continue
		}
		if f := c.switches[p]; f != "" {
			flags = append(flags, f)
		}
	}
	out = []psWord{{text: c.name, unset: c.name}}
	for _, f := range append(c.flags, flags...) {
		out = append(out, psWord{text: f, unset: f})
	}
	if c.name == "curl" {
		if o := bound["outfile"]; len(o) > 0 {
			out = append(out, psWord{text: "-o", unset: "-o"}, pathWord(o[0]))
		}
	}
	out = append(out, psWord{text: "--", unset: "--"})
	n := len(out)
	for _, p := range c.paths {
		for _, w := range bound[p] {
			out = append(out, pathWord(w))
			t := strings.ToLower(w.text)
			input = input || strings.HasPrefix(t, "$_") || strings.HasPrefix(t, "$psitem")
		}
	}
	if c.deflt != "" && len(out)-n == 1 {
		out = append(out, psWord{text: c.deflt, unset: c.deflt})
	}
	return out, input, unknown
}

// posixNames are the aliases that PowerShell on Linux and macOS does not
// have: there the name runs the POSIX program itself (rm -rf /).
var posixNames = []string{"rm", "rmdir", "mv", "cp", "cat"}

// pathWord writes a path with slashes, as the policies read paths.
func pathWord(w psWord) psWord {
	w.text, w.unset = slashes(w.text), slashes(w.unset)
	return w
}

func slashes(s string) string { return strings.ReplaceAll(s, `\`, "/") }

// drivePath reports whether s starts with a drive letter: C:, C:/x, C:\x.
func drivePath(s string) bool {
	return len(s) >= 2 && s[1] == ':' && (s[0]|0x20 >= 'a' && s[0]|0x20 <= 'z')
}

// joinWords is the command line that words make, as a program reads it
// when handed them (-Command's words joined by spaces).
func joinWords(words []psWord) string {
	texts := make([]string, len(words))
	for i, w := range words {
		texts[i] = w.text
	}
	return strings.Join(texts, " ")
}

// iex reads the program Invoke-Expression runs: its literal argument, in
// turn; one known only at run time (a variable, its input) is not read.
func (r *psReader) iex(at int, args []psWord, pos int, s psScope) {
	var prog []psWord
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a.param {
			if name, _, _ := strings.Cut(strings.ToLower(a.text[1:]), ":"); strings.HasPrefix("command", name) && i+1 < len(args) {
				prog = append(prog, args[i+1])
				i++
			}
			continue
		}
		prog = append(prog, a)
	}
	if len(prog) == 0 {
		if pos > 0 {
			r.out[at].Program = ProgramStdin
			r.fail(s.depth, "Invoke-Expression runs a program read from its input")
		}
		return
	}
	for _, w := range prog {
		if w.dynamic || w.isBlock {
			r.out[at].Program = ProgramArg
			r.fail(s.depth, "Invoke-Expression runs a program known only at run time")
			return
		}
	}
	ns := s
	ns.parent, ns.inArg = at, 1
	r.nested(joinWords(prog), ns, "iex", false)
}

// psShell reads the program a powershell or pwsh command runs: its
// -Command words, its -EncodedCommand; a script file is not read.
func (r *psReader) psShell(at int, args []psWord, pos int, s psScope) {
	ns := s
	ns.parent, ns.inArg = at, -1
	for i := 1; i < len(args); i++ {
		a := args[i]
		if !a.param {
			if strings.HasSuffix(strings.ToLower(a.text), ".ps1") {
				r.out[at].Program = ProgramFile
				return
			}
			r.nested(joinWords(args[i:]), ns, "powershell -c", false)
			return
		}
		name, _, _ := strings.Cut(strings.ToLower(a.text[1:]), ":")
		switch {
		case name == "" || name == "-":
			continue
		case name == "c" || strings.HasPrefix("command", name) && len(name) > 2 || name == "cwa" || strings.HasPrefix("commandwithargs", name) && len(name) > 7:
			if i+1 < len(args) && args[i+1].text == "-" {
				r.out[at].Program = ProgramStdin
				r.fail(s.depth, "powershell -Command - runs a program read from its input")
				return
			}
			if i+1 < len(args) && (args[i+1].dynamic || args[i+1].isBlock) {
				if args[i+1].isBlock {
					r.nested(args[i+1].block, ns, "powershell -c", false)
					return
				}
				r.out[at].Program = ProgramArg
				r.fail(s.depth, "powershell -Command runs a program known only at run time")
				return
			}
			r.nested(joinWords(args[i+1:]), ns, "powershell -c", false)
			return
		case name == "e" || name == "ec" || len(name) > 1 && strings.HasPrefix("encodedcommand", name):
			if i+1 >= len(args) || args[i+1].dynamic {
				r.out[at].Program = ProgramArg
				r.fail(s.depth, "powershell -EncodedCommand runs a program known only at run time")
				return
			}
			prog, ok := decodeUTF16(args[i+1].text)
			if !ok {
				r.fail(s.depth, "powershell -EncodedCommand is not base64 of UTF-16LE text")
				return
			}
			r.nested(prog, ns, "powershell -EncodedCommand", false)
			return
		case name == "f" || strings.HasPrefix("file", name):
			r.out[at].Program = ProgramFile
			return
		case strings.HasPrefix("executionpolicy", name) && len(name) > 1 || name == "ep" || strings.HasPrefix("windowstyle", name) ||
			strings.HasPrefix("workingdirectory", name) && len(name) > 1 || name == "wd" || strings.HasPrefix("inputformat", name) && len(name) > 1 ||
			strings.HasPrefix("outputformat", name) || strings.HasPrefix("version", name) || strings.HasPrefix("configurationname", name) && len(name) > 2 ||
			strings.HasPrefix("psconsolefile", name) && len(name) > 1 || strings.HasPrefix("settingsfile", name) && len(name) > 1 ||
			strings.HasPrefix("encodedarguments", name) && len(name) > 7 || strings.HasPrefix("configurationfile", name) && len(name) > 13 ||
			strings.HasPrefix("custompipename", name) && len(name) > 1:
			i++ // its value
		}
	}
	if pos > 0 {
		// No program given: the shell reads one from its input.
		r.out[at].Program = ProgramStdin
		r.fail(s.depth, "powershell runs a program read from its input")
	}
}

// decodeUTF16 decodes -EncodedCommand's value: base64 of UTF-16LE text.
func decodeUTF16(s string) (string, bool) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b)%2 != 0 {
		return "", false
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	return string(utf16.Decode(u)), true
}

// startProcess reads the command Start-Process starts: -FilePath and
// -ArgumentList, joined into the command line Windows hands the program,
// read in turn.
func (r *psReader) startProcess(at int, args []psWord, s psScope) {
	var file []psWord
	var list []psWord
	next := 0
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a.param {
			name, _, _ := strings.Cut(strings.ToLower(a.text[1:]), ":")
			switch {
			case strings.HasPrefix("filepath", name) && len(name) > 0 || name == "path":
				if i+1 < len(args) {
					file = append(file, args[i+1])
				}
			case strings.HasPrefix("argumentlist", name) && len(name) > 0 || name == "args":
				if i+1 < len(args) {
					list = append(list, args[i+1])
				}
			case name == "verb":
				if i+1 < len(args) && strings.EqualFold(args[i+1].text, "runas") {
					s.sudo = true
				}
			case strings.HasPrefix("wait", name) || strings.HasPrefix("nonewwindow", name) || strings.HasPrefix("passthru", name) ||
				strings.HasPrefix("loaduserprofile", name) || strings.HasPrefix("usenewenvironment", name):
				continue
			}
			i++
			continue
		}
		if next == 0 {
			file = append(file, a)
		} else {
			list = append(list, a)
		}
		next++
	}
	if len(file) == 0 {
		return
	}
	words := file[:1]
	for _, w := range list {
		if w.parts != nil {
			words = append(words, w.parts...)
		} else {
			words = append(words, w)
		}
	}
	for _, w := range words {
		if w.dynamic || w.isBlock {
			r.out[at].Program = ProgramArg
			r.fail(s.depth, "Start-Process starts a program known only at run time")
			return
		}
	}
	ns := s
	ns.parent, ns.inArg = at, -1
	r.nested(joinWords(words), ns, "Start-Process", false)
}

// cmdProgram reads a program cmd.exe runs (`cmd /c "…"`): its commands
// between &, &&, || and |, words split at spaces with "…" quoting and ^
// escapes. rd /s and del /s read as rm -r, /q as -f; other commands are
// read as PowerShell reads them (cmd /c powershell -c …). Blocks,
// conditionals and for loops are not followed.
func (r *psReader) cmdProgram(src string, s psScope) {
	var words []psWord
	var redirs []Redirect
	pipe, pos := r.newPipe(), 0
	start := -1 // where the command starts in src
	flush := func(end int) {
		if len(words) > 0 {
			s.text = strings.TrimRight(src[start:end], " \t\f\v")
			r.cmdCommand(words, pipe, pos, redirs, s)
			pos++
		}
		words, redirs, start = nil, nil, -1
	}
	for i := 0; i < len(src) && r.err == nil; {
		c := src[i]
		if start < 0 && !isSpace(c) && c != '&' && c != '|' && c != '\n' && c != '\r' {
			start = i
		}
		switch {
		case isSpace(c):
			i++
		case c == '&' || c == '|' || c == '\n' || c == '\r':
			flush(i)
			if c != '|' || i+1 < len(src) && src[i+1] == '|' {
				pipe, pos = r.newPipe(), 0
			}
			i++
			if i < len(src) && (src[i] == '&' || src[i] == '|') {
				i++
			}
		case c == '(' || c == ')':
			r.fail(s.depth, "a cmd.exe block is not followed")
		case c == '>' || c == '<' || c >= '0' && c <= '9' && i+1 < len(src) && src[i+1] == '>':
			j := i
			for j < len(src) && strings.IndexByte("0123456789<>&", src[j]) >= 0 {
				j++
			}
			op := src[i:j]
			i = j
			if strings.HasSuffix(op, "&") {
				for i < len(src) && src[i] >= '0' && src[i] <= '9' {
					i++
				}
				redirs = append(redirs, Redirect{Op: op})
				continue
			}
			w, n := cmdWord(src[i:])
			for i+n < len(src) && isSpace(src[i+n]) && w.text == "" {
				i++
				w, n = cmdWord(src[i:])
			}
			i += n
			redirs = append(redirs, Redirect{Op: op, Target: slashes(w.text), Dynamic: w.dynamic})
		default:
			w, n := cmdWord(src[i:])
			if n == 0 {
				i++
				continue
			}
			words = append(words, w)
			i += n
		}
	}
	flush(len(src))
}

// cmdWord reads one cmd.exe word from the start of s, and its length.
func cmdWord(s string) (psWord, int) {
	var w psWord
	var b strings.Builder
	quoted := false
	i := 0
	for i < len(s) {
		c := s[i]
		if !quoted && (isSpace(c) || strings.IndexByte("&|<>()\n\r", c) >= 0) {
			break
		}
		switch {
		case c == '"':
			quoted = !quoted
		case c == '^' && !quoted && i+1 < len(s):
			i++
			b.WriteByte(s[i])
		case c == '%' || c == '!':
			// %VAR% and !VAR! expand when the line runs; the folders
			// Windows names (%USERPROFILE%, %windir%) are read as the
			// folder they name.
			if end := strings.IndexByte(s[i+1:], c); end > 0 {
				if v, ok := windowsFolder(strings.ToLower(s[i+1 : i+1+end])); ok {
					b.WriteString(v)
					i += end + 2
					continue
				}
				w.dynamic = true
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
		i++
	}
	w.text = b.String()
	w.unset = w.text
	if w.dynamic {
		w.unset = unsetPercent(w.text)
	}
	return w, i
}

// unsetPercent is a cmd.exe word with its %VAR% expansions empty.
func unsetPercent(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexAny(s, "%!")
		if i < 0 {
			return b.String() + s
		}
		end := strings.IndexByte(s[i+1:], s[i])
		if end < 0 {
			return b.String() + s
		}
		b.WriteString(s[:i])
		s = s[i+end+2:]
	}
}

// cmdCommand reads one cmd.exe command.
func (r *psReader) cmdCommand(words []psWord, pipe, pos int, redirs []Redirect, s psScope) {
	name := psName(words[0].text)
	if strings.HasPrefix(name, "@") {
		name = name[1:]
	}
	switch name {
	case "rd", "rmdir", "del", "erase":
		args := []psWord{{text: "rm", unset: "rm"}}
		var ops []psWord
		for _, w := range words[1:] {
			switch strings.ToLower(w.text) {
			case "/s":
				args = append(args, psWord{text: "-r", unset: "-r"})
			case "/q", "/f":
				args = append(args, psWord{text: "-f", unset: "-f"})
			default:
				if !strings.HasPrefix(w.text, "/") || len(w.text) > 2 {
					ops = append(ops, pathWord(w))
				}
			}
		}
		args = append(append(args, psWord{text: "--", unset: "--"}), ops...)
		r.emit(args, pipe, pos, redirs, s)
		return
	case "if", "for", "call", "goto", "setlocal":
		r.fail(s.depth, "the cmd.exe command "+name+" is not followed")
		return
	}
	if w := words[0]; w.dynamic {
		r.fail(s.depth, "cmd.exe runs a command known only at run time")
		return
	}
	r.command(cmdAsPS(words), pipe, pos, redirs, s)
}

// cmdAsPS marks the parameters of cmd.exe's words for the PowerShell
// reading of the programs it runs.
func cmdAsPS(words []psWord) []psWord {
	out := make([]psWord, len(words))
	for i, w := range words {
		w.param = strings.HasPrefix(w.text, "-")
		out[i] = w
	}
	return out
}
