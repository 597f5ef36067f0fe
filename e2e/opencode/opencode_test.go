// Package opencode checks hookshim's OpenCode plugin bridge inside the real
// OpenCode.
//
// The test writes the bridge plugin (provider.OpenCodePlugin) into a
// throwaway project's .opencode/plugin/, points OpenCode at the mock model
// on 127.0.0.1, runs `opencode run` headless, and reads the outcome from the
// project (did the shell command run?) and from the requests the mock model
// received (did the reason or the context reach the model?). Every bridge
// payload is recorded on the way to hookshim.
//
// It runs only when HOOKSHIM_E2E_OPENCODE names an opencode executable
// (run.sh installs the pinned version from npm and sets it).
//
// Environment:
//
//	HOOKSHIM_E2E_OPENCODE   the opencode executable (required; else skipped)
//	HOOKSHIM_BIN            the hookshim to test (default: built from this tree)
//	HOOKSHIM_E2E_RECORD_DIR where to copy the recorded bridge payloads
//	HOOKSHIM_E2E_KEEP=1     keep each run's folder (printed)
package opencode

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookshim/hookshim/e2e/mockmodel"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/tidwall/gjson"
)

// Planted texts: each appears only in a policy's answer, so finding one in
// a request the model received proves that channel reached the model.
const (
	tokDeny       = "HSE2E_OC_DENY_7Q"
	tokPromptCtx  = "HSE2E_OC_PROMPT_CTX_3K"
	tokSessionCtx = "HSE2E_OC_SESSION_CTX_9M"
	tokAfterCtx   = "HSE2E_OC_AFTER_CTX_5T"
)

var opencodeBin, hookshimBin string

func TestMain(m *testing.M) {
	opencodeBin = os.Getenv("HOOKSHIM_E2E_OPENCODE")
	if opencodeBin == "" {
		fmt.Println("e2e/opencode: skipped (set HOOKSHIM_E2E_OPENCODE, or run e2e/opencode/run.sh)")
		os.Exit(0)
	}
	hookshimBin = os.Getenv("HOOKSHIM_BIN")
	cleanup := func() {}
	if hookshimBin == "" {
		dir, err := os.MkdirTemp("", "hse2e-oc-bin-")
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		cleanup = func() { os.RemoveAll(dir) }
		hookshimBin = filepath.Join(dir, "hookshim")
		build := exec.Command("go", "build", "-o", hookshimBin, "./cmd/hookshim")
		build.Dir = filepath.Join("..", "..")
		build.Stdout, build.Stderr = os.Stdout, os.Stderr
		if err := build.Run(); err != nil {
			fmt.Println("e2e/opencode: building hookshim:", err)
			cleanup()
			os.Exit(1)
		}
	}
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// world is one run's throwaway HOME and project.
type world struct {
	t       *testing.T
	root    string
	home    string
	proj    string
	mock    *mockmodel.Server
	payload string // bridge payloads, one JSON document per line
}

func newWorld(t *testing.T, policy string) *world {
	t.Helper()
	root, err := os.MkdirTemp("", "hse2e-oc-"+t.Name()+"-")
	if err != nil {
		t.Fatal(err)
	}
	root, _ = filepath.EvalSymlinks(root)
	if os.Getenv("HOOKSHIM_E2E_KEEP") == "1" {
		t.Logf("run folder kept: %s", root)
	} else {
		t.Cleanup(func() { os.RemoveAll(root) })
	}
	w := &world{t: t, root: root, home: filepath.Join(root, "home"), proj: filepath.Join(root, "proj"),
		payload: filepath.Join(root, "bridge-payloads.jsonl")}
	w.mock, err = mockmodel.Start(mockmodel.Options{Command: "touch marker.txt", Lifetime: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.mock.Close)

	// The plugin runs a small recorder in front of hookshim, so that the
	// fixtures can be refreshed from what the bridge really sends.
	rec := filepath.Join(root, "bridge.sh")
	w.write(rec, fmt.Sprintf("#!/bin/sh\np=$(cat)\nprintf '%%s\\n' \"$p\" >> %s\nprintf '%%s' \"$p\" | %s run --provider opencode\n",
		shq(w.payload), shq(hookshimBin)), 0o755)
	w.write(filepath.Join(w.proj, ".opencode", "plugin", "hookshim.js"), string(provider.OpenCodePlugin(rec)), 0o644)
	cfg := map[string]any{
		"$schema": "https://opencode.ai/config.json",
		"provider": map[string]any{"mock": map[string]any{
			"npm":     "@ai-sdk/openai-compatible",
			"name":    "Mock",
			"options": map[string]any{"baseURL": w.mock.URL + "/v1", "apiKey": "dummy"},
			"models":  map[string]any{"mock-model": map[string]any{"name": "Mock Model", "tool_call": true}},
		}},
		"model":       "mock/mock-model",
		"small_model": "mock/mock-model",
		"autoupdate":  false,
		"share":       "disabled",
		"permission":  map[string]any{"bash": "allow", "edit": "allow"},
	}
	b, _ := json.MarshalIndent(cfg, "", "  ")
	w.write(filepath.Join(w.proj, "opencode.json"), string(b), 0o644)
	w.write(filepath.Join(w.proj, ".openhook.json"), policy, 0o644)
	for _, d := range []string{".config", ".local/share", ".cache", ".local/state"} {
		if err := os.MkdirAll(filepath.Join(w.home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func (w *world) write(path, body string, mode os.FileMode) {
	w.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), mode); err != nil {
		w.t.Fatal(err)
	}
}

// run runs `opencode run` once, bounded, with telemetry, updates, sharing,
// model catalog fetches and the startup npm install switched off.
func (w *world) run(prompt string) (stdout, stderr string) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, opencodeBin, "run", "--format", "json", "--print-logs", "-m", "mock/mock-model", prompt)
	cmd.Dir = w.proj
	cmd.Env = append(cleanEnv(),
		"HOME="+w.home,
		"XDG_CONFIG_HOME="+filepath.Join(w.home, ".config"),
		"XDG_DATA_HOME="+filepath.Join(w.home, ".local/share"),
		"XDG_CACHE_HOME="+filepath.Join(w.home, ".cache"),
		"XDG_STATE_HOME="+filepath.Join(w.home, ".local/state"),
		"OPENCODE_DISABLE_AUTOUPDATE=1",
		"OPENCODE_DISABLE_LSP_DOWNLOAD=1",
		"OPENCODE_DISABLE_DEFAULT_PLUGINS=1",
		"OPENCODE_DISABLE_MODELS_FETCH=1",
		"OPENCODE_DISABLE_SHARE=1",
		"OPENCODE_DISABLE_CLAUDE_CODE=1",
		"OPENCODE_DISABLE_TERMINAL_TITLE=1",
		"npm_config_offline=true",
		"HOOKSHIM_TRUST_ALL=1",
		"HOOKSHIM_LOG="+filepath.Join(w.root, "hookshim.log"),
	)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		w.t.Fatalf("opencode did not finish in time\nstderr:\n%s", tail(errb.String()))
	}
	_ = err // a blocked prompt exits 1; the scenarios read the outcome
	w.recordPayloads()
	return out.String(), errb.String()
}

// cleanEnv is the caller's environment without variables that would point
// OpenCode or hookshim elsewhere.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "OPENCODE") || strings.HasPrefix(k, "HOOKSHIM") || strings.HasPrefix(k, "XDG_") || k == "PWD" {
			continue
		}
		env = append(env, kv)
	}
	return env
}

