package shellcmd

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Code given to an interpreter on its command line (python3 -c, perl -e,
// ruby -e, node -e, php -r) is a program of its own, in a language this
// package does not parse. What it hands to a shell (os.system("…"),
// system("…"), `…`, execSync("…")) is read as a nested shell program, and
// its recursive deletes of a literal path (shutil.rmtree("/"),
// FileUtils.rm_rf, fs.rmSync) as the rm -r they are. The calls are found
// by name and their first argument read when it is a string literal (or,
// for Python's subprocess, a list of them), or the home folder as the
// language names it (Path.home(), os.homedir(): homeExpr); anything else
// the code does is not followed.

// inlineLang is what one language's code is searched for.
type inlineLang struct {
	shell   *regexp.Regexp // a call that runs its string argument in a shell
	deletes *regexp.Regexp // a call that deletes its path argument recursively
	quotes  string         // the characters that open a string literal
}

// The tables are built on first use: a call that reads no interpreter's
// code pays nothing at start (TestInitCost).
var (
	inlineOnce      sync.Once
	inlineLangTable map[string]*inlineLang
	backticksRe     *regexp.Regexp
	homeRe          *regexp.Regexp
)

// inlineTables are the languages' calls, and Perl's, Ruby's and PHP's
// command substitution: `…`, qx(…) and %x(…).
func inlineTables() (map[string]*inlineLang, *regexp.Regexp) {
	inlineOnce.Do(buildInlineTables)
	return inlineLangTable, backticksRe
}

func buildInlineTables() {
	// The home folder as the languages name it, for a delete's argument:
	// os.path.expanduser("~/x") keeps its path.
	homeRe = regexp.MustCompile(`^(?:` +
		`os\.path\.expanduser\(\s*['"](~(?:/[^'"]*)?)['"]\s*\)|` +
		`(?:pathlib\.)?Path\.home\(\)|os\.environ\[\s*['"]HOME['"]\s*\]|os\.(?:getenv|environ\.get)\(\s*['"]HOME['"]\s*\)|` +
		`(?:require\(\s*['"](?:node:)?os['"]\s*\)|os)\.homedir\(\)|process\.env\.HOME\b|process\.env\[\s*['"]HOME['"]\s*\]|` +
		`Dir\.home\b|ENV\[\s*['"]HOME['"]\s*\]|File\.expand_path\(\s*['"](~(?:/[^'"]*)?)['"]\s*\)|\$ENV\{\s*['"]?HOME['"]?\s*\})`)
	backticksRe = regexp.MustCompile("`([^`]*)`|\\b(?:qx|%x)\\s*(?:\\(([^)]*)\\)|\\{([^}]*)\\}|\\[([^\\]]*)\\])")
	inlineLangTable = map[string]*inlineLang{
		"python": {
			shell:   regexp.MustCompile(`\b(?:os\.system|os\.popen|subprocess\.(?:run|call|check_call|check_output|getoutput|getstatusoutput|Popen))\s*\(\s*`),
			deletes: regexp.MustCompile(`\b(?:shutil\.rmtree|rmtree|os\.removedirs)\s*\(\s*`),
			quotes:  `'"`,
		},
		"perl": {
			shell:   regexp.MustCompile(`\b(?:system|exec)\s*\(?\s*`),
			deletes: regexp.MustCompile(`\b(?:rmtree|remove_tree)\s*\(?\s*`),
			quotes:  `'"`,
		},
		"ruby": {
			shell:   regexp.MustCompile(`\b(?:system|exec|spawn|IO\.popen|Open3\.capture[23e]?|Open3\.popen[23e]?)\s*\(?\s*`),
			deletes: regexp.MustCompile(`\bFileUtils\.(?:rm_rf|rm_r|rmtree|remove_dir|remove_entry|remove_entry_secure)\s*\(?\s*`),
			quotes:  `'"`,
		},
		"node": {
			shell:   regexp.MustCompile(`\b(?:execSync|exec|spawnSync|spawn)\s*\(\s*`),
			deletes: regexp.MustCompile(`\b(?:rmSync|rmdirSync|rimraf(?:\.sync)?|rimrafSync|Deno\.remove(?:Sync)?|rm|rmdir)\s*\(\s*`),
			quotes:  "'\"`",
		},
		"awk": {
			shell:  regexp.MustCompile(`\bsystem\s*\(\s*`),
			quotes: `"`,
		},
		"php": {
			shell:  regexp.MustCompile(`\b(?:system|exec|shell_exec|passthru|popen|proc_open)\s*\(\s*`),
			quotes: `'"`,
		},
	}
}

// inlineCode finds the code an interpreter's command line gives it, and
// the language: python -c CODE, perl -e CODE (each -e a line; also in a
// bundle, -ne, -lpe), ruby -e, node -e / --eval / -p / --print (also bun),
// deno eval CODE, php -r CODE. how names the interpreter and its flag.
func inlineCode(args []arg) (lang, code, how string, ok bool) {
	name := base(args[0].text)
	switch {
	case strings.HasPrefix(name, "python") || strings.HasPrefix(name, "pypy"):
		lang = "python"
	case name == "perl" || strings.HasPrefix(name, "perl5"):
		lang = "perl"
	case name == "ruby":
		lang = "ruby"
	case name == "node" || name == "nodejs" || name == "bun" || name == "deno":
		lang = "node"
	case name == "php":
		lang = "php"
	case name == "awk" || name == "gawk" || name == "mawk" || name == "nawk":
		return awkCode(args)
	default:
		return "", "", "", false
	}
	var lines []string
	next := func(i int) int {
		if i+1 < len(args) && !args[i+1].dyn {
			lines = append(lines, args[i+1].text)
		}
		return i + 1
	}
	for i := 1; i < len(args); i++ {
		a := args[i].text
		if args[i].dyn {
			continue
		}
		switch lang {
		case "python":
			switch {
			case a == "-c":
				next(i)
				i = len(args) // -c ends python's options
			case strings.HasPrefix(a, "-c"):
				lines, i = append(lines, a[2:]), len(args)
			case a == "-W" || a == "-X":
				i++
			case a == "-m" || a == "-" || !strings.HasPrefix(a, "-"):
				i = len(args) // a module, stdin or a script: the rest is its
			}
			how = name + " -c"
		case "perl", "ruby":
			switch {
			case len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a, "eE") &&
				strings.Trim(a[1:strings.IndexAny(a, "eE")], "lnpaswWTx0") == "":
				if j := strings.IndexAny(a, "eE"); j+1 < len(a) {
					lines = append(lines, a[j+1:])
				} else {
					i = next(i)
				}
			case a == "--" || !strings.HasPrefix(a, "-"):
				i = len(args) // a script: the rest is its arguments
			}
			how = name + " -e"
		case "node":
			switch {
			case a == "-e" || a == "--eval" || a == "-p" || a == "--print" || name == "deno" && a == "eval":
				how = name + " " + a
				i = next(i)
			case strings.HasPrefix(a, "--eval=") || strings.HasPrefix(a, "--print="):
				_, v, _ := strings.Cut(a, "=")
				lines, how = append(lines, v), name+" --eval"
			case !strings.HasPrefix(a, "-"):
				i = len(args)
			}
		case "php":
			switch {
			case a == "-r":
				how = name + " -r"
				i = next(i)
			case !strings.HasPrefix(a, "-"):
				i = len(args)
			}
		}
	}
	if len(lines) == 0 {
		return lang, "", "", false
	}
	return lang, strings.Join(lines, "\n"), how, true
}

