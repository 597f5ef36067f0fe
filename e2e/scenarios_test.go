package e2e

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hookshim/hookshim/e2e/mockmodel"
	"github.com/hookshim/hookshim/internal/provider"
)

// scenario is one client run: a policy, and what must come of it.
type scenario struct {
	name string
	// hooks are the scenario's .openhook.json entries (a recording
	// handler for every event is added to each).
	hooks func(r *runDir) []obj
	// raw replaces the whole .openhook.json (a broken config).
	raw string
	// onError is the config's on_error.
	onError string
	// optional scenarios run only in the clients that name them (extra).
	optional bool
	check    func(t *testing.T, res *result, pr *provider.Provider)
}

// handler is an .openhook.json entry running e2ehelper with steps.
func handler(name, event string, timeout float64, steps ...string) obj {
	cmd := []string{shellQuote(helperBin), "handler"}
	for _, s := range steps {
		cmd = append(cmd, shellQuote(s))
	}
	h := obj{"type": "command", "command": strings.Join(cmd, " ")}
	if timeout > 0 {
		h["timeout"] = timeout
	}
	e := obj{"name": name, "event": event, "handler": h}
	if event == "before_tool_execute" || event == "after_tool_execute" {
		e["matcher"] = "shell"
	}
	return e
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// The events whose context channel the allow scenario tries.
var contextEvents = []string{"session_start", "before_prompt", "before_tool_execute", "after_tool_execute"}

func ctxToken(ev string) string { return tokCtxPrefix + strings.ToUpper(ev) }

// faulty are handlers that fail in each way a handler can: a crash, a
// hang past its timeout, and output that is not an answer.
func faulty() []obj {
	return []obj{
		handler("crash", "before_tool_execute", 0, "stderr", "handler crashed", "exit", "1"),
		handler("hang", "before_tool_execute", 2, "sleep", "60s"),
		handler("garbage", "before_tool_execute", 0, "stdout", "this is not an answer {"),
	}
}

var scenarios = []scenario{
	{
		// An allow runs the call; context offered on each event reaches the
		// model where the provider says it can, and nowhere else.
		name: "allow",
		hooks: func(r *runDir) []obj {
			hs := []obj{handler("allow", "before_tool_execute", 0, "stdout", `{"decision": "allow"}`)}
			for _, ev := range contextEvents {
				hs = append(hs, handler("context-"+ev, ev, 0, "stdout", fmt.Sprintf(`{"context": %q}`, ctxToken(ev))))
			}
			return hs
		},
		check: func(t *testing.T, res *result, pr *provider.Provider) {
			expectRan(t, res, "marker.txt")
			for _, ev := range contextEvents {
				calls := res.callsFor(ev)
				if len(calls) == 0 && slices.Contains(res.r.c.silent, ev) {
					continue
				}
				if len(calls) == 0 {
					t.Errorf("%s: the client sent no event that hookshim maps to %s", res.r.c.name, ev)
					continue
				}
				spec := pr.Spec(calls[0].NativeEvent)
				if spec == nil {
					t.Errorf("%s: native event %s is not in the provider table", res.r.c.name, calls[0].NativeEvent)
					continue
				}
				got := res.reached(ctxToken(ev), 0)
				switch {
				case spec.Can.Has(provider.CanContext) && !got && slices.Contains(res.r.c.lossy, ev):
					t.Logf("context on %s (%s): no request carried it this run; %s drops it now and then", ev, spec.Native, res.r.c.name)
				case spec.Can.Has(provider.CanContext) && !got:
					t.Errorf("context on %s (%s): hookshim says it reaches the model, but no request carried it", ev, spec.Native)
				case !spec.Can.Has(provider.CanContext) && got:
					t.Errorf("context on %s (%s): hookshim says it cannot reach the model (it degrades), but a request carried it", ev, spec.Native)
				case !spec.Can.Has(provider.CanContext) && !degradedContext(calls):
					t.Errorf("context on %s (%s): no degradation recorded in hookshim's log", ev, spec.Native)
				case !spec.Can.Has(provider.CanContext) && degradedTo(calls, "shown to the user") &&
					!strings.Contains(res.stdout+res.stderr, ctxToken(ev)):
					t.Errorf("context on %s (%s): hookshim says it is shown to the user instead, but the client's output does not show it", ev, spec.Native)
				}
			}
		},
	},
	{
		// A deny blocks the call and its reason reaches the model.
		name: "deny",
		hooks: func(r *runDir) []obj {
			return []obj{handler("deny", "before_tool_execute", 0, "stdout", fmt.Sprintf(`{"decision": "deny", "reason": %q}`, tokDeny))}
		},
		check: func(t *testing.T, res *result, pr *provider.Provider) {
			expectBlocked(t, res, tokDeny)
		},
	},
	{
		// An ask: where the event can ask, the client's own headless
		// behaviour; where it cannot, hookshim denies (the documented
		// default degradation), reason to the model.
		name: "ask",
		hooks: func(r *runDir) []obj {
			return []obj{handler("ask", "before_tool_execute", 0, "stdout", fmt.Sprintf(`{"decision": "ask", "reason": %q}`, tokAsk))}
		},
		check: func(t *testing.T, res *result, pr *provider.Provider) {
			spec := preSpec(t, res, pr)
			if spec == nil {
				return
			}
			if spec.Can.Has(provider.CanAsk) && !res.r.c.askBlocks {
				expectRan(t, res, "marker.txt")
				return
			}
			expectBlocked(t, res, tokAsk)
		},
	},
	{
		// A rewrite changes the command that runs where the tool can
		// rewrite; where it cannot, hookshim blocks the call (the default
		// input_rewrite degradation) rather than run the original.
		name: "rewrite",
		hooks: func(r *runDir) []obj {
			return []obj{handler("rewrite", "before_tool_execute", 0, "rewrite", "touch rewritten.txt")}
		},
		check: func(t *testing.T, res *result, pr *provider.Provider) {
			spec := preSpec(t, res, pr)
			if spec == nil {
				return
			}
			if spec.Can.Has(provider.CanRewrite) {
				expectRan(t, res, "rewritten.txt")
				if res.exists("marker.txt") {
					t.Errorf("the original command ran too (marker.txt exists)")
				}
				return
			}
			expectBlocked(t, res, "cannot rewrite")
			if res.exists("rewritten.txt") {
				t.Errorf("the rewritten command ran although hookshim says %s cannot rewrite", spec.Native)
			}
		},
	},
	{
		// A prompt handler: a second mock model, the judge, reads the
		// event (the envelope in the prompt) and denies the shell call;
		// hookshim-remote asks it, hookshim answers the client.
		name: "prompt-judge",
		hooks: func(r *runDir) []obj {
			judge, err := mockmodel.Start(mockmodel.Options{Lifetime: r.c.timeout + 30e9,
				Text: fmt.Sprintf("```json\n{\"decision\": \"deny\", \"reason\": %q}\n```", tokJudge)})
			if err != nil {
				panic(err)
			}
			r.judge = judge
			return []obj{{"name": "judge", "event": "before_tool_execute", "matcher": "shell",
				"handler": obj{"type": "prompt", "prompt": "Deny every shell command. The event: $ARGUMENTS",
					"base_url": judge.URL + "/v1", "model": "judge-model", "timeout": 20}}}
		},
		check: func(t *testing.T, res *result, pr *provider.Provider) {
			expectBlocked(t, res, tokJudge)
			asked := false
			for _, q := range res.r.judge.Requests() {
				if q.Path == "/v1/chat/completions" && strings.Contains(string(q.Body), "touch marker.txt") &&
					strings.Contains(string(q.Body), "judge-model") {
					asked = true
				}
			}
			if !asked {
				t.Errorf("the judge was not asked about the shell call (requests: %d)", len(res.r.judge.Requests()))
			}
		},
	},
	{
		// Handlers that crash, hang or print garbage leave the tool
		// working: fail-open, never an accidental block.
		name: "fail-open",
		hooks: func(r *runDir) []obj {
			return append(faulty(), handler("crash-everywhere", "*", 0, "exit", "3"))
		},
		check: func(t *testing.T, res *result, pr *provider.Provider) {
			expectRan(t, res, "marker.txt")
			expectHandlerErrors(t, res, 3)
		},
	},
	{
		// The same handlers with "on_error": "deny" block the call.
		name:    "fail-closed",
		onError: "deny",
		hooks:   func(r *runDir) []obj { return faulty() },
		check: func(t *testing.T, res *result, pr *provider.Provider) {
			expectBlocked(t, res, "on_error is deny")
			expectHandlerErrors(t, res, 3)
		},
	},
	{
		// A project config that does not parse cannot be allowed, and one
		// that is not allowed is skipped before it is read: "no opinion",
		// the tool goes on, and every call's log says why nothing ran.
		name: "broken-config",
		raw:  `{"spec": "hooks/0.1", "hooks": [`,
		check: func(t *testing.T, res *result, pr *provider.Provider) {
			expectRan(t, res, "marker.txt")
			for _, c := range res.calls {
				if c.Canonical() && !mentions(c.Notes, ".openhook.json is not allowed: its hooks do not run") {
					t.Errorf("%s: hookshim's log does not say the config was left out: %s", c.NativeEvent, c.raw)
				}
			}
		},
	},
	{
		// A deny on the prompt stops it before any model request.
		name:     "prompt-deny",
		optional: true,
		hooks: func(r *runDir) []obj {
			return []obj{handler("closed", "before_prompt", 0, "stdout", fmt.Sprintf(`{"decision": "deny", "reason": %q}`, tokDeny))}
		},
		check: func(t *testing.T, res *result, pr *provider.Provider) {
			if n := len(res.requests); n != 0 {
				t.Errorf("the model was called %d times after a blocked prompt", n)
			}
		},
	},
	{
		// An allow on the prompt with a message for the user, and context
		// on a tool call that cannot carry it: nothing reaches the model.
		name:     "prompt-allow",
		optional: true,
		hooks: func(r *runDir) []obj {
			return []obj{
				handler("allow-prompt", "before_prompt", 0, "stdout", fmt.Sprintf(`{"decision": "allow", "system_message": %q}`, tokIgnore)),
				handler("context-tool", "before_tool_execute", 0, "stdout", fmt.Sprintf(`{"context": %q}`, tokIgnore)),
			}
		},
		check: func(t *testing.T, res *result, pr *provider.Provider) {
			expectClean(t, res)
			if res.reached(tokIgnore, 0) {
				t.Errorf("an allowed prompt put text into the conversation")
			}
		},
	},
	{
		// A deny when the agent stops: the reason reaches the model, which
		// is called once more.
		name:     "stop-deny",
		optional: true,
		hooks: func(r *runDir) []obj {
			return []obj{handler("not-yet", "agent_stop", 0, "stdout", fmt.Sprintf(`{"decision": "deny", "reason": %q}`, tokStop))}
		},
		check: func(t *testing.T, res *result, pr *provider.Provider) {
			if !res.reached(tokStop, 0) {
				t.Errorf("the stop reason did not reach the model")
			}
		},
	},
	{
		// A hook written for Claude Code, run unchanged as a dialect
		// handler inside another client: it reads Claude's PreToolUse
		// payload (Bash, tool_input.command) and CLAUDE_PROJECT_DIR, answers
		// with Claude's hookSpecificOutput deny, and the client blocks the
		// call with the reason.
		name:     "dialect-deny",
		optional: true,
		hooks: func(r *runDir) []obj {
			script := filepath.Join(r.root, "claude-guard.sh")
			body := "#!/bin/sh\n" +
				"# Claude Code PreToolUse hook: deny the marker command.\n" +
				"input=$(cat)\n" +
				"printf '%s\\n' \"$input\" >> " + shellQuote(claudeSeen(r)) + "\n" +
				"printf '%s\\n' \"$CLAUDE_PROJECT_DIR\" >> " + shellQuote(claudeSeen(r)+".env") + "\n" +
				"case \"$input\" in\n" +
				"  *'\"hook_event_name\":\"PreToolUse\"'*'\"tool_name\":\"Bash\"'*'touch marker.txt'*)\n" +
				"    printf '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"%s\"}}\\n' " + tokDeny + " ;;\n" +
				"esac\n"
			if err := r.write(script, body); err != nil || os.Chmod(script, 0o755) != nil {
				panic(fmt.Sprintf("writing %s: %v", script, err))
			}
			return []obj{{"name": "claude-guard", "event": "before_tool_execute", "matcher": "shell",
				"handler": obj{"type": "command", "command": shellQuote(script), "dialect": "claude-code"}}}
		},
		check: func(t *testing.T, res *result, pr *provider.Provider) {
			expectBlocked(t, res, tokDeny)
			seen, _ := os.ReadFile(claudeSeen(res.r))
			if !strings.Contains(string(seen), `"hook_event_name":"PreToolUse"`) || !strings.Contains(string(seen), `"tool_name":"Bash"`) {
				t.Errorf("the Claude hook was not given Claude's PreToolUse payload: %s", seen)
			}
			env, _ := os.ReadFile(claudeSeen(res.r) + ".env")
			if !strings.Contains(string(env), res.r.proj) {
				t.Errorf("the Claude hook's CLAUDE_PROJECT_DIR is not the project (%s): %q", res.r.proj, env)
			}
		},
	},
	{
		// hookshim registered, no policy but the recording handler: the run
		// is what it would be without hookshim, and the client sends the
		// events it always sends.
		name:     "no-policy",
		optional: true,
		hooks:    func(r *runDir) []obj { return nil },
		check: func(t *testing.T, res *result, pr *provider.Provider) {
			expectClean(t, res)
			sent := map[string]bool{}
			for _, c := range res.calls {
				sent[c.NativeEvent] = true
			}
			for _, ev := range res.r.c.fires {
				if !sent[ev] {
					t.Errorf("%s was not sent (sent: %v)", ev, sent)
				}
			}
		},
	},
}

// claudeSeen is where the dialect-deny scenario's Claude hook keeps the
// payloads it was given.
func claudeSeen(r *runDir) string { return filepath.Join(r.root, "claude-payloads.jsonl") }

// Canonical reports whether hookshim would run handlers for the call.
func (c call) Canonical() bool { return c.Event != "" }

func mentions(list []string, s string) bool {
	for _, x := range list {
		if strings.Contains(x, s) {
			return true
		}
	}
	return false
}

func degradedContext(calls []call) bool { return degradedTo(calls, "context cannot reach the model") }

func degradedTo(calls []call, s string) bool {
	for _, c := range calls {
		if mentions(c.Degraded, s) {
			return true
		}
	}
	return false
}

// preSpec is the native event the client used for before_tool_execute.
func preSpec(t *testing.T, res *result, pr *provider.Provider) *provider.Spec {
	calls := res.callsFor("before_tool_execute")
	if len(calls) == 0 {
		t.Errorf("the client sent no event that hookshim maps to before_tool_execute")
		return nil
	}
	return pr.Spec(calls[0].NativeEvent)
}

// expectClean: the client finished its work and exited 0.
func expectClean(t *testing.T, res *result) {
	t.Helper()
	if res.exit != 0 || !res.exists("marker.txt") {
		t.Errorf("the run did not complete (exit %d, marker.txt %v)", res.exit, res.exists("marker.txt"))
	}
}

func expectRan(t *testing.T, res *result, file string) {
	t.Helper()
	if !res.exists(file) {
		t.Errorf("the shell call did not run: %s does not exist", file)
	}
}

// expectBlocked: the call did not run, and the reason (or a part of it)
// reached the model after it asked for the call; in a client where a
// block ends the run, the model was not called again and the reason is in
// hookshim's log.
func expectBlocked(t *testing.T, res *result, reason string) {
	t.Helper()
	if res.exists("marker.txt") {
		t.Errorf("the shell call ran (marker.txt exists) although it should have been blocked")
	}
	at := res.firstToolCall()
	if at == 0 {
		t.Errorf("the model never got to ask for the shell call")
		return
	}
	if res.r.c.denyEndsRun {
		for _, q := range res.requests {
			if q.Seq > at {
				t.Errorf("the model was called again (request #%d) after a block that ends the run", q.Seq)
			}
		}
		if !slices.ContainsFunc(res.callsFor("before_tool_execute"), func(c call) bool { return strings.Contains(c.Reason, reason) }) {
			t.Errorf("the block reason (%q) is not in hookshim's log", reason)
		}
		return
	}
	if !res.reached(reason, at) {
		t.Errorf("the block reason (%q) reached the model in no request after #%d", reason, at)
	}
}

func expectHandlerErrors(t *testing.T, res *result, n int) {
	t.Helper()
	for _, c := range res.callsFor("before_tool_execute") {
		errs := 0
		for _, e := range c.HandlerErrors {
			if strings.HasPrefix(e, "crash:") || strings.HasPrefix(e, "hang:") || strings.HasPrefix(e, "garbage:") {
				errs++
			}
		}
		if errs != n {
			t.Errorf("hookshim logged %d of the %d failing handlers on %s: %v", errs, n, c.NativeEvent, c.HandlerErrors)
		}
	}
}

// testClient installs the client and runs in it every shared scenario and
// its extra ones.
func testClient(t *testing.T, c *client) {
	var runs []scenario
	for _, sc := range scenarios {
		if !sc.optional || slices.Contains(c.extra, sc.name) {
			runs = append(runs, sc)
		}
	}
	// A misspelt name would drop checks silently.
	for _, name := range append(slices.Collect(maps.Keys(c.expect)), c.extra...) {
		if !slices.ContainsFunc(runs, func(sc scenario) bool { return sc.name == name }) {
			t.Fatalf("the %s client names scenario %q, which it does not run", c.name, name)
		}
	}
	bin, err := installPinned(c.name)
	if err != nil {
		skipOrFail(t, c, err)
		return
	}
	node, err := exec.LookPath("node")
	if n := pinned[c.name].Node; n != "" {
		node, err = installPinned(n)
	}
	if err != nil {
		skipOrFail(t, c, err)
		return
	}
	pr := provider.Lookup(c.provider)
	if pr == nil {
		t.Fatalf("this hookshim has no provider %q: the %s client cannot be tested", c.provider, c.name)
	}
	var mu sync.Mutex
	var seen []payload
	t.Run("scenarios", func(t *testing.T) {
		for _, sc := range runs {
			t.Run(sc.name, func(t *testing.T) {
				t.Parallel()
				got := runScenario(t, c, sc, pr, bin, node)
				mu.Lock()
				seen = append(seen, got...)
				mu.Unlock()
			})
		}
	})
	if !t.Failed() || len(seen) > 0 {
		recordPayloads(t, c, pr, seen)
	}
}

// runScenario runs the client once under a scenario's policy and checks the
// outcome; it returns the native payloads hookshim received.
func runScenario(t *testing.T, c *client, sc scenario, pr *provider.Provider, bin, node string) []payload {
	r := newRunDir(t, c, sc.name)
	r.bin, r.node = bin, node
	mock, err := mockmodel.Start(mockmodel.Options{Log: filepath.Join(r.root, "mock.jsonl"), Lifetime: c.timeout + 30e9, TextDelay: c.textDelay})
	if err != nil {
		t.Fatal(err)
	}
	r.mock = mock
	defer mock.Close()
	defer func() {
		if r.judge != nil {
			r.judge.Close()
		}
	}()
	var setup strings.Builder
	if c.configure != nil {
		if err := c.configure(r); err != nil {
			t.Fatal(err)
		}
	}
	out, err := registerHooks(r)
	setup.WriteString(out)
	if err != nil {
		t.Fatalf("registering hookshim: %v\n%s", err, out)
	}
	cfgPath := filepath.Join(r.proj, ".openhook.json")
	if sc.raw != "" {
		err = r.write(cfgPath, sc.raw)
	} else {
		hooks := append([]obj{handler("record", "*", 0, "record", r.recFile)}, sc.hooks(r)...)
		doc := obj{"spec": "hooks/0.1", "hooks": hooks}
		if sc.onError != "" {
			doc["on_error"] = sc.onError
		}
		err = r.write(cfgPath, jsonFile(doc))
	}
	if err != nil {
		t.Fatal(err)
	}
	if sc.raw == "" {
		out, err := r.hookshim("allow", cfgPath)
		setup.WriteString(out)
		if err != nil {
			t.Fatalf("hookshim allow: %v\n%s", err, out)
		}
	}
	res := r.launch(t)
	res.setupLog = setup.String()
	t.Logf("%s %s: exit %d in %s, %d model requests, %d hookshim calls", c.name, sc.name, res.exit, res.took.Round(1e6), len(res.requests), len(res.calls))

	if res.timedOut {
		t.Errorf("the client did not finish within %s", c.timeout)
	}
	if res.traced && res.loopback == 0 && len(res.requests) > 0 {
		t.Errorf("the network trace saw no connection to the mock model although it was called: the trace is not working")
	}
	for _, n := range res.network {
		t.Errorf("the client reached beyond 127.0.0.1: %s", n)
	}
	for _, p := range res.leftover {
		t.Errorf("the client left a process running (killed): %s", p)
	}
	timings.add(c.name, sc.name, res)
	checkCalls(t, res, pr)
	sc.check(t, res, pr)
	if expect := c.expect[sc.name]; expect != nil {
		expect(t, res)
	}
	if t.Failed() {
		t.Log("\n" + res.dump())
		t.Logf("run folder kept: %s", r.root)
	} else if os.Getenv("HOOKSHIM_E2E_KEEP") == "1" {
		t.Logf("run folder kept: %s", r.root)
	} else {
		_ = os.RemoveAll(r.root)
	}
	return res.payloads
}

// checkCalls holds every hookshim call of a run to what hookshim promises:
// the payload is recognised as the client's own, the shell call is
// normalized to the canonical shell tool with its command, and nothing
// went wrong inside hookshim.
func checkCalls(t *testing.T, res *result, pr *provider.Provider) {
	t.Helper()
	if len(res.calls) == 0 {
		t.Errorf("hookshim was never called: the registration did not take")
		return
	}
	for _, c := range res.calls {
		if c.Provider != pr.ID {
			t.Errorf("%s payload detected as %q, not %s: %s", c.NativeEvent, c.Provider, pr.ID, c.raw)
		}
		if c.Detection.Overruled {
			t.Errorf("%s: the payload overruled --provider %s: %s", c.NativeEvent, c.ProviderHint, c.raw)
		}
		if res.r.scenario != "broken-config" && len(c.Problems) > 0 {
			t.Errorf("%s: hookshim reported problems: %v", c.NativeEvent, c.Problems)
		}
	}
	for _, p := range res.payloads {
		if p.Source != pr.ID {
			t.Errorf("a handler got an envelope from %q, not %s", p.Source, pr.ID)
		}
		switch p.Event {
		case "before_tool_execute", "after_tool_execute":
			if name := p.Data.Get("tool_name").Str; name != "shell" {
				t.Errorf("%s: the shell call is normalized as tool %q, not shell: %s", p.Native, name, p.Data.Raw)
			} else if cmd := p.Data.Get("command").Str; cmd != "touch marker.txt" && cmd != "touch rewritten.txt" {
				t.Errorf("%s: data.command is %q, not the command the model asked for: %s", p.Native, cmd, p.Data.Raw)
			}
		case "before_prompt":
			// Qwen Code sends a second, empty prompt after a tool result;
			// Gemini CLI puts SessionStart context in front of the prompt.
			if got := p.Data.Get("prompt").Str; !strings.Contains(got, prompt) && got != "" {
				t.Errorf("%s: data.prompt is %q, not the prompt given", p.Native, got)
			}
		}
	}
}

// skipOrFail: a client that cannot be installed skips loudly, except in CI
// and while recording payloads (make e2e-bump), where it fails; either way
// the drift report says so, so that no client drops out of it unnoticed.
func skipOrFail(t *testing.T, c *client, err error) {
	t.Helper()
	p := pinned[c.name]
	first, _, _ := strings.Cut(err.Error(), "\n")
	appendDrift(fmt.Sprintf("## %s %s (%s)\n\nNOT RUN: cannot install it: %s\n\n", p.Package, p.Version, c.provider, first))
	if os.Getenv("CI") == "true" || os.Getenv("HOOKSHIM_E2E_RECORD") != "" {
		t.Fatalf("cannot install: %v", err)
	}
	fmt.Fprintf(os.Stderr, "\n!!! e2e: %s SKIPPED: cannot install it: %v\n\n", t.Name(), err)
	t.Skipf("SKIPPED, cannot install: %v", err)
}