func (w *world) exists(name string) bool {
	_, err := os.Stat(filepath.Join(w.proj, name))
	return err == nil
}

// seen reports whether any request the model received carries text.
func (w *world) seen(text string) bool {
	for _, r := range w.mock.Requests() {
		if bytes.Contains(r.Body, []byte(text)) || strings.Contains(r.Raw, text) {
			return true
		}
	}
	return false
}

// toolResult is the content of the tool message the model received for the
// shell call, or "".
func (w *world) toolResult() string {
	for _, r := range w.mock.Requests() {
		for _, m := range gjson.GetBytes(r.Body, "messages").Array() {
			if m.Get("role").Str == "tool" {
				return m.Get("content").String()
			}
		}
	}
	return ""
}

// payloads returns the recorded bridge payloads.
func (w *world) payloads() []gjson.Result {
	f, err := os.Open(w.payload)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []gjson.Result
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			out = append(out, gjson.Parse(line))
		}
	}
	return out
}

// recordPayloads copies the bridge payloads to HOOKSHIM_E2E_RECORD_DIR.
func (w *world) recordPayloads() {
	dir := os.Getenv("HOOKSHIM_E2E_RECORD_DIR")
	if dir == "" {
		return
	}
	b, err := os.ReadFile(w.payload)
	if err != nil {
		return
	}
	name := strings.NewReplacer("/", "_", " ", "_").Replace(w.t.Name()) + ".jsonl"
	_ = os.MkdirAll(dir, 0o755)
	_ = os.WriteFile(filepath.Join(dir, name), b, 0o644)
}

func (w *world) hooks() map[string]int {
	seen := map[string]int{}
	for _, p := range w.payloads() {
		name := p.Get("hook").Str
		if name == "event" {
			name = p.Get("event.type").Str
		}
		seen[name]++
	}
	return seen
}

func (w *world) explain(stderr string) string {
	log, _ := os.ReadFile(filepath.Join(w.root, "hookshim.log"))
	return fmt.Sprintf("bridge calls: %v\nhookshim log:\n%s\nopencode stderr (tail):\n%s\nmodel requests:\n%s",
		w.hooks(), tail(string(log)), tail(stderr), tail(w.mock.Transcript()))
}

// policy is an .openhook.json whose handlers are shell one-liners.
func policy(hooks ...string) string {
	return `{"spec": "hooks/0.1", "hooks": [` + strings.Join(hooks, ",\n") + `]}`
}