// awkCode is an awk program given on the command line: its first operand
// after the options (-F sep, -v var=value), unless -f names a file.
func awkCode(args []arg) (lang, code, how string, ok bool) {
	name := base(args[0].text)
	for i := 1; i < len(args); i++ {
		a := args[i].text
		switch {
		case args[i].dyn:
			return "awk", "", "", false
		case a == "-f" || strings.HasPrefix(a, "-f") && !strings.HasPrefix(a, "-F") || a == "--file":
			return "awk", "", "", false
		case a == "-F" || a == "-v" || a == "--assign" || a == "--field-separator":
			i++
		case a == "-e" || a == "--source":
			if i+1 < len(args) && !args[i+1].dyn {
				return "awk", args[i+1].text, name + " " + a, true
			}
			return "awk", "", "", false
		case a == "--":
			if i+1 < len(args) && !args[i+1].dyn {
				return "awk", args[i+1].text, name, true
			}
			return "awk", "", "", false
		case strings.HasPrefix(a, "-") && len(a) > 1:
		default:
			return "awk", a, name, true
		}
	}
	return "awk", "", "", false
}

// readsProgram reports whether an interpreter given no code on its
// command line reads its program from standard input: no operand, or "-".
func readsProgram(args []arg) bool {
	for _, a := range args[1:] {
		if a.dyn {
			return false
		}
		if a.text == "-" {
			return true
		}
		if !strings.HasPrefix(a.text, "-") {
			return false // a script, or a module's name after -m
		}
		if a.text == "-m" || a.text == "-f" || a.text == "-r" {
			return false
		}
	}
	return true
}

