package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/normalize"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/simulate"
	"github.com/hookshim/hookshim/internal/wire"
)

func cmdSimulate(args []string, _ io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := newFlags("simulate")
	all := fs.Bool("all", false, "")
	prov := fs.String("provider", "", "")
	ev := fs.String("event", "", "")
	input := fs.String("tool-input", "", "")
	payloadFile := fs.String("payload", "", "")
	pack := fs.Bool("pack", false, "")
	cfg := fs.String("config", "", "")
	if !parseFlags(fs, args, stderr) {
		return 2
	}
	sim := simulate.Env{Getenv: getenv, Version: version}
	if *prov == "" && *ev == "" && *payloadFile == "" {
		if *pack {
			return simulatePack(sim, stdout, stderr)
		}
		if *all {
			return simulateAll(sim, stdout, stderr)
		}
		return simulateMatrix(sim, stdout, stderr)
	}
	if *prov == "" || (*ev == "" && *payloadFile == "") {
		errorf(stderr, "simulate one call needs --provider and --event (or --payload)")
		hintf(stderr, "hookshim simulate --provider claude-code --event PreToolUse --tool-input '{\"command\":\"ls\"}'")
		return 2
	}
	pr := provider.Lookup(*prov)
	if pr == nil {
		errorf(stderr, "unknown provider %q (known: %s)", *prov, strings.Join(provider.IDs(), ", "))
		return 2
	}
	raw, err := simulate.Sample(pr, *ev, *payloadFile)
	if err != nil {
		errorf(stderr, "%v", err)
		return 1
	}
	if *input != "" {
		if raw, err = simulate.WithToolInput(pr, raw, []byte(*input)); err != nil {
			errorf(stderr, "%v", err)
			return 2
		}
	}
	policy, about := simulate.Policy(*cfg, getenv)
	if about != "" {
		fmt.Fprintf(stdout, "%s\n\n", about)
	}
	res := sim.Call(pr.ID, *ev, *cfg, policy, raw)
	fmt.Fprintf(stdout, "payload (%s):\n%s\n", pr.Name, indentJSON(raw))
	if res.Event != nil {
		fmt.Fprintf(stdout, "\ncanonical event:\n%s\n", indentJSON(normalize.Data(res.Event)))
		ruleView(stdout, res.Event)
	}
	fmt.Fprintf(stdout, "\n%s", res.Explain)
	ans := res.Answer
	fmt.Fprintf(stdout, "\nanswer to %s:\n  exit %d\n  stdout: %s\n", pr.Name, ans.Exit, orNothing(ans.Stdout))
	if ans.Stderr != "" {
		fmt.Fprintf(stdout, "  stderr: %s\n", strings.TrimRight(ans.Stderr, "\n"))
	}
	return 0
}

// exampleTable starts a table of calls simulate runs against the example
// policy: the policy, the header that says what is shown, and a table with
// its column names written; ok is false when the policy cannot be run
// (the error is on stderr).
func exampleTable(stdout, stderr io.Writer, what, columns string) ([]config.Found, *tabwriter.Writer, bool) {
	self, err := os.Executable()
	if err != nil {
		errorf(stderr, "cannot find my own path to run the example policy: %v", err)
		return nil, nil, false
	}
	policy, err := simulate.ExamplePolicy(self)
	if err != nil {
		errorf(stderr, "example policy: %v", err)
		return nil, nil, false
	}
	fmt.Fprintf(stdout, "hookshim simulate: %s,\nthrough the real pipeline with the built-in example policy (not a config of yours):\n", what)
	fmt.Fprintln(stdout, "  deny-destructive  before_tool_execute, shell: the built-in policy hookshim/destructive-shell (rm -rf /, mkfs, dd to a disk, fork bombs, also wrapped)")
	fmt.Fprintln(stdout, "  prompt-context    before_prompt: add \""+simulate.ExampleContext+"\"")
	fmt.Fprintln(stdout)
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, columns)
	return policy, tw, true
}

// exampleFooter tells how to run one call against the user's own config.
func exampleFooter(stdout io.Writer, getenv func(string) string) {
	fmt.Fprintln(stdout)
	found, err := config.Discover(config.Sources{Getenv: getenv, StartDirs: []string{"."}})
	switch {
	case err != nil:
		fmt.Fprintf(stdout, "Your config cannot be read: %v\n", err)
	case len(found) > 0:
		fmt.Fprintf(stdout, "Your config %s was not used above. Try one call against it:\n", found[len(found)-1].Path)
	default:
		fmt.Fprintf(stdout, "No config of yours was found (searched: %s).\nWrite one (README.md, \"Configure\"), then try one call against it:\n", simulate.Searched(getenv))
	}
	fmt.Fprintln(stdout, "  hookshim simulate --provider claude-code --event PreToolUse --tool-input '{\"command\":\"rm -rf /\"}'")
}

