package shellcmd

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// call is a simple command being unwrapped.
type call struct {
	sc      *scope
	via     []string
	sudo    bool
	box     *Container // the container it runs in (docker run), or nil
	env     []string
	set     []assigned // the variables env gives the command, for a shell it starts
	params  []arg      // what a shell's -c program gets after it: $0, $1 …
	fed     bool       // … and more from xargs or parallel
	text    string     // the command as written, when a word reads a variable the line sets
	dir     string     // set by env -C, sudo -D
	dirDyn  bool       // … to a folder known only at run time
	redirs  []Redirect
	stdin   *feed
	dropped []*syntax.Word // words that are not the command's arguments
}

// call reads one simple command (with the redirections of its statement):
// once for each reading of the variables the line sets that it reads.
func (w *walker) call(ce *syntax.CallExpr, stmtRedirs []*syntax.Redirect, sc *scope) {
	binds, ok := w.bindings(sc, ce, stmtRedirs)
	if !ok {
		w.fail(&ParseError{Nested: sc.depth, Msg: fmt.Sprintf("variables set in the line take more values than this reader follows (%d readings of a command, %d variables)", maxValues, maxVars)})
		return
	}
	if extra := len(binds) - 1; extra > 0 {
		// Each further reading walks the command again, its
		// substitutions too: counted against the budget as nested
		// programs are, so that nested loops stay linear in the line.
		cost := extra * (len(w.slice(sc.src, ce)) + 1)
		if cost > w.budget {
			w.fail(&ParseError{Nested: sc.depth, Msg: "variables set in the line take too many values to follow"})
			return
		}
		w.budget -= cost
	}
	if len(ce.Args) == 0 {
		w.assign(sc, ce.Assigns, binds)
	}
	dir, unknown := sc.frame.dir, sc.frame.unknown
	for _, b := range binds {
		w.call1(ce, stmtRedirs, withBind(sc, b))
	}
	if len(binds) > 1 && (sc.frame.dir != dir || sc.frame.unknown != unknown) {
		sc.frame.dir, sc.frame.unknown = "", true // cd $d, d one of several
	}
}

func (w *walker) call1(ce *syntax.CallExpr, stmtRedirs []*syntax.Redirect, sc *scope) {
	// via is this command's own: wrappers are appended to it in place.
	cl := &call{sc: sc, via: append([]string(nil), sc.via...), sudo: sc.sudo, box: sc.container, stdin: sc.stdin}
	for _, a := range ce.Assigns {
		av := w.render(sc, assignWord(a))
		cl.env = append(cl.env, av.text)
		if a.Name != nil && a.Index == nil && a.Array == nil && !a.Naked {
			v := w.value(sc, a.Value)
			cl.set = append(cl.set, assigned{a.Name.Value, v.text, !v.dyn})
		}
		if a.Value != nil {
			cl.dropped = append(cl.dropped, a.Value)
		}
		if a.Array != nil {
			for _, e := range a.Array.Elems {
				if e.Value != nil {
					cl.dropped = append(cl.dropped, e.Value)
				}
			}
		}
	}
	cl.redirs = append(sc.redirs[:len(sc.redirs):len(sc.redirs)], w.redirects(stmtRedirs, sc)...)
	if in := w.stdinOf(stmtRedirs, sc); in != nil {
		cl.stdin = in
	}
	for _, rd := range stmtRedirs {
		cl.dropped = append(cl.dropped, rd.Word)
		if rd.Hdoc != nil {
			cl.dropped = append(cl.dropped, rd.Hdoc)
		}
	}
	args := w.words(sc, ce.Args)
	for _, a := range args {
		if a.set {
			cl.text = w.slice(sc.src, ce)
			break
		}
	}
	w.run(cl, args)
}

