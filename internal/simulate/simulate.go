// Package simulate runs hook calls that no tool sent, through the real
// pipeline, for `hookshim simulate`: one call built from a tool's sample
// payload, every sample of every tool, one shell command and one prompt
// per tool, and every documented example of the built-in policies. It
// also holds the example policy those run when the user has no config,
// and the example handler it names. It runs the calls; the command line
// prints them.
package simulate

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	hookshim "github.com/hookshim/hookshim"
	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/pipeline"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/run"
	"github.com/hookshim/hookshim/internal/shellquote"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// Env is what simulated calls run in: the process environment, and the
// version hookshim tells handlers.
type Env struct {
	Getenv  func(string) string
	Version func() string
}

// Result is what simulate shows of one call.
type Result struct {
	Answer    provider.Answer
	Event     *event.Event // nil when the payload did not get that far
	Canonical event.Name
	Verdict   *decision.Verdict // nil when no handler ran
	Results   []run.Result
	Explain   string // what --explain prints
}

// Call answers one call the way 'hookshim run' does, without stdin or a
// log: every simulated call goes through here. configs, when set,
// replace discovery (the example policy).
func (e Env) Call(prov, ev, cfg string, configs []config.Found, raw []byte) Result {
	ans, rec := pipeline.Call(raw, nil, e.getenv, pipeline.Options{Provider: prov, Event: ev, Config: cfg, Configs: configs, Version: e.Version})
	return Result{Answer: ans, Event: rec.Event, Canonical: rec.Canonical, Verdict: rec.Verdict,
		Results: rec.Results, Explain: rec.Explain()}
}

// getenv is the environment of a simulated call: hookshim's own recursion
// guard is not inherited from a handler that runs simulate.
func (e Env) getenv(k string) string {
	if k == "HOOKSHIM_DEPTH" {
		return ""
	}
	return e.Getenv(k)
}

// Said is what the handlers answered, before it was fitted to what the
// tool can express.
func (r Result) Said() string {
	said := "none"
	for _, res := range r.Results {
		switch {
		case res.Err != nil:
			return "failed"
		case res.Output.Decision != decision.None:
			said = res.Output.Decision.String()
		case res.Output.Context != "" && said == "none":
			said = "context"
		}
	}
	return said
}

// Decision is the merged decision, "context" for context alone, "none"
// when no handler ran.
func (r Result) Decision() string {
	if r.Verdict == nil {
		return "none"
	}
	d := r.Verdict.Decision.String()
	if d == "none" && r.Verdict.Context != "" {
		return "context"
	}
	return d
}

// Policy chooses what one simulated call runs: the configs 'hookshim run'
// would find here (nil: the call discovers them itself), else the built-in
// example policy. about says which, when it is the example.
func Policy(cfg string, getenv func(string) string) (configs []config.Found, about string) {
	found, err := config.Discover(config.Sources{Flag: cfg, Getenv: getenv, StartDirs: []string{"."}})
	if err != nil || len(found) > 0 {
		return nil, "" // the call reports its config, or why it cannot be read
	}
	self, err := os.Executable()
	if err == nil {
		configs, err = ExamplePolicy(self)
	}
	if err != nil {
		return nil, fmt.Sprintf("no config found (%s), and the example policy cannot run: %v", Searched(getenv), err)
	}
	return configs, fmt.Sprintf("policy: the built-in example policy (no config found; searched: %s)", Searched(getenv))
}

// Searched says where configs are looked for, for messages.
func Searched(getenv func(string) string) string {
	where := config.FileName + " in this directory and above"
	if up := config.UserPath(getenv); up != "" {
		where += ", " + up
	}
	return where
}

// ExamplePolicy is the built-in policy simulate runs: deny a destructive
// shell command (the pack's hookshim/destructive-shell, in-process), add
// context on prompt submit (a handler that is self, hookshim itself, so
// the demo runs a real process and needs nothing installed).
func ExamplePolicy(self string) ([]config.Found, error) {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	doc := `{
  "spec": "hooks/0.1",
  "hooks": [
    {"name": "deny-destructive", "event": "before_tool_execute", "matcher": "shell",
     "use": "hookshim/destructive-shell"},
    {"name": "prompt-context", "event": "before_prompt",
     "handler": {"type": "command", "command": ` + q(shellquote.Word(self)+" example-policy prompt-context") + `, "timeout": 10}}
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

// Sample is the payload of one simulated call of pr: file's content, else
// the tool's embedded sample for the native event ev, pointed at the
// current folder.
func Sample(pr *provider.Provider, ev, file string) ([]byte, error) {
	if file != "" {
		return os.ReadFile(file)
	}
	var names []string
	var raw []byte
	for _, s := range hookshim.Samples() {
		if s.Provider != pr {
			continue
		}
		if !slices.Contains(names, s.Event) {
			names = append(names, s.Event)
		}
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

// WithToolInput puts a tool input into a sample payload where the tool
// keeps it.
func WithToolInput(pr *provider.Provider, raw, input []byte) ([]byte, error) {
	in := gjson.ParseBytes(input)
	if !gjson.ValidBytes(input) || !in.IsObject() {
		return nil, fmt.Errorf("--tool-input must be a JSON object, such as '{\"command\":\"ls\"}'")
	}
	out, err := pr.PutInput(raw, input)
	if errors.Is(err, provider.ErrNoToolInput) {
		return nil, fmt.Errorf("this %s sample has no tool input to replace", pr.Name)
	}
	return out, err
}
