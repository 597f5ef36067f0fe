package install

import (
	"errors"
	"fmt"
	pathpkg "path"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/shellquote"
	"github.com/mattn/go-shellwords"
)

// Command is the command line one entry runs, with bin (a path) as its
// program.
func Command(bin string, p *provider.Provider, event string) string {
	return commandLine(shellquote.Word(bin), p, event, 0)
}

// commandLine is the command line one entry runs, with prog as its
// program, already in shell syntax; raised, when not zero, is the timeout
// the entry registers above the provider's (see Env.raised), which run
// must then be told.
func commandLine(prog string, p *provider.Provider, event string, raised time.Duration) string {
	id := p.ID
	if sp, _ := p.Install.SharedCommand.Get(event); sp != nil {
		id = sp.ID
	}
	var b strings.Builder
	b.WriteString(prog)
	b.WriteString(" run --provider ")
	b.WriteString(id)
	if p.Install.EventFlag && event != "" {
		b.WriteString(" --event ")
		b.WriteString(shellquote.Word(event))
	}
	if t, ok := p.Install.EventTimeouts.Get(event); ok {
		raised = t
	}
	if raised > 0 {
		b.WriteString(" --timeout ")
		b.WriteString(strconv.FormatFloat(raised.Seconds(), 'f', -1, 64))
	}
	return b.String()
}

// program is the program, in shell syntax, of p's entry for event at t:
//   - user scope: env.Bin, the absolute path of this machine's hookshim;
//   - project scope: the file is committed and runs on every teammate's
//     machine, so no path of this one: hookshim from PATH, or a binary
//     inside the project named through the tool's project-folder variable
//     (provider.Install.ProjectDir).
//
// An entry Cursor shares with Claude Code takes Claude's form, so that the
// two command strings stay equal and Cursor runs them once.
func (env Env) program(p *provider.Provider, t provider.Target, event string) (string, error) {
	if t.Scope != provider.ScopeProject {
		if env.Bin == "" {
			return "", errors.New("no hookshim binary to register (a bug in hookshim)")
		}
		return shellquote.Word(env.Bin), nil
	}
	if env.ProjectBin == "" {
		return "hookshim", nil
	}
	owner := p
	if sp, _ := p.Install.SharedCommand.Get(event); sp != nil {
		owner = sp
	}
	prog, ok := projectProgram(runtime.GOOS, owner.Install.ProjectDir, env.ProjectBin)
	if !ok {
		return "", &ProjectBinError{Provider: p, Bin: env.ProjectBin}
	}
	return prog, nil
}

// projectProgram is how a project entry names a binary inside the project
// (bin, relative to its root) on the system goos: after the tool's
// project-folder variable (dir). Every such variable is written in sh
// syntax, and Windows tools run their hooks under PowerShell or cmd.exe,
// so there, as for a tool with no variable, there is none (ok is false).
func projectProgram(goos, dir, bin string) (string, bool) {
	if dir == "" || goos == "windows" {
		return "", false
	}
	return dir + "/" + shellquote.Word(bin), true
}

// ProjectBinError is a binary inside the project that a tool's project
// hooks cannot name.
type ProjectBinError struct {
	Provider *provider.Provider
	Bin      string
}

func (e *ProjectBinError) Error() string {
	return fmt.Sprintf("%s gives hook commands no project-folder variable hookshim can rely on: its project entries cannot run %s from the project", e.Provider.Name, e.Bin)
}

// call is a parsed hookshim command line.
type call struct {
	Bin      string
	Provider string
	Event    string
	Timeout  string
}

// parseCall recognises a command that runs hookshim's run command: the
// program is named hookshim (or hookshim.exe, whatever its folder) and its
// first argument is run. Anything else is somebody else's hook.
func parseCall(cmd string) (call, bool) {
	cmd = strings.TrimSpace(cmd)
	cmd = strings.TrimPrefix(cmd, "& ") // PowerShell's call operator
	// Windows paths: a backslash separates folders, it escapes nothing in
	// the commands install writes.
	cmd = strings.ReplaceAll(cmd, `\`, "/")
	p := shellwords.NewParser()
	words, err := p.Parse(cmd)
	// A command line that goes on past hookshim (;, &&, |) is the user's
	// own composition, not an entry install wrote.
	if err != nil || p.Position != -1 || len(words) < 2 {
		return call{}, false
	}
	base := pathpkg.Base(words[0])
	base = strings.TrimSuffix(strings.ToLower(base), ".exe")
	if base != "hookshim" || words[1] != "run" {
		return call{}, false
	}
	c := call{Bin: words[0]}
	for i := 2; i < len(words); i++ {
		w := words[i]
		name, val, hasVal := strings.Cut(strings.TrimLeft(w, "-"), "=")
		if !strings.HasPrefix(w, "-") {
			continue
		}
		if !hasVal && i+1 < len(words) {
			val = words[i+1]
		}
		switch name {
		case "provider":
			c.Provider = val
		case "event":
			c.Event = val
		case "timeout":
			c.Timeout = val
		default:
			continue
		}
		if !hasVal {
			i++
		}
	}
	return c, true
}

// ours reports whether cmd runs hookshim for p (or for a provider whose
// command p's entries share).
func ours(cmd string, p *provider.Provider) (call, bool) {
	c, ok := parseCall(cmd)
	if !ok || c.Provider == "" {
		return c, false
	}
	got := provider.Lookup(c.Provider)
	if got == nil {
		return c, false
	}
	if got.ID == p.ID {
		return c, true
	}
	for _, sp := range p.Install.SharedCommand {
		if sp.Value.ID == got.ID {
			return c, true
		}
	}
	return c, false
}

// timeoutNumber is d in unit, as the number a config file holds.
func timeoutNumber(d, unit time.Duration) string {
	if unit == 0 {
		unit = time.Second
	}
	return strconv.FormatInt(int64(d/unit), 10)
}