// shells are the programs whose -c argument, or standard input, is a
// shell program.
var shells = []string{"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "yash", "posh"}

// run unwraps the wrappers in front of args and records what is left.
func (w *walker) run(cl *call, args []arg) {
	for len(args) > 0 && !args[0].dyn {
		name := base(args[0].text)
		var rest []arg
		var ok bool
		if strings.Contains(args[0].text, "/") && w.runScript(cl, args, 0, "", false) {
			return // ./x.sh, a script the line wrote
		}
		switch name {
		case "source", ".":
			if w.runScript(cl, args, 1, name, true) {
				return
			}
		case "sudo", "doas":
			var done bool
			if rest, ok, done = w.sudo(cl, args); done {
				return
			}
		case "su", "runuser":
			var done bool
			if rest, ok, done = w.su(cl, args); done {
				return
			}
		case "env":
			rest, ok = w.env(cl, args)
		case "eval":
			w.nestArgs(cl, args, args[1:], "eval", true)
			return
		case "trap":
			ops := args[1:]
			if len(ops) > 0 && ops[0].text == "--" {
				ops = ops[1:]
			}
			if len(ops) < 2 || strings.HasPrefix(ops[0].text, "-") && ops[0].text != "-" || ops[0].text == "-" || ops[0].text == "" {
				break // trap -p, trap - SIG, trap '' SIG: nothing to run
			}
			w.nestArgs(cl, args, ops[:1], "trap", true)
			return
		case "watch":
			var exec bool
			rest, exec = skipOptions(args[1:], "nq", []string{"interval", "equexit"}, 0, 'x')
			if len(rest) == 0 {
				break
			}
			if !exec {
				w.nestArgs(cl, args, rest, "watch", false)
				return
			}
			ok = true
		case "xargs":
			rest, _ = skipOptions(args[1:], "adEILnPsJRS", []string{"arg-file", "delimiter", "eof", "max-args", "max-procs", "max-chars", "max-lines", "process-slot-var"}, 0, 0)
			ok = len(rest) > 0
		case "parallel":
			if w.parallel(cl, args) {
				return
			}
		case "busybox", "toybox", "rtk":
			// rtk runs the command it is given (rtk git push …) and
			// shortens its output for the agent.
			rest = args[1:]
			ok = len(rest) > 0 && !strings.HasPrefix(rest[0].text, "-")
		case "command":
			var lookup bool
			rest, lookup = skipOptions(args[1:], "", nil, 0, 'v')
			if !lookup {
				_, lookup = skipOptions(args[1:], "", nil, 0, 'V')
			}
			ok = !lookup && len(rest) > 0
		case "pkexec", "run0":
			// polkit's and systemd's sudo: root unless told another user.
			rest, _ = skipOptions(args[1:], "ugD", []string{"user", "group", "nice", "chdir", "setenv", "property",
				"description", "slice", "unit", "machine", "background"}, 0, 0)
			ok = len(rest) > 0
			if ok {
				if u, found := valueOf(args[1:len(args)-len(rest)], "u", "user"); !found || u.text == "root" || u.text == "0" {
					cl.sudo = true
				}
			}
		case "systemd-run":
			rest, _ = skipOptions(args[1:], "upEMH", []string{"unit", "property", "description", "slice", "setenv",
				"machine", "host", "uid", "gid", "nice", "working-directory", "on-active", "on-boot", "on-startup",
				"on-unit-active", "on-unit-inactive", "on-calendar", "on-clock-change", "on-timezone-change",
				"timer-property", "path-property", "socket-property", "service-type"}, 0, 0)
			ok = len(rest) > 0
		case "strace":
			rest, _ = skipOptions(args[1:], "abeEIoOpPsSuUX", []string{"output", "trace", "signal", "status", "attach",
				"user", "env", "string-limit", "columns", "decode-fds", "trace-path", "summary-sort-by"}, 0, 0)
			ok = len(rest) > 0
		case "ltrace":
			rest, _ = skipOptions(args[1:], "aADeFlnopsuwxL", []string{"output", "library", "indent", "align"}, 0, 0)
			ok = len(rest) > 0
		case "unshare", "nsenter":
			rest, _ = skipOptions(args[1:], "tSGw", []string{"target", "map-user", "map-group", "map-users",
				"map-groups", "setgroups", "propagation", "wd", "setuid", "setgid", "root"}, 0, 0)
			ok = len(rest) > 0
			if ok && name == "nsenter" && cl.box != nil && cl.box.Escapes && targetsInit(args[1:len(args)-len(rest)]) {
				// Into the namespaces of this machine's first process,
				// from a container that sees them: what it runs, runs
				// here, in a folder not known here.
				in := cl.sc.sub()
				in.container = nil
				in.frame.dir, in.frame.unknown, in.frame.vars = "", true, nil
				cl.sc, cl.box = in, nil
			}
		case "firejail", "setpriv", "fakeroot", "faketime", "proxychains", "proxychains4", "torsocks", "dbus-run-session", "catchsegv":
			// Options written --name=value, or with none.
			rest, _ = skipOptions(args[1:], "", nil, 0, 0)
			if name == "faketime" && len(rest) > 0 {
				rest = rest[1:] // the time
			}
			ok = len(rest) > 0
		case "xvfb-run":
			rest, _ = skipOptions(args[1:], "efnspw", []string{"error-file", "auth-file", "server-num", "server-args", "xauth-protocol", "wait"}, 0, 0)
			ok = len(rest) > 0
		case "entr":
			var shell bool
			rest, shell = skipOptions(args[1:], "", nil, 0, 's')
			if shell && len(rest) > 0 {
				w.nestArgs(cl, args, rest[:1], "entr -s", false) // entr -s runs its argument with $SHELL
				return
			}
			ok = len(rest) > 0
		case "sg":
			// sg GROUP -c 'program', or sg GROUP program words.
			if len(args) > 3 && args[2].text == "-c" {
				w.nestArgs(cl, args, args[3:4], "sg -c", false)
				return
			}
			rest = args[min(2, len(args)):]
			ok = len(rest) > 0
		case "gdb":
			for i, a := range args {
				if a.text == "--args" {
					rest = args[i+1:]
				}
			}
			ok = len(rest) > 0
		case "screen":
			var send bool
			rest, send = skipOptions(args[1:], "SceEhpTtL", []string{"logfile"}, 0, 'X')
			ok = !send && len(rest) > 0
		case "tmux":
			if w.tmux(cl, args) {
				return
			}
		case "ssh":
			// ssh to this machine runs its command here.
			rest, _ := skipOptions(args[1:], "bcDEeFIiJLlmOopQRSWw", nil, 0, 0)
			if len(rest) > 1 && !rest[0].dyn && localHost(rest[0].text) {
				w.nestArgs(cl, args, rest[1:], "ssh "+rest[0].text, false)
				return
			}
		case "at", "batch":
			if w.at(cl, args) {
				return
			}
		case "builtin", "nohup", "setsid", "unbuffer":
			rest, _ = skipOptions(args[1:], "", nil, 0, 0)
			ok = len(rest) > 0
		case "exec":
			rest, _ = skipOptions(args[1:], "a", nil, 0, 0)
			ok = len(rest) > 0
		case "nice":
			rest, _ = skipOptions(args[1:], "n", []string{"adjustment"}, 0, 0)
			ok = len(rest) > 0
		case "time":
			rest, _ = skipOptions(args[1:], "fo", []string{"format", "output"}, 0, 0)
			ok = len(rest) > 0
		case "timeout":
			rest, _ = skipOptions(args[1:], "sk", []string{"signal", "kill-after"}, 1, 0)
			ok = len(rest) > 0
		case "stdbuf":
			rest, _ = skipOptions(args[1:], "ioe", []string{"input", "output", "error"}, 0, 0)
			ok = len(rest) > 0
		case "ionice":
			var pid bool
			rest, pid = skipOptions(args[1:], "cnt", []string{"class", "classdata"}, 0, 'p')
			ok = !pid && len(rest) > 0
		case "chrt":
			var pid bool
			rest, pid = skipOptions(args[1:], "TPD", []string{"sched-runtime", "sched-period", "sched-deadline"}, 1, 'p')
			ok = !pid && len(rest) > 0
		case "docker", "podman", "nerdctl":
			rest, ok = w.containerRun(cl, args)
		case "chroot":
			// What it runs sees the new root as /: read as run here,
			// where `chroot / rm -rf /` is.
			rest, _ = skipOptions(args[1:], "", []string{"userspec", "groups"}, 1, 0)
			ok = len(rest) > 0
		case "alias":
			// An alias's text runs where the name is used, which a later
			// line of the program may do (with expand_aliases, as in a
			// shell that loads the user's aliases): read as run.
			var body []string
			dyn := false
			for _, a := range args[1:] {
				if name, v, found := strings.Cut(a.text, "="); found && name != "" && !strings.HasPrefix(name, "-") {
					body = append(body, v)
					dyn = dyn || a.dyn
				}
			}
			if len(body) == 0 {
				break
			}
			w.nestArgs(cl, args, []arg{{text: strings.Join(body, "\n"), dyn: dyn}}, "alias", true)
			return
		case "taskset":
			var pid bool
			rest, pid = skipOptions(args[1:], "", nil, 1, 'p')
			ok = !pid && len(rest) > 0
		case "caffeinate":
			rest, _ = skipOptions(args[1:], "tw", nil, 0, 0)
			ok = len(rest) > 0
		case "arch":
			// macOS's arch: options are whole words (-arm64, -x86_64),
			// and -arch, -e and -d take the next one.
			rest = args[1:]
			for len(rest) > 0 && !rest[0].dyn && strings.HasPrefix(rest[0].text, "-") {
				switch rest[0].text {
				case "-arch", "-e", "-d":
					rest = rest[min(2, len(rest)):]
				default:
					rest = rest[1:]
				}
			}
			ok = len(rest) > 0
		case "flock":
			rest, _ = skipOptions(args[1:], "wE", []string{"timeout", "conflict-exit-code"}, 1, 0)
			if len(rest) > 1 && (rest[0].text == "-c" || rest[0].text == "--command") {
				w.nestArgs(cl, args, rest[1:2], "flock -c", false)
				return
			}
			ok = len(rest) > 0
		case "script":
			if prog, found := valueOf(args[1:], "c", "command"); found {
				w.nestArgs(cl, args, []arg{prog}, "script -c", false)
				return
			}
		}
		if slices.Contains(shells, name) {
			if w.shell(cl, args, name) {
				return
			}
		}
		if !ok {
			break
		}
		for _, a := range args[:len(args)-len(rest)] {
			if a.w != nil {
				cl.dropped = append(cl.dropped, a.w)
			}
		}
		cl.via = append(cl.via, name)
		args = rest
	}
	if len(args) == 0 && len(cl.redirs) == 0 {
		w.dropped(cl, cl.sc.parent, cl.sc.inArg)
		return
	}
	idx := w.emit(cl, args)
	c := w.out[idx]
	if n := c.Name(); (n == "cd" || n == "pushd" || n == "popd") && len(c.Args) > 0 {
		cl.sc.frame.cd(c)
	}
	setsVars(cl.sc, c)
	w.inline(cl, args)
	if c.Name() == "tee" {
		w.tee(cl, args)
	}
	for i, a := range args {
		if a.w != nil {
			w.subs(a.w, cl.sc, idx, i)
		}
	}
	w.dropped(cl, idx, -1)
	if c.Name() == "find" {
		w.findExec(cl, args, idx)
	}
	if args[0].dyn && len(args) > 2 {
		// A program known only at run time given -c PROGRAM ($SHELL -c
		// '…', "$BASH" -lc '…') may be a shell: what it would run is read.
		if mode, at := shellMode(args[1:]); mode == "c" && !args[1+at].dyn {
			w.nest(cl, args[1+at].text, args[0].text+" -c", false)
		}
	}
}

// dropped walks the substitutions of the words that are not arguments.
func (w *walker) dropped(cl *call, parent, inArg int) {
	for _, d := range cl.dropped {
		w.subs(d, cl.sc, parent, inArg)
	}
	cl.dropped = nil
}

// emit records a command and returns its index.
func (w *walker) emit(cl *call, args []arg) int {
	sc := cl.sc
	c := Command{Env: cl.env, Sudo: cl.sudo, Via: cl.via, Redirects: cl.redirs, Container: cl.box,
		Parent: sc.parent, InArg: sc.inArg, Dir: sc.frame.dir, DirUnknown: sc.frame.unknown, Text: cl.text}
	if cl.dir != "" && !c.DirUnknown {
		c.Dir = joinDir(c.Dir, cl.dir)
	}
	if cl.dirDyn {
		c.Dir, c.DirUnknown = "", true
	}
	c.Pipeline = sc.pipe
	if c.Pipeline == 0 {
		c.Pipeline = w.newPipe()
	}
	c.Args = make([]string, len(args))
	c.Dynamic = make([]bool, len(args))
	c.Unset = make([]string, len(args))
	for i, a := range args {
		c.Args[i], c.Dynamic[i], c.Unset[i] = a.text, a.dyn, a.unset
	}
	if len(c.Redirects) == 0 {
		c.Redirects = nil
	}
	w.out = append(w.out, c)
	return len(w.out) - 1
}

// nestArgs runs the words prog, joined by blanks, as a program nested in
// the command args, a wrapper that is not recorded itself (bash -c, eval,
// trap …). sameShell says the program runs in the current shell, whose
// folder it may change (eval, trap). A program with run-time expansions
// is not known: the wrapper is recorded with Program set.
func (w *walker) nestArgs(cl *call, args, prog []arg, how string, sameShell bool) {
	texts := make([]string, 0, len(prog))
	for _, p := range prog {
		if p.dyn {
			w.unknownProgram(cl, args, ProgramArg)
			return
		}
		texts = append(texts, p.text)
	}
	for _, a := range args {
		if a.w != nil {
			cl.dropped = append(cl.dropped, a.w)
		}
	}
	w.dropped(cl, cl.sc.parent, cl.sc.inArg)
	w.nest(cl, strings.Join(texts, " "), how, sameShell)
}

// nest parses a program run by the command being unwrapped.
func (w *walker) nest(cl *call, text, how string, sameShell bool) {
	in := cl.sc
	if !sameShell {
		in = in.sub()
	} else {
		c := *in
		in = &c
	}
	if cl.dir != "" {
		in.frame.dir = joinDir(in.frame.dir, cl.dir)
	}
	if cl.dirDyn {
		in.frame.dir, in.frame.unknown = "", true
	}
	if !sameShell {
		in.frame.exported(cl.set)
		in.bind = nil
		if cl.params != nil || cl.fed {
			shellParams(in, cl.params, cl.fed)
		}
	}
	in.via, in.sudo, in.container = cl.via, cl.sudo, cl.box
	in.stdin, in.redirs, in.pipe = nil, cl.redirs, 0
	w.program(text, in, how)
}

// unknownProgram records a command that runs a program known only at run
// time.
func (w *walker) unknownProgram(cl *call, args []arg, kind string) {
	if len(args) > 0 && (args[0].text == "eval" || args[0].text == "source" || args[0].text == ".") {
		cl.sc.wild() // a program of this shell's, known only at run time
	}
	idx := w.emit(cl, args)
	w.out[idx].Program = kind
	for i, a := range args {
		if a.w != nil {
			w.subs(a.w, cl.sc, idx, i)
		}
	}
	w.dropped(cl, idx, -1)
}

// shell handles a shell's command line: a program given with -c, or read
// from standard input. It reports whether it recorded the command.
func (w *walker) shell(cl *call, args []arg, name string) bool {
	mode, at := shellMode(args[1:])
	fed := slices.Contains(cl.via, "xargs") || slices.Contains(cl.via, "parallel")
	switch {
	case mode == "c" && fed && args[1+at].text == "{}", mode == "" && at == 0 && fed && len(args) > 1:
		// xargs and parallel put the program in place of {}, or append
		// it after -c: it is read from their input when they run.
		w.unknownProgram(cl, args, ProgramArg)
		return true
	}
	switch mode {
	case "c":
		cl.params, cl.fed = args[min(2+at, len(args)):], fed
		w.nestArgs(cl, args, args[1+at:2+at], name+" -c", false)
		return true
	case "file":
		return w.runScript(cl, args, 1+at, name, false)
	case "stdin":
		return w.stdinShell(cl, args, name)
	case "unknown":
		w.unknownProgram(cl, args, ProgramArg)
		return true
	}
	return false
}

// stdinShell handles a shell reading its program from standard input.
func (w *walker) stdinShell(cl *call, args []arg, name string) bool {
	in := cl.stdin
	switch {
	case in == nil:
		return false // the call's own input: nothing is fed
	case in.known:
		for _, a := range args {
			if a.w != nil {
				cl.dropped = append(cl.dropped, a.w)
			}
		}
		w.dropped(cl, cl.sc.parent, cl.sc.inArg)
		w.nest(cl, in.text, name+" -s", false)
	default:
		w.unknownProgram(cl, args, in.kind)
	}
	return true
}

// shellMode reads a shell's options: "c" and the index of the program
// after -c, "stdin" when it reads its program from standard input, "file"
// when it runs a script, "unknown" when an option is only known at run
// time.
func shellMode(args []arg) (string, int) {
	c, s := false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.dyn {
			if c {
				return "c", i
			}
			return "unknown", i
		}
		t := a.text
		switch {
		case t == "--" || t == "-":
			if c && i+1 < len(args) {
				return "c", i + 1
			}
			if c {
				return "", i
			}
			if t == "-" || i+1 >= len(args) || s {
				return "stdin", i
			}
			return "file", i + 1
		case strings.HasPrefix(t, "--"):
			if t == "--rcfile" || t == "--init-file" {
				i++
			}
			if t == "--command" { // fish
				c = true
			}
		case len(t) > 1 && (t[0] == '-' || t[0] == '+'):
			c = c || strings.ContainsRune(t[1:], 'c')
			s = s || strings.ContainsRune(t[1:], 's')
			i += strings.Count(t[1:], "o") + strings.Count(t[1:], "O")
		default:
			if c {
				return "c", i
			}
			if s {
				return "stdin", i
			}
			return "file", i
		}
	}
	if c {
		return "", 0 // -c without a program: an error of the shell's
	}
	return "stdin", len(args)
}

