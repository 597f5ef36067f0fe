package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"text/tabwriter"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/policy"
	"github.com/hookshim/hookshim/internal/wire"
)

// simulatePack runs every documented example of the built-in policies
// (docs/policies.md) through the real pipeline, each as the Claude Code
// call it stands for, with a config of that one "use" entry, and shows
// what Claude Code is answered. Examples about a repository's current
// branch run in a repository made for them.
func simulatePack(stdout, stderr io.Writer, getenv func(string) string) int {
	tmp, err := os.MkdirTemp("", "hookshim-simulate-")
	if err != nil {
		errorf(stderr, "%v", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	fmt.Fprintln(stdout, "hookshim simulate: every documented example of the built-in policies, as a Claude Code call,")
	fmt.Fprintln(stdout, "through the real pipeline with a config of one \"use\" entry (folder /home/u/project unless said):")
	fmt.Fprintln(stdout)
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "POLICY\tDOCUMENTED\tCALL\tANSWER\tREASON")
	failed := false
	n := 0
	for _, name := range policy.Names() {
		info, _ := policy.Lookup(name)
		for _, group := range []struct {
			want string
			exs  []policy.Example
		}{{"deny", info.Denied}, {"none", info.Allowed}} {
			for _, ex := range group.exs {
				n++
				res, err := simulateExample(name, ex, n, tmp, getenv)
				if err != nil {
					errorf(stderr, "%s: %v", name, err)
					failed = true
					continue
				}
				said, reason := "none", ""
				if v := res.verdict; v != nil {
					said, reason = v.Decision.String(), v.Reason
				}
				call := ex.Tool
				if call == "" {
					call = "prompt"
				}
				call += ": " + ex.Text
				if ex.With != "" {
					call += "  with " + ex.With
				}
				if ex.Notes != "" {
					call += "  (" + ex.Notes + ")"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", name, group.want, clip(call, 60), said, oneLine(reason))
				if said != group.want {
					failed = true
				}
			}
		}
	}
	if err := tw.Flush(); err != nil {
		return 1
	}
	fmt.Fprintln(stdout)
	fmt.Fprintln(stdout, "Each policy, with what it catches and misses: docs/policies.md, or hookshim policies NAME")
	if failed {
		return 1
	}
	return 0
}

// claudeTools are the Claude Code tools the examples' canonical tools
// stand for, and the key of their path.
var claudeTools = map[string][2]string{
	event.ToolShell:     {"Bash", "command"},
	event.ToolFileRead:  {"Read", "file_path"},
	event.ToolFileWrite: {"Write", "file_path"},
	event.ToolFileEdit:  {"Edit", "file_path"},
	event.ToolSearch:    {"Grep", "path"},
}

// simulateExample answers one documented example as a Claude Code call.
func simulateExample(name string, ex policy.Example, n int, tmp string, getenv func(string) string) (simResult, error) {
	cwd := "/home/u/project"
	if ex.Cwd != "" {
		// An example about a repository: one on the branch it names.
		branch := map[string]string{"/repo-on-main": "main", "/repo-on-feature": "feature/x"}[ex.Cwd]
		if branch == "" {
			return simResult{}, fmt.Errorf("example %q: unknown folder %s", ex.Text, ex.Cwd)
		}
		cwd = filepath.Join(tmp, filepath.Base(ex.Cwd))
		if err := os.MkdirAll(filepath.Join(cwd, ".git"), 0o755); err != nil {
			return simResult{}, err
		}
		_ = os.MkdirAll(filepath.Join(cwd, "src"), 0o755)
		if err := os.WriteFile(filepath.Join(cwd, ".git", "HEAD"), []byte("ref: refs/heads/"+branch+"\n"), 0o644); err != nil {
			return simResult{}, err
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
		t, ok := claudeTools[ex.Tool]
		if !ok {
			return simResult{}, fmt.Errorf("example %q: no Claude Code tool for %s", ex.Text, ex.Tool)
		}
		in := &wire.Object{}
		in.Str(t[1], ex.Text)
		native = "PreToolUse"
		o.Str("hook_event_name", native)
		o.Str("tool_name", t[0])
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
		return simResult{}, err
	}
	f.Dir = cwd
	return simulateCall("claude-code", native, "", []config.Found{{File: f}}, o.Bytes(), getenv), nil
}
