package simulate

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/policy"
	"github.com/hookshim/hookshim/internal/wire"
)

// PackRow is one documented example of a built-in policy, as run.
type PackRow struct {
	Policy  string
	Want    string // what docs/policies.md says: deny, or none (let through)
	Example policy.Example
	Result  Result
}

// Pack runs every documented example of the built-in policies
// (docs/policies.md) through the real pipeline, each as the Claude Code
// call it stands for, with a config of that one "use" entry. Examples
// about a repository's current branch run in a repository made for them
// under tmp. An example that cannot be made into a call is an error.
func (e Env) Pack(tmp string) ([]PackRow, []error) {
	var rows []PackRow
	var errs []error
	n := 0
	for _, name := range policy.Names() {
		info, _ := policy.Lookup(name)
		for _, group := range []struct {
			want string
			exs  []policy.Example
		}{{"deny", info.Denied}, {"none", info.Allowed}} {
			for _, ex := range group.exs {
				n++
				res, err := e.example(name, ex, n, tmp)
				if err != nil {
					errs = append(errs, fmt.Errorf("%s: %v", name, err))
					continue
				}
				rows = append(rows, PackRow{Policy: name, Want: group.want, Example: ex, Result: res})
			}
		}
	}
	return rows, errs
}

// claudeTool is the Claude Code tool a canonical tool of the examples
// stands for, and the key of its path. A switch, not a map literal,
// which would be built at every start of hookshim.
func claudeTool(canonical string) (name, key string, ok bool) {
	switch canonical {
	case event.ToolShell:
		return "Bash", "command", true
	case event.ToolFileRead:
		return "Read", "file_path", true
	case event.ToolFileWrite:
		return "Write", "file_path", true
	case event.ToolFileEdit:
		return "Edit", "file_path", true
	case event.ToolSearch:
		return "Grep", "path", true
	}
	return "", "", false
}

// example answers one documented example as a Claude Code call.
func (e Env) example(name string, ex policy.Example, n int, tmp string) (Result, error) {
	cwd := "/home/u/project"
	if ex.Cwd != "" {
		// An example about a repository: one on the branch it names.
		branch := map[string]string{"/repo-on-main": "main", "/repo-on-feature": "feature/x"}[ex.Cwd]
		if branch == "" {
			return Result{}, fmt.Errorf("example %q: unknown folder %s", ex.Text, ex.Cwd)
		}
		cwd = filepath.Join(tmp, filepath.Base(ex.Cwd))
		if err := os.MkdirAll(filepath.Join(cwd, ".git"), 0o755); err != nil {
			return Result{}, err
		}
		_ = os.MkdirAll(filepath.Join(cwd, "src"), 0o755)
		if err := os.WriteFile(filepath.Join(cwd, ".git", "HEAD"), []byte("ref: refs/heads/"+branch+"\n"), 0o644); err != nil {
			return Result{}, err
		}
	}
	o := &wire.Object{}
	o.Str("session_id", "simulate")
	o.Str("transcript_path", "/home/u/.claude/projects/p/simulate.jsonl")
	o.Str("cwd", cwd)
	var native string // the Claude Code event the call is sent as
	if ex.Tool == "" {
		native = "UserPromptSubmit"
		o.Str("hook_event_name", native)
		o.Str("prompt", ex.Text)
	} else {
		tool, key, ok := claudeTool(ex.Tool)
		if !ok {
			return Result{}, fmt.Errorf("example %q: no Claude Code tool for %s", ex.Text, ex.Tool)
		}
		if ex.Shell == event.ShellPowerShell {
			tool = "PowerShell" // Claude Code's PowerShell tool, on Windows
		}
		in := &wire.Object{}
		in.Str(key, ex.Text)
		native = "PreToolUse"
		o.Str("hook_event_name", native)
		o.Str("tool_name", tool)
		o.Raw("tool_input", in.Bytes())
		o.Str("tool_use_id", "toolu_simulate_"+strconv.Itoa(n))
	}
	doc := `{"spec": "hooks/0.1", "hooks": [{"name": ` + string(wire.Quote(name)) + `, "use": ` + string(wire.Quote(name))
	if ex.With != "" {
		doc += `, "with": ` + ex.With
	}
	doc += `}]}`
	f, err := config.Parse(filepath.Join(cwd, "(example)"), []byte(doc))
	if err != nil {
		return Result{}, err
	}
	f.Dir = cwd
	return e.Call("claude-code", native, "", []config.Found{{File: f}}, o.Bytes()), nil
}