// sudo unwraps sudo and doas. done says the command was recorded.
func (w *walker) sudo(cl *call, args []arg) (rest []arg, ok, done bool) {
	name := base(args[0].text)
	short, long := "ugCDprtTUa", []string{"user", "group", "close-from", "chdir", "prompt", "role", "type", "command-timeout", "other-user", "host"}
	if name == "doas" {
		short, long = "uC", nil
	}
	rest, _ = skipOptions(args[1:], short, long, 0, 0)
	opts := args[1 : len(args)-len(rest)]
	user, _ := valueOf(opts, "u", "user")
	if _, edit := skipOptions(opts, short, long, 0, 'e'); edit {
		return nil, false, false
	}
	if d, found := valueOf(opts, "D", "chdir"); found && name == "sudo" {
		cl.dir = d.text
	}
	_, shellFlag := skipOptions(opts, short, long, 0, 's')
	_, login := skipOptions(opts, short, long, 0, 'i')
	root := user.text == "" || user.text == "root" || user.text == "0" || user.text == "#0"
	if len(rest) == 0 {
		if (shellFlag || login) && cl.stdin != nil {
			cl.sudo = cl.sudo || root
			cl.via = append(cl.via, name)
			return nil, false, w.stdinShell(cl, args, name)
		}
		return nil, false, false
	}
	cl.sudo = cl.sudo || root
	return rest, true, false
}