// simulateMatrix prints, for every tool, the same destructive shell
// command and a prompt, each in the tool's own payload, and what the tool
// is answered.
func simulateMatrix(sim simulate.Env, stdout, stderr io.Writer) int {
	policy, tw, ok := exampleTable(stdout, stderr, "a shell command and a prompt for every tool, each in the tool's own payload",
		"TOOL\tNATIVE EVENT\tCALL\tPOLICY\tEXIT\tANSWER (stdout, [stderr], (what the tool cannot express))")
	if !ok {
		return 1
	}
	rows, errs := sim.Matrix(policy)
	for _, err := range errs {
		errorf(stderr, "%v", err)
	}
	last := ""
	for _, row := range rows {
		res := row.Result
		call := "-"
		if ev := res.Event; ev != nil {
			switch {
			case ev.Tool != nil:
				call = ev.Tool.Name + ": " + ev.Tool.Command
			case ev.Prompt != nil:
				call = "prompt: " + clip(*ev.Prompt, 28)
			}
		}
		shown := row.Sample.Provider.ID
		if shown == last {
			shown = ""
		}
		last = row.Sample.Provider.ID
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", shown, row.Sample.Event, call, res.Said(), res.Answer.Exit, answerCell(res, true))
	}
	if err := tw.Flush(); err != nil {
		return 1
	}
	fmt.Fprintln(stdout)
	fmt.Fprintln(stdout, "Every sample payload of every tool: hookshim simulate --all")
	exampleFooter(stdout, sim.Getenv)
	if len(errs) > 0 {
		return 1
	}
	return 0
}

// simulateAll prints every embedded sample payload's call (simulate --all).
func simulateAll(sim simulate.Env, stdout, stderr io.Writer) int {
	policy, tw, ok := exampleTable(stdout, stderr, "every sample payload of every tool",
		"PROVIDER\tSAMPLE\tCANONICAL EVENT\tDECISION\tEXIT\tNATIVE ANSWER (stdout)")
	if !ok {
		return 1
	}
	last := ""
	for _, row := range sim.All(policy) {
		s, res := row.Sample, row.Result
		canonical := string(res.Canonical)
		if res.Event != nil {
			canonical = string(res.Event.Name) // the payload may turn an event into its failure variant
		}
		if canonical == "" {
			canonical = "-"
		}
		name := s.Provider.ID
		if name == last {
			name = ""
		}
		last = s.Provider.ID
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", name, strings.TrimSuffix(s.Name, ".json"), canonical, res.Decision(), res.Answer.Exit, answerCell(res, false))
	}
	if err := tw.Flush(); err != nil {
		return 1
	}
	exampleFooter(stdout, sim.Getenv)
	return 0
}

// simulatePack prints every documented example of the built-in policies
// as the Claude Code call it stands for, and what Claude Code is
// answered; an example answered otherwise than documented fails it.
func simulatePack(sim simulate.Env, stdout, stderr io.Writer) int {
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
	rows, errs := sim.Pack(tmp)
	for _, err := range errs {
		errorf(stderr, "%v", err)
	}
	failed := len(errs) > 0
	for _, row := range rows {
		ex := row.Example
		said, reason := "none", ""
		if v := row.Result.Verdict; v != nil {
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
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", row.Policy, row.Want, clip(call, 60), said, wire.OneLine(reason))
		failed = failed || said != row.Want
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

// answerCell is the tool's answer on one line and, with notes, what was
// lost on the way when the tool cannot express the policy's answer.
func answerCell(res simulate.Result, notes bool) string {
	out := strings.TrimRight(string(res.Answer.Stdout), "\n")
	if res.Answer.Stderr != "" {
		out += "  [stderr: " + wire.OneLine(strings.TrimSpace(res.Answer.Stderr)) + "]"
	}
	out = orNothing([]byte(out))
	if notes && res.Verdict != nil && len(res.Verdict.Notes) > 0 {
		out += "  (" + strings.Join(res.Verdict.Notes, "; ") + ")"
	}
	return out
}

// clip shortens s to n runes for a table cell.
func clip(s string, n int) string {
	s = wire.OneLine(s)
	if r := []rune(s); len(r) > n {
		return strconv.Quote(string(r[:n-1]) + "…")
	}
	return strconv.Quote(s)
}

func orNothing(b []byte) string {
	if len(bytes.TrimSpace(b)) == 0 {
		return "(nothing)"
	}
	return string(b)
}

func indentJSON(b []byte) string {
	var out bytes.Buffer
	if err := json.Indent(&out, b, "  ", "  "); err != nil {
		return "  " + string(b)
	}
	return "  " + out.String()
}