func handler(name, event, matcher, answer string) string {
	m := ""
	if matcher != "" {
		m = fmt.Sprintf(`"matcher": %q, `, matcher)
	}
	cmd := "cat >/dev/null; printf '%s' " + shq(answer)
	return fmt.Sprintf(`{"name": %q, "event": %q, %s"handler": {"type": "command", "command": %q}}`, name, event, m, cmd)
}

// TestDenyBlocksShell: a deny on the shell call is a throw in
// tool.execute.before; the command does not run and the reason is the tool
// result the model reads.
func TestDenyBlocksShell(t *testing.T) {
	w := newWorld(t, policy(handler("no-touch", "before_tool_execute", "shell",
		`{"decision":"deny","reason":"`+tokDeny+` touching files is not allowed"}`)))
	_, stderr := w.run("create the marker file")
	if w.exists("marker.txt") {
		t.Fatalf("the denied command ran\n%s", w.explain(stderr))
	}
	if got := w.toolResult(); !strings.Contains(got, tokDeny) {
		t.Fatalf("the model did not get the reason as the tool result (got %q)\n%s", got, w.explain(stderr))
	}
	before := 0
	for _, p := range w.payloads() {
		if p.Get("hook").Str == "tool.execute.before" {
			before++
			if p.Get("input.tool").Str != "bash" || p.Get("output.args.command").Str != "touch marker.txt" {
				t.Errorf("unexpected tool.execute.before payload: %s", p.Raw)
			}
		}
		if p.Get("hookshim_bridge").Str != "opencode-plugin" || p.Get("bridge_version").Int() != 1 {
			t.Errorf("payload without the bridge markers: %s", p.Raw)
		}
	}
	if before != 1 {
		t.Fatalf("tool.execute.before forwarded %d times, want 1\n%s", before, w.explain(stderr))
	}
}

// TestRewriteRunsPolicyCommand: a rewrite is merge_args; the policy's
// command runs instead of the model's.
func TestRewriteRunsPolicyCommand(t *testing.T) {
	w := newWorld(t, policy(handler("sandbox", "before_tool_execute", "shell",
		`{"updated_input":{"command":"touch rewritten.txt"}}`)))
	_, stderr := w.run("create the marker file")
	if w.exists("marker.txt") || !w.exists("rewritten.txt") {
		t.Fatalf("rewrite not applied (marker.txt %v, rewritten.txt %v)\n%s", w.exists("marker.txt"), w.exists("rewritten.txt"), w.explain(stderr))
	}
}

// TestContextReachesModel: context on session start and on the prompt goes
// to the system prompt of every later request; context after a tool is
// appended to its result.
func TestContextReachesModel(t *testing.T) {
	w := newWorld(t, policy(
		handler("start", "session_start", "", `{"context":"`+tokSessionCtx+`"}`),
		handler("prompt", "before_prompt", "", `{"context":"`+tokPromptCtx+`"}`),
		handler("after", "after_tool_execute", "shell", `{"context":"`+tokAfterCtx+`"}`),
	))
	_, stderr := w.run("create the marker file")
	if !w.exists("marker.txt") {
		t.Fatalf("the command did not run\n%s", w.explain(stderr))
	}
	for _, tok := range []string{tokSessionCtx, tokPromptCtx} {
		if !w.seen(tok) {
			t.Errorf("context %s did not reach the model", tok)
		}
	}
	if got := w.toolResult(); !strings.Contains(got, tokAfterCtx) {
		t.Errorf("after-tool context not in the tool result (got %q)", got)
	}
	if t.Failed() {
		t.Log(w.explain(stderr))
	}
}

// TestPromptBlocked: a deny on the prompt is a throw in chat.message: no
// model request is made at all.
func TestPromptBlocked(t *testing.T) {
	w := newWorld(t, policy(handler("no-prompts", "before_prompt", "",
		`{"decision":"deny","reason":"`+tokDeny+` prompts are closed"}`)))
	_, stderr := w.run("create the marker file")
	if n := len(w.mock.Requests()); n != 0 {
		t.Fatalf("the model was called %d times after a blocked prompt\n%s", n, w.explain(stderr))
	}
	if !strings.Contains(stderr, tokDeny) {
		t.Errorf("the reason is not in OpenCode's log\n%s", w.explain(stderr))
	}
}

// TestNoPolicyNoEffect: with hookshim registered but no handler, the run is
// what it would be without hookshim.
func TestNoPolicyNoEffect(t *testing.T) {
	w := newWorld(t, policy())
	_, stderr := w.run("create the marker file")
	if !w.exists("marker.txt") {
		t.Fatalf("the command did not run\n%s", w.explain(stderr))
	}
	hooks := w.hooks()
	for _, h := range []string{"session.created", "chat.message", "tool.execute.before", "tool.execute.after", "experimental.chat.system.transform", "session.idle"} {
		if hooks[h] == 0 {
			t.Errorf("%s was not forwarded (forwarded: %v)", h, hooks)
		}
	}
}

func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func tail(s string) string {
	const max = 6000
	if len(s) > max {
		return "…" + s[len(s)-max:]
	}
	return s
}