// su unwraps su and runuser: -c PROGRAM, or runuser -u USER COMMAND.
func (w *walker) su(cl *call, args []arg) (rest []arg, ok, done bool) {
	name := base(args[0].text)
	short, long := "cgGsuw", []string{"command", "group", "supp-group", "shell", "user", "whitelist-environment", "session-command"}
	rest, _ = skipOptions(args[1:], short, long, 0, 0)
	opts := args[1 : len(args)-len(rest)]
	if u, found := valueOf(opts, "u", "user"); found && name == "runuser" {
		cl.sudo = cl.sudo || u.text == "root"
		return rest, len(rest) > 0, false
	}
	if len(rest) > 0 && rest[0].text == "-" {
		rest = rest[1:]
	}
	user := ""
	if len(rest) > 0 {
		user = rest[0].text
	}
	cl.sudo = cl.sudo || user == "" || user == "root"
	cl.via = append(cl.via, name)
	if prog, found := valueOf(args[1:], "c", "command"); found { // su permutes its arguments
		w.nestArgs(cl, args, []arg{prog}, name+" -c", false)
		return nil, false, true
	}
	if cl.stdin != nil {
		return nil, false, w.stdinShell(cl, args, name)
	}
	cl.via = cl.via[:len(cl.via)-1]
	return nil, false, false
}

