package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	hookshim "github.com/hookshim/hookshim"
	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/normalize"
	"github.com/hookshim/hookshim/internal/pipeline"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/run"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// examplePolicy is the built-in policy simulate runs: deny a destructive
// shell command (the pack's hookshim/destructive-shell, in-process), add
// context on prompt submit (a handler that is hookshim itself, so the demo
// runs a real process and needs nothing installed).
func examplePolicy(self string) ([]config.Found, error) {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	doc := `{
  "spec": "hooks/0.1",
  "hooks": [
    {"name": "deny-destructive", "event": "before_tool_execute", "matcher": "shell",
     "use": "hookshim/destructive-shell"},
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

func cmdSimulate(args []string, _ io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	all := fs.Bool("all", false, "every embedded sample payload of every tool, not one shell command and one prompt per tool")
	prov := fs.String("provider", "", "provider id: simulate one call of this tool")
	ev := fs.String("event", "", "native event of that call")
	input := fs.String("tool-input", "", "tool input JSON object to put in the sample payload")
	payloadFile := fs.String("payload", "", "use this payload file instead of the embedded sample")
	pack := fs.Bool("pack", false, "every documented example of the built-in policies, as Claude Code calls")
	cfg := fs.String("config", "", "config file (default: discovery from the current directory)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *prov == "" && *ev == "" && *payloadFile == "" {
		if *pack {
			return simulatePack(stdout, stderr, getenv) // simulate_pack.go
		}
		if *all {
			return simulateSamples(stdout, stderr, getenv)
		}
		return simulateMatrix(stdout, stderr, getenv)
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
	policy, about := simPolicy(*cfg, getenv)
	if about != "" {
		fmt.Fprintf(stdout, "%s\n\n", about)
	}
	res := simulateCall(pr.ID, *ev, *cfg, policy, raw, getenv)
	fmt.Fprintf(stdout, "payload (%s):\n%s\n", pr.Name, indentJSON(raw))
	if res.event != nil {
		fmt.Fprintf(stdout, "\ncanonical event:\n%s\n", indentJSON(normalize.Data(res.event)))
		ruleView(stdout, res.event)
	}
	fmt.Fprintf(stdout, "\n%s", res.explain)
	ans := res.answer
	fmt.Fprintf(stdout, "\nanswer to %s:\n  exit %d\n  stdout: %s\n", pr.Name, ans.Exit, orNothing(ans.Stdout))
	if ans.Stderr != "" {
		fmt.Fprintf(stdout, "  stderr: %s\n", strings.TrimRight(ans.Stderr, "\n"))
	}
	return 0
}

// simResult is what simulate shows of one call.
type simResult struct {
	answer    provider.Answer
	event     *event.Event // nil when the payload did not get that far
	canonical event.Name
	verdict   *decision.Verdict // nil when no handler ran
	results   []run.Result
	explain   string // what --explain prints
}

// simulateCall answers one call the way 'hookshim run' does, without stdin
// or a log: every simulated call goes through here. configs, when set,
// replace discovery (the example policy).
func simulateCall(prov, ev, cfg string, configs []config.Found, raw []byte, getenv func(string) string) simResult {
	ans, rec := pipeline.Call(raw, nil, simEnv(getenv), pipeline.Options{Provider: prov, Event: ev, Config: cfg, Configs: configs, Version: version})
	return simResult{answer: ans, event: rec.Event, canonical: rec.Canonical, verdict: rec.Verdict,
		results: rec.Results, explain: rec.Explain()}
}

// simPolicy chooses what one simulated call runs: the configs 'hookshim
// run' would find here (nil: the call discovers them itself), else the
// built-in example policy. about says which, when it is the example.
func simPolicy(cfg string, getenv func(string) string) (configs []config.Found, about string) {
	found, err := config.Discover(config.Sources{Flag: cfg, Getenv: getenv, StartDirs: []string{"."}})
	if err != nil || len(found) > 0 {
		return nil, "" // the call reports its config, or why it cannot be read
	}
	self, err := os.Executable()
	if err == nil {
		configs, err = examplePolicy(self)
	}
	if err != nil {
		return nil, fmt.Sprintf("no config found (%s), and the example policy cannot run: %v", searched(getenv), err)
	}
	return configs, fmt.Sprintf("policy: the built-in example policy (no config found; searched: %s)", searched(getenv))
}

// searched says where configs are looked for, for messages.
func searched(getenv func(string) string) string {
	where := config.FileName + " in this directory and above"
	if up := config.UserPath(getenv); up != "" {
		where += ", " + up
	}
	return where
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
	var raw []byte
	for _, s := range hookshim.Samples() {
		if s.Provider != pr {
			continue
		}
		names = appendUnique(names, s.Event)
		// The plain <Event>.json, not the first variant by name (Codex's
		// PreToolUse-apply_patch sorts before its shell sample).
		if s.Event == ev && (raw == nil || s.Name == ev+".json") {
			raw = s.Raw
		}
	}
	if raw != nil {
		// The call happens here: point the sample at this directory.
		if wd, err := os.Getwd(); err == nil && gjson.GetBytes(raw, pr.Fields.Cwd).Exists() {
			raw, _ = sjson.SetBytes(raw, pr.Fields.Cwd, wd)
		}
		return raw, nil
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

// exampleTable starts a table of calls simulate runs against the example
// policy: the policy, the header that says what is shown, and a table with
// its column names written; ok is false when the policy cannot be run
// (the error is on stderr).
func exampleTable(stdout, stderr io.Writer, what, columns string) ([]config.Found, *tabwriter.Writer, bool) {
	policy, ok := examplePolicyHere(stderr)
	if !ok {
		return nil, nil, false
	}
	exampleHeader(stdout, what)
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, columns)
	return policy, tw, true
}

// exampleHeader says what simulate runs when it runs the example policy.
func exampleHeader(stdout io.Writer, what string) {
	fmt.Fprintf(stdout, "hookshim simulate: %s,\nthrough the real pipeline with the built-in example policy (not a config of yours):\n", what)
	fmt.Fprintln(stdout, "  deny-destructive  before_tool_execute, shell: the built-in policy hookshim/destructive-shell (rm -rf /, mkfs, dd to a disk, fork bombs, also wrapped)")
	fmt.Fprintln(stdout, "  prompt-context    before_prompt: add \""+ExampleContext+"\"")
	fmt.Fprintln(stdout)
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
		fmt.Fprintf(stdout, "No config of yours was found (searched: %s).\nWrite one (README.md, \"Configure\"), then try one call against it:\n", searched(getenv))
	}
	fmt.Fprintln(stdout, "  hookshim simulate --provider claude-code --event PreToolUse --tool-input '{\"command\":\"rm -rf /\"}'")
}

// examplePolicyHere is the example policy run by this binary.
func examplePolicyHere(stderr io.Writer) ([]config.Found, bool) {
	self, err := os.Executable()
	if err != nil {
		errorf(stderr, "cannot find my own path to run the example policy: %v", err)
		return nil, false
	}
	policy, err := examplePolicy(self)
	if err != nil {
		errorf(stderr, "example policy: %v", err)
		return nil, false
	}
	return policy, true
}

// exampleCommand is the shell command every tool is shown trying to run.
const exampleCommand = "rm -rf /"

// simulateMatrix shows the product in one screen: for every tool, the same
// destructive shell command and a prompt, each in the tool's own payload,
// and what the tool is answered.
func simulateMatrix(stdout, stderr io.Writer, getenv func(string) string) int {
	policy, tw, ok := exampleTable(stdout, stderr, "a shell command and a prompt for every tool, each in the tool's own payload",
		"TOOL\tNATIVE EVENT\tCALL\tPOLICY\tEXIT\tANSWER (stdout, [stderr], (what the tool cannot express))")
	if !ok {
		return 1
	}
	input := []byte(`{"command":` + string(wire.Quote(exampleCommand)) + `}`)
	failed := false
	samples := hookshim.Samples()
	for _, pr := range provider.All {
		shown := pr.ID
		for _, kind := range []event.Name{event.BeforeToolExecute, event.BeforePrompt} {
			if !hasCanonical(pr, kind) {
				// Antigravity and Trae have no prompt event at all.
				continue
			}
			s := representative(samples, pr, kind, getenv)
			if s == nil {
				errorf(stderr, "%s has no sample payload for %s", pr.ID, kind)
				failed = true
				continue
			}
			raw := s.Raw
			if kind == event.BeforeToolExecute {
				var err error
				if raw, err = withToolInput(pr, raw, input); err != nil {
					errorf(stderr, "%s %s: %v", pr.ID, s.Name, err)
					failed = true
					continue
				}
			}
			res := simulateCall(pr.ID, s.Event, "", policy, raw, getenv)
			call := "-"
			if ev := res.event; ev != nil {
				switch {
				case ev.Tool != nil:
					call = ev.Tool.Name + ": " + ev.Tool.Command
				case ev.Prompt != nil:
					call = "prompt: " + clip(*ev.Prompt, 28)
				}
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", shown, s.Event, call, policySaid(res), res.answer.Exit, answerCell(res))
			shown = ""
		}
	}
	if err := tw.Flush(); err != nil {
		return 1
	}
	fmt.Fprintln(stdout)
	fmt.Fprintln(stdout, "Every sample payload of every tool: hookshim simulate --all")
	exampleFooter(stdout, getenv)
	if failed {
		return 1
	}
	return 0
}

// hasCanonical reports whether one of pr's native events is kind.
func hasCanonical(pr *provider.Provider, kind event.Name) bool {
	for i := range pr.Events {
		if pr.Events[i].Canonical == kind {
			return true
		}
	}
	return false
}

// representative picks the sample a tool is shown with for a canonical
// event, by what the sample is, not by its name: for a tool call, a sample
// about the shell, from the tool's event for shell commands where it has
// one (Cursor's beforeShellExecution rather than its preToolUse); an event
// that can express what the example policy answers (a denial, context)
// before one that cannot (then the table shows the degradation); the
// tool's own order of events; the plain <Event>.json before its variants.
func representative(samples []hookshim.Sample, pr *provider.Provider, kind event.Name, getenv func(string) string) *hookshim.Sample {
	want := provider.CanDeny
	if kind == event.BeforePrompt {
		want = provider.CanContext
	}
	type candidate struct {
		s     *hookshim.Sample
		spec  *provider.Spec
		shell bool
	}
	var cands []candidate
	notShellOnly := map[string]bool{} // native events with samples about other tools
	for i := range samples {
		s := &samples[i]
		spec := pr.Spec(s.Event)
		if s.Provider != pr || spec == nil || spec.Canonical != kind {
			continue
		}
		c := candidate{s: s, spec: spec, shell: true}
		if kind == event.BeforeToolExecute {
			ev := normalize.Event(pr, spec, provider.NewPayload(s.Raw, getenv))
			c.shell = ev.Tool != nil && ev.Tool.Name == event.ToolShell
			if !c.shell {
				notShellOnly[s.Event] = true
			}
		}
		cands = append(cands, c)
	}
	var best *hookshim.Sample
	bestRank := 0
	for _, c := range cands {
		if !c.shell {
			continue
		}
		rank := 0 // lower wins
		if !c.spec.Can.Has(want) {
			rank += 1 << 20
		}
		if notShellOnly[c.s.Event] {
			rank += 1 << 19
		}
		for j := range pr.Events {
			if pr.Events[j].Native == c.s.Event {
				rank += j * 2
			}
		}
		if c.s.Name != c.s.Event+".json" {
			rank++
		}
		if best == nil || rank < bestRank {
			best, bestRank = c.s, rank
		}
	}
	return best
}

// policySaid is what the handlers answered, before it was fitted to what
// the tool can express.
func policySaid(res simResult) string {
	said := "none"
	for _, r := range res.results {
		switch {
		case r.Err != nil:
			return "failed"
		case r.Output.Decision != decision.None:
			said = r.Output.Decision.String()
		case r.Output.Context != "" && said == "none":
			said = "context"
		}
	}
	return said
}

// answerCell is the tool's answer on one line, with what was lost on the
// way when the tool cannot express the policy's answer.
func answerCell(res simResult) string {
	out := strings.TrimRight(string(res.answer.Stdout), "\n")
	if res.answer.Stderr != "" {
		out += "  [stderr: " + oneLine(strings.TrimSpace(res.answer.Stderr)) + "]"
	}
	out = orNothing([]byte(out))
	if res.verdict != nil && len(res.verdict.Notes) > 0 {
		out += "  (" + strings.Join(res.verdict.Notes, "; ") + ")"
	}
	return out
}

// clip shortens s to n runes for a table cell.
func clip(s string, n int) string {
	s = oneLine(s)
	if r := []rune(s); len(r) > n {
		return strconv.Quote(string(r[:n-1]) + "…")
	}
	return strconv.Quote(s)
}

// simulateSamples runs every embedded sample payload (simulate --all).
func simulateSamples(stdout, stderr io.Writer, getenv func(string) string) int {
	policy, tw, ok := exampleTable(stdout, stderr, "every sample payload of every tool",
		"PROVIDER\tSAMPLE\tCANONICAL EVENT\tDECISION\tEXIT\tNATIVE ANSWER (stdout)")
	if !ok {
		return 1
	}
	last := ""
	for _, s := range hookshim.Samples() {
		res := simulateCall(s.Provider.ID, s.Event, "", policy, s.Raw, getenv)
		ans := res.answer
		decision := "none"
		if res.verdict != nil {
			decision = res.verdict.Decision.String()
			if decision == "none" && res.verdict.Context != "" {
				decision = "context"
			}
		}
		canonical := string(res.canonical)
		if res.event != nil {
			canonical = string(res.event.Name) // the payload may turn an event into its failure variant
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
	exampleFooter(stdout, getenv)
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