// inlineRun is one thing an interpreter's code runs: a program handed to
// a shell, or a program and its words (subprocess.run([…]), and the rm -r
// a recursive delete is).
type inlineRun struct {
	program string   // for a shell
	words   []string // else: the program and its arguments
	text    string   // the call that runs it, for a reason ("" for a shell's program)
}

// inlineRuns finds what code in lang runs: shell-outs with a literal
// program or argument list, backquotes, and recursive deletes of literal
// paths.
func inlineRuns(lang, code string) []inlineRun {
	langs, backticks := inlineTables()
	l := langs[lang]
	var out []inlineRun
	for _, m := range l.shell.FindAllStringIndex(code, -1) {
		if words, list := literals(code[m[1]:], l.quotes); list && len(words) > 0 {
			// subprocess.run(["rm", "-rf", "/"]): the words themselves.
			out = append(out, inlineRun{words: words, text: callText(code[m[0]:m[1]], words, true)})
		} else if len(words) == 1 {
			out = append(out, inlineRun{program: words[0]})
		}
	}
	if lang != "python" && lang != "node" {
		for _, m := range backticks.FindAllStringSubmatch(code, -1) {
			for _, prog := range m[1:] {
				if prog != "" {
					out = append(out, inlineRun{program: prog})
				}
			}
		}
	}
	if l.deletes != nil {
		for _, m := range l.deletes.FindAllStringIndex(code, -1) {
			if words, list := literals(code[m[1]:], l.quotes); len(words) > 0 {
				out = append(out, inlineRun{words: append([]string{"rm", "-r", "--"}, words...), text: callText(code[m[0]:m[1]], words, list)})
			}
		}
	}
	return out
}

// inline reads the code an interpreter is given on its command line.
func (w *walker) inline(cl *call, args []arg) {
	lang, code, how, ok := inlineCode(args)
	if !ok && lang != "" && lang != "awk" && cl.stdin != nil && cl.stdin.known && readsProgram(args) {
		// perl <<EOF … EOF, python3 - <<< '…': the program is fed in.
		code, how, ok = cl.stdin.text, base(args[0].text)+" <<", true
	}
	if !ok || len(code) > w.budget {
		return
	}
	w.budget -= len(code) // read as a nested program is: counted
	for _, run := range inlineRuns(lang, code) {
		if run.program != "" {
			w.nest(cl, run.program, how, false)
		} else {
			w.inlineCommand(cl, how, run.text, run.words)
		}
	}
}

// inlineCommand reads a command the interpreter's code runs, with the
// code that runs it as its text.
func (w *walker) inlineCommand(cl *call, how, text string, words []string) {
	c := &call{sc: cl.sc, via: push(cl.via, how), sudo: cl.sudo, text: text, dir: cl.dir, dirDyn: cl.dirDyn}
	args := make([]arg, len(words))
	for i, s := range words {
		args[i] = arg{text: s, unset: s}
	}
	w.run(c, args)
}