// env unwraps env: its options (-i, -u NAME, -C DIR, -S STRING), then
// NAME=value words.
func (w *walker) env(cl *call, args []arg) ([]arg, bool) {
	rest, _ := skipOptions(args[1:], "uCSP", []string{"unset", "chdir", "split-string"}, 0, 0)
	opts := args[1 : len(args)-len(rest)]
	for len(rest) > 0 && rest[0].text == "-" && !rest[0].dyn { // env - is env -i
		rest = rest[1:]
	}
	if d, found := valueOf(opts, "C", "chdir"); found {
		if d.dyn {
			cl.dirDyn = true
		} else {
			cl.dir = joinDir(cl.dir, d.text)
		}
	}
	for len(rest) > 0 && isAssignment(rest[0].text) {
		cl.env = append(cl.env, rest[0].text)
		name, val, _ := strings.Cut(rest[0].text, "=")
		cl.set = append(cl.set, assigned{name, val, !rest[0].dyn})
		if rest[0].w != nil {
			cl.dropped = append(cl.dropped, rest[0].w)
		}
		rest = rest[1:]
	}
	if split, found := valueOf(opts, "S", "split-string"); found {
		// env -S splits its string into words, with quotes, as a shell
		// would for one simple command.
		words, ok := w.splitWords(cl.sc, split)
		if !ok {
			w.unknownProgram(cl, args, ProgramArg)
			return nil, false
		}
		rest = append(words, rest...)
	}
	return rest, len(rest) > 0
}

