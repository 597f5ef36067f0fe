package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	hookshim "github.com/hookshim/hookshim"
	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/normalize"
	"github.com/hookshim/hookshim/internal/pipeline"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// examplePolicy is the built-in policy simulate runs: deny a destructive
// shell command, add context on prompt submit. Its handlers are hookshim
// itself, so the demo runs real processes and needs nothing installed.
func examplePolicy(self string) ([]config.Found, error) {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	doc := `{
  "spec": "hooks/0.1",
  "hooks": [
    {"name": "deny-destructive", "event": "before_tool_execute", "matcher": "shell", "blocking": true,
     "handler": {"type": "command", "command": ` + q(quoteArg(self)+" example-policy deny-destructive") + `, "timeout": 10}},
    {"name": "prompt-context", "event": "before_prompt",
     "handler": {"type": "command", "command": ` + q(quoteArg(self)+" example-policy prompt-context") + `, "timeout": 10}}
  ]
}`
	dir, _ := os.Getwd()
	f, err := config.Parse(dir+"/(built-in example policy)", []byte(doc))
	if err != nil {
		return nil, err
	}
	f.Dir = dir
	return []config.Found{{File: f}}, nil
}

// quoteArg quotes a path for a command line when it needs it.
func quoteArg(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`|&;<>()*?[]{}~#!=") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func cmdSimulate(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	prov := fs.String("provider", "", "provider id: simulate one call of this tool")
	ev := fs.String("event", "", "native event of that call")
	input := fs.String("tool-input", "", "tool input JSON object to put in the sample payload")
	payloadFile := fs.String("payload", "", "use this payload file instead of the embedded sample")
	cfg := fs.String("config", "", "config file (default: discovery from the current directory)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *prov == "" && *ev == "" && *payloadFile == "" {
		return simulateAll(stdout, stderr, getenv)
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
	raw, err := samplePayload(pr, *ev, *payloadFile)
	if err != nil {
		errorf(stderr, "%v", err)
		return 1
	}
	if *input != "" {
		if raw, err = withToolInput(pr, raw, []byte(*input)); err != nil {
			errorf(stderr, "%v", err)
			return 2
		}
	}
	ans, rec := pipeline.Call(raw, nil, simEnv(getenv), pipeline.Options{Provider: pr.ID, Event: *ev, Config: *cfg, Version: version})
	fmt.Fprintf(stdout, "payload (%s):\n%s\n", pr.Name, indentJSON(raw))
	if rec.Event != nil {
		fmt.Fprintf(stdout, "\ncanonical event:\n%s\n", indentJSON(normalize.Data(rec.Event)))
	}
	fmt.Fprintf(stdout, "\n%s", explain(rec))
	fmt.Fprintf(stdout, "\nanswer to %s:\n  exit %d\n  stdout: %s\n", pr.Name, ans.Exit, orNothing(ans.Stdout))
	if ans.Stderr != "" {
		fmt.Fprintf(stdout, "  stderr: %s\n", strings.TrimRight(ans.Stderr, "\n"))
	}
	return 0
}

// simEnv is the environment of a simulated call: hookshim's own recursion
// guard is not inherited from a handler that runs simulate.
func simEnv(getenv func(string) string) func(string) string {
	return func(k string) string {
		if k == "HOOKSHIM_DEPTH" {
			return ""
		}
		return getenv(k)
	}
}

func samplePayload(pr *provider.Provider, ev, file string) ([]byte, error) {
	if file != "" {
		return os.ReadFile(file)
	}
	var names []string
	for _, s := range hookshim.Samples() {
		if s.Provider != pr {
			continue
		}
		if s.Event == ev {
			raw := s.Raw
			// The call happens here: point the sample at this directory.
			if wd, err := os.Getwd(); err == nil && gjson.GetBytes(raw, pr.Fields.Cwd).Exists() {
				raw, _ = sjson.SetBytes(raw, pr.Fields.Cwd, wd)
			}
			return raw, nil
		}
		names = appendUnique(names, s.Event)
	}
	if pr.Spec(ev) == nil {
		var known []string
		for _, s := range pr.Events {
			known = append(known, s.Native)
		}
		return nil, fmt.Errorf("%s has no event %q (its events: %s)", pr.Name, ev, strings.Join(known, ", "))
	}
	return nil, fmt.Errorf("no sample payload for %s %s; pass one with --payload FILE (samples exist for: %s)", pr.Name, ev, strings.Join(names, ", "))
}

// withToolInput puts a tool input into a sample payload where the tool
// keeps it.
func withToolInput(pr *provider.Provider, raw, input []byte) ([]byte, error) {
	in := gjson.ParseBytes(input)
	if !gjson.ValidBytes(input) || !in.IsObject() {
		return nil, fmt.Errorf("--tool-input must be a JSON object, such as '{\"command\":\"ls\"}'")
	}
	if pr.SetInput != nil {
		return pr.SetInput(raw, input)
	}
	where := pr.Fields.ToolInput
	if where == "" || !gjson.GetBytes(raw, where).Exists() {
		return nil, fmt.Errorf("this %s sample has no tool input to replace", pr.Name)
	}
	if gjson.GetBytes(raw, where).Type == gjson.String {
		// The tool sends its input as a JSON string (Copilot's toolArgs).
		return sjson.SetBytes(raw, where, string(input))
	}
	return sjson.SetRawBytes(raw, where, input)
}

func simulateAll(stdout, stderr io.Writer, getenv func(string) string) int {
	self, err := os.Executable()
	if err != nil {
		errorf(stderr, "cannot find my own path to run the example policy: %v", err)
		return 1
	}
	policy, err := examplePolicy(self)
	if err != nil {
		errorf(stderr, "example policy: %v", err)
		return 1
	}
	fmt.Fprintln(stdout, "hookshim simulate: every sample payload through the real pipeline, with the example policy:")
	fmt.Fprintln(stdout, "  deny-destructive  before_tool_execute, shell: deny rm -rf /, mkfs, dd to a disk, fork bombs")
	fmt.Fprintln(stdout, "  prompt-context    before_prompt: add \""+ExampleContext+"\"")
	fmt.Fprintln(stdout)
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PROVIDER\tSAMPLE\tCANONICAL EVENT\tDECISION\tEXIT\tNATIVE ANSWER (stdout)")
	last := ""
	for _, s := range hookshim.Samples() {
		ans, rec := pipeline.Call(s.Raw, nil, simEnv(getenv), pipeline.Options{Provider: s.Provider.ID, Event: s.Event, Version: version, Configs: policy})
		decision := "none"
		if rec.Verdict != nil {
			decision = rec.Verdict.Decision.String()
			if decision == "none" && rec.Verdict.Context != "" {
				decision = "context"
			}
		}
		canonical := string(rec.Canonical)
		if rec.Event != nil {
			canonical = string(rec.Event.Name) // the payload may turn an event into its failure variant
		}
		if canonical == "" {
			canonical = "-"
		}
		name := s.Provider.ID
		if name == last {
			name = ""
		}
		last = s.Provider.ID
		out := strings.TrimRight(string(ans.Stdout), "\n")
		if ans.Stderr != "" {
			out += "  [stderr: " + oneLine(strings.TrimSpace(ans.Stderr)) + "]"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", name, strings.TrimSuffix(s.Name, ".json"), canonical, decision, ans.Exit, orNothing([]byte(out)))
	}
	if err := tw.Flush(); err != nil {
		return 1
	}
	fmt.Fprintln(stdout)
	fmt.Fprintln(stdout, "Try one call against your own .openhook.json:")
	fmt.Fprintln(stdout, "  hookshim simulate --provider claude-code --event PreToolUse --tool-input '{\"command\":\"rm -rf /\"}'")
	return 0
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

func appendUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