// callText is a call of the code, for a reason: its name and its string
// arguments, a list's in brackets.
func callText(name string, words []string, list bool) string {
	name = strings.TrimRight(name, " \t\n(")
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = strconv.Quote(w)
	}
	if list {
		return name + "([" + strings.Join(quoted, ", ") + "])"
	}
	return name + "(" + strings.Join(quoted, ", ") + ")"
}

// literals reads the arguments that start code: a string literal (one
// word: a shell program), or words (list true): a list of literals
// (["rm", "-rf", "/"]), or literals separated by commas, the last of them
// maybe a list (Perl's and Ruby's system("rm", "-rf", "/"), Node's
// spawnSync("rm", ["-rf", "/"])): a program and its arguments. What is
// not a literal ends the reading.
func literals(code, quotes string) (words []string, list bool) {
	list = strings.HasPrefix(code, "[")
	rest := code
	if list {
		rest = code[1:]
	}
	for {
		rest = strings.TrimLeft(rest, " \t\n")
		if !list && strings.HasPrefix(rest, "[") && len(words) > 0 {
			more, _ := literals(rest, quotes)
			return append(words, more...), true
		}
		s, n, ok := literal(strings.TrimLeft(rest, "rRbBuU"), quotes) // Python's r"…", b'…'
		if !ok {
			if s, n, ok = homeExpr(rest); !ok {
				break
			}
		}
		words = append(words, s)
		rest = strings.TrimLeft(strings.TrimLeft(rest, "rRbBuU")[n:], " \t\n")
		if !strings.HasPrefix(rest, ",") {
			break
		}
		rest = rest[1:]
	}
	return words, list || len(words) > 1
}

// homeExpr reads an expression for the home folder at the start of code
// (Path.home(), os.homedir(), Dir.home, $ENV{HOME}, expanduser("~/x")):
// "~" (or the path it names in it), and its length. A path built on it
// with literals (`Path.home() / "x"`, `os.homedir() + "/x"`) is that
// path; built any other way (`.joinpath(x)`, `/ name`), it is not a
// literal, and ok is false.
func homeExpr(code string) (string, int, bool) {
	inlineTables()
	m := homeRe.FindStringSubmatchIndex(code)
	if m == nil {
		return "", 0, false
	}
	word := "~"
	for i := 2; i+1 < len(m); i += 2 {
		if m[i] >= 0 {
			word = code[m[i]:m[i+1]]
		}
	}
	n := m[1]
	for {
		rest := strings.TrimLeft(code[n:], " \t")
		if strings.HasPrefix(rest, ".") || strings.HasPrefix(rest, "[") {
			return "", 0, false // a method or an index of the path
		}
		if !strings.HasPrefix(rest, "/") && !strings.HasPrefix(rest, "+") {
			return word, n, true
		}
		after := strings.TrimLeft(rest[1:], " \t")
		lit, k, ok := literal(after, `'"`)
		if !ok {
			return "", 0, false
		}
		word = strings.TrimRight(word, "/") + "/" + strings.Trim(lit, "/")
		n = len(code) - len(after) + k
	}
}

// literal reads one string literal at the start of code: its text with
// backslash escapes of the quote, the backslash and \n, \t decoded, and its
// length. ok is false when code does not start with one, or when the
// literal interpolates (f"{x}", "#{x}", `${x}`, Perl's "$x"), which only
// the run knows.
func literal(code, quotes string) (string, int, bool) {
	if code == "" || !strings.ContainsRune(quotes, rune(code[0])) {
		return "", 0, false
	}
	q := code[0]
	var b strings.Builder
	for i := 1; i < len(code); i++ {
		c := code[i]
		switch {
		case c == q:
			s := b.String()
			if q != '\'' && (strings.Contains(s, "#{") || strings.Contains(s, "${")) {
				return "", 0, false
			}
			return s, i + 1, true
		case c == '\\' && i+1 < len(code):
			i++
			switch code[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(code[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, false
}