// splitWords reads a string as the words of one simple command.
func (w *walker) splitWords(sc *scope, s arg) ([]arg, bool) {
	if s.dyn || len(s.text) > w.budget {
		return nil, false
	}
	w.budget -= len(s.text) // env -S inside env -S: counted as nested programs are
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(s.text), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil, false
	}
	ce, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) > 0 || len(f.Stmts[0].Redirs) > 0 {
		return nil, false
	}
	in := *sc
	in.src = s.text
	out := w.words(&in, ce.Args)
	for i := range out {
		out[i].w = nil // their substitutions are not run
	}
	return out, true
}

// parallel unwraps GNU parallel: the command and its ::: inputs, or, with
// no command, each input as a program. It reports whether it recorded.
func (w *walker) parallel(cl *call, args []arg) bool {
	rest, _ := skipOptions(args[1:], "jSaIdEnNLPC", []string{"jobs", "sshlogin", "arg-file", "colsep", "delimiter", "joblog", "results", "tmpdir", "workdir", "tagstring", "timeout", "retries", "halt", "max-procs", "max-args", "max-replace-args", "max-lines", "eof", "basefile", "env", "return"}, 0, 0)
	var cmd, inputs []arg
	seps := false
	for _, a := range rest {
		if strings.HasPrefix(a.text, ":::") && strings.Trim(a.text, ":+") == "" {
			seps = true
			continue
		}
		if seps {
			inputs = append(inputs, a)
		} else {
			cmd = append(cmd, a)
		}
	}
	if len(cmd) == 0 && !seps {
		return false
	}
	for _, a := range args[:len(args)-len(rest)] {
		if a.w != nil {
			cl.dropped = append(cl.dropped, a.w)
		}
	}
	cl.via = append(cl.via, "parallel")
	if len(cmd) == 0 {
		for _, in := range inputs {
			one := *cl
			w.nestArgs(&one, args, []arg{in}, "parallel", false)
		}
		return true
	}
	if len(inputs) > 0 && slices.ContainsFunc(cmd, func(a arg) bool { return strings.Contains(a.text, "{}") }) {
		// Each input takes the place of {}: one run per input.
		for _, in := range inputs {
			one := *cl
			one.via = slices.Clone(cl.via)
			run := make([]arg, len(cmd))
			for i, a := range cmd {
				a.text = strings.ReplaceAll(a.text, "{}", in.text)
				a.unset = strings.ReplaceAll(a.unset, "{}", in.unset)
				a.dyn = a.dyn || in.dyn && strings.Contains(cmd[i].text, "{}")
				run[i] = a
			}
			w.run(&one, run)
		}
		return true
	}
	w.run(cl, append(cmd, inputs...))
	return true
}

// findExec records the commands that find -exec, -execdir, -ok and -okdir
// run, up to their ; or +.
func (w *walker) findExec(cl *call, args []arg, idx int) {
	for i := 1; i < len(args); i++ {
		switch args[i].text {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		j := i + 1
		for j < len(args) && args[j].text != ";" && args[j].text != "+" {
			j++
		}
		if j > i+1 {
			in := cl.sc.sub()
			in.parent, in.inArg, in.pipe, in.stdin = idx, -1, 0, nil
			inner := make([]arg, j-i-1)
			copy(inner, args[i+1:j])
			for k := range inner {
				inner[k].w = nil // walked as find's words
			}
			w.run(&call{sc: in, via: push(cl.via, "find -exec"), sudo: cl.sudo}, inner)
		}
		i = j
	}
}

// skipOptions skips the options in front of a wrapped command: short
// letters in withArg and the long names in long take a value (in the same
// word or the next); then skip operands (timeout's duration). It returns
// the words from the command on, and whether the short option flag was
// given.
func skipOptions(args []arg, withArg string, long []string, skip int, flag byte) ([]arg, bool) {
	seen := false
	i := 0
	for ; i < len(args); i++ {
		a := args[i].text
		if args[i].dyn {
			break
		}
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		if strings.HasPrefix(a, "--") {
			name, _, eq := strings.Cut(a[2:], "=")
			if !eq && takesValue(name, long) {
				i++
			}
			continue
		}
		for j := 1; j < len(a); j++ {
			if a[j] == flag {
				seen = true
			}
			if strings.IndexByte(withArg, a[j]) >= 0 {
				if j == len(a)-1 {
					i++
				}
				break
			}
		}
	}
	if i > len(args) {
		i = len(args)
	}
	i += skip
	if i > len(args) {
		i = len(args)
	}
	return args[i:], seen
}

// takesValue reports whether a long option, or an abbreviation of it (as
// getopt_long accepts), is one of long.
func takesValue(name string, long []string) bool {
	for _, l := range long {
		if l == name || len(name) >= 2 && strings.HasPrefix(l, name) {
			return true
		}
	}
	return false
}

// valueOf finds the value of the option -short or --long among options.
func valueOf(opts []arg, short, long string) (arg, bool) {
	var v arg
	found := false
	for i := 0; i < len(opts); i++ {
		a := opts[i].text
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "--") {
			name, val, eq := strings.Cut(a[2:], "=")
			if long == "" || !(name == long || len(name) >= 2 && strings.HasPrefix(long, name)) {
				continue
			}
			found = true
			if eq {
				v = arg{text: val, unset: val, dyn: opts[i].dyn}
			} else if i+1 < len(opts) {
				i++
				v = opts[i]
			}
			continue
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		if j := strings.Index(a[1:], short); j >= 0 {
			found = true
			if j+2 < len(a) {
				val := a[j+2:]
				v = arg{text: val, unset: val, dyn: opts[i].dyn}
			} else if i+1 < len(opts) {
				i++
				v = opts[i]
			}
		}
	}
	return v, found
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

// tmux runs a shell command given to new-session, new-window,
// split-window, respawn-pane, run-shell or display-popup: its words after
// the options, joined. It reports whether it read one.
func (w *walker) tmux(cl *call, args []arg) bool {
	rest, _ := skipOptions(args[1:], "cfLS", nil, 0, 0) // tmux's own options
	if len(rest) == 0 || rest[0].dyn {
		return false
	}
	switch rest[0].text {
	case "new", "new-session", "neww", "new-window", "splitw", "split-window", "respawnp", "respawn-pane",
		"respawnw", "respawn-window", "run", "run-shell", "popup", "display-popup":
	default:
		return false
	}
	prog, _ := skipOptions(rest[1:], "cefFnstxylpST", nil, 0, 0) // -d, -P, -h …: flags
	if len(prog) == 0 {
		return false
	}
	w.nestArgs(cl, args, prog, "tmux "+rest[0].text, false) // its words joined, as tmux joins them
	return true
}

// at runs the program it reads on its input (echo '…' | at now, at now
// <<< '…') or from -f FILE later. It reports whether it read one.
func (w *walker) at(cl *call, args []arg) bool {
	if f, found := valueOf(args[1:], "f", ""); found {
		return w.runScript(cl, []arg{f}, 0, base(args[0].text)+" -f", false)
	}
	for _, a := range args[1:] {
		if a.text == "-l" || a.text == "-r" || a.text == "-d" || a.text == "-c" {
			return false // lists, removes or prints jobs
		}
	}
	return w.stdinShell(cl, args, base(args[0].text))
}

// localHost reports whether an ssh destination ([user@]host) is this
// machine.
func localHost(dest string) bool {
	if i := strings.LastIndexByte(dest, '@'); i >= 0 {
		dest = dest[i+1:]
	}
	switch strings.ToLower(strings.TrimPrefix(dest, "ssh://")) {
	case "localhost", "127.0.0.1", "::1", "[::1]", "0.0.0.0", "localhost.localdomain":
		return true
	}
	return false
}

// containerRun unwraps `docker run [OPTIONS] IMAGE [COMMAND…]` (podman's
// and nerdctl's too, and `container run`): COMMAND runs in the container,
// with the folders -v and --mount bind from this machine; the runtime's
// own options before run (-H, --context: another machine's daemon) leave
// it unread. Read-only mounts and named volumes are not this machine's
// folders to lose.
func (w *walker) containerRun(cl *call, args []arg) ([]arg, bool) {
	i := 1
	if len(args) > 2 && args[1].text == "container" {
		i = 2
	}
	if len(args) <= i || args[i].dyn || args[i].text != "run" {
		return nil, false
	}
	box := &Container{}
	var entrypoint *arg
	i++
	for ; i < len(args); i++ {
		a := args[i].text
		if args[i].dyn || len(a) < 2 || a[0] != '-' {
			break
		}
		if a == "--" {
			i++
			break
		}
		name, val, eq := strings.Cut(a, "=")
		if !strings.HasPrefix(a, "--") {
			// A cluster of flags (-it, -dit): its last letter may take a
			// value, attached (-v/x:/y) or in the next word.
			k := strings.IndexAny(a[1:], containerShortValued) + 1
			if k == 0 {
				continue
			}
			name, val, eq = "-"+a[k:k+1], a[k+1:], k+1 < len(a)
		}
		if !eq {
			if !slices.Contains(containerValued, name) && (len(name) != 2 || !strings.Contains(containerShortValued, name[1:])) {
				box.Escapes = box.Escapes || name == "--privileged"
				continue // a flag: --rm, --privileged
			}
			if i+1 >= len(args) {
				return nil, false
			}
			i++
			val = args[i].text
		}
		switch name {
		case "-v", "--volume":
			parts := strings.Split(val, ":")
			if len(parts) >= 2 && strings.ContainsAny(parts[0], "/~$.") &&
				!(len(parts) > 2 && slices.Contains(strings.Split(parts[2], ","), "ro")) {
				box.Mounts = append(box.Mounts, Mount{Host: parts[0], Target: path.Clean(parts[1])})
			}
		case "--mount":
			var m Mount
			bind, ro := false, false
			for _, kv := range strings.Split(val, ",") {
				k, v, _ := strings.Cut(kv, "=")
				switch k {
				case "type":
					bind = v == "bind"
				case "source", "src":
					m.Host = v
				case "target", "destination", "dst":
					m.Target = path.Clean(v)
				case "readonly", "ro":
					ro = v == "" || v == "true" || v == "1"
				}
			}
			if bind && !ro && m.Host != "" && m.Target != "" {
				box.Mounts = append(box.Mounts, m)
			}
		case "--device":
			// A device of this machine, under its own name or another:
			// writing it writes this machine's disk.
			host, target, _ := strings.Cut(val, ":")
			if target, _, _ = strings.Cut(target, ":"); target == "" {
				target = host
			}
			if strings.HasPrefix(host, "/dev/") {
				box.Mounts = append(box.Mounts, Mount{Host: host, Target: path.Clean(target)})
			}
		case "--pid":
			box.Escapes = box.Escapes || val == "host"
		case "-w", "--workdir":
			box.Workdir = val
		case "--entrypoint":
			entrypoint = &arg{text: val, dyn: args[i].dyn}
		}
	}
	if i >= len(args) {
		return nil, false
	}
	rest := args[i+1:] // after the image
	if entrypoint != nil {
		rest = append([]arg{*entrypoint}, rest...)
	}
	if len(rest) == 0 {
		return nil, false // the image's own command
	}
	// The runtime's own words, the image's included, are read here, where
	// the line runs them ($(pwd) in -v); what follows runs in the
	// container: its folder, none of the line's variables. (The words
	// before rest are not these with --entrypoint, which rest starts with.)
	for j := range args[:i+1] {
		if args[j].w != nil {
			w.subs(args[j].w, cl.sc, cl.sc.parent, cl.sc.inArg)
			args[j].w = nil
		}
	}
	// A relative host folder is the runtime's: where the line ran it.
	mounts := box.Mounts[:0]
	for _, m := range box.Mounts {
		if !strings.HasPrefix(m.Host, "/") && !strings.HasPrefix(m.Host, "~") && !strings.HasPrefix(m.Host, "$") {
			if cl.sc.frame.unknown {
				continue
			}
			m.Host = joinDir(cl.sc.frame.dir, m.Host)
		}
		mounts = append(mounts, m)
	}
	box.Mounts = mounts
	in := cl.sc.sub()
	in.frame.dir, in.frame.unknown, in.frame.vars = path.Join("/", box.Workdir), false, nil
	in.container = box
	cl.sc, cl.box = in, box
	return rest, true
}

// targetsInit reports whether nsenter's options name process 1 as the
// one whose namespaces it enters (-t 1, --target=1).
func targetsInit(opts []arg) bool {
	for i, o := range opts {
		switch {
		case o.text == "-t" || o.text == "--target":
			if i+1 < len(opts) && opts[i+1].text == "1" {
				return true
			}
		case o.text == "-t1" || o.text == "--target=1":
			return true
		}
	}
	return false
}

// containerShortValued are the short options of docker run that take a
// value; containerValued its long ones (podman's are a superset of the
// common ones; an option not listed is read as a flag).
const containerShortValued = "acehlmpuvw"

var containerValued = []string{"--add-host", "--annotation", "--attach", "--blkio-weight", "--blkio-weight-device",
	"--cap-add", "--cap-drop", "--cgroup-parent", "--cgroupns", "--cidfile", "--cpu-period", "--cpu-quota",
	"--cpu-rt-period", "--cpu-rt-runtime", "--cpu-shares", "--cpus", "--cpuset-cpus", "--cpuset-mems", "--device",
	"--device-cgroup-rule", "--device-read-bps", "--device-read-iops", "--device-write-bps", "--device-write-iops",
	"--dns", "--dns-option", "--dns-search", "--domainname", "--entrypoint", "--env", "--env-file", "--expose",
	"--gpus", "--group-add", "--health-cmd", "--health-interval", "--health-retries", "--health-start-period",
	"--health-timeout", "--hostname", "--ip", "--ip6", "--ipc", "--isolation", "--kernel-memory", "--label",
	"--label-file", "--link", "--link-local-ip", "--log-driver", "--log-opt", "--mac-address", "--memory",
	"--memory-reservation", "--memory-swap", "--memory-swappiness", "--mount", "--name", "--net", "--net-alias",
	"--network", "--network-alias", "--oom-score-adj", "--pid", "--pids-limit", "--platform", "--publish", "--pull",
	"--restart", "--runtime", "--security-opt", "--shm-size", "--stop-signal", "--stop-timeout", "--storage-opt",
	"--sysctl", "--tmpfs", "--ulimit", "--user", "--userns", "--uts", "--volume", "--volume-driver", "--volumes-from",
	"--workdir", "--arch", "--os", "--pod", "--secret", "--systemd", "--tz", "--umask", "--variant"}
