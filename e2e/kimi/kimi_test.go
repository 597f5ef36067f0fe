// Package kimi checks hookshim inside the real Kimi Code CLI.
//
// The test registers hookshim for Kimi Code's events in a throwaway
// $KIMI_CODE_HOME/config.toml (Kimi Code has no project-level hook file),
// points Kimi Code at the mock model on 127.0.0.1 through its KIMI_MODEL_*
// variables, runs `kimi -p` headless, and reads the outcome from the project
// (did the shell command run?) and from the requests the mock model received
// (did the reason or the context reach the model?). Every payload is
// recorded on its way to hookshim.
//
// It runs only when HOOKSHIM_E2E_KIMI names Kimi Code's entry script
// (dist/main.mjs of @moonshot-ai/kimi-code) and HOOKSHIM_E2E_NODE a Node.js
// of at least 22.19; run.sh installs both from npm and sets them.
//
// Environment:
//
//	HOOKSHIM_E2E_KIMI       Kimi Code's dist/main.mjs (required; else skipped)
//	HOOKSHIM_E2E_NODE       node >= 22.19 (default: node in PATH)
//	HOOKSHIM_BIN            the hookshim to test (default: built from this tree)
//	HOOKSHIM_E2E_RECORD_DIR where to copy the recorded payloads
//	HOOKSHIM_E2E_KEEP=1     keep each run's folder (printed)
package kimi

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookshim/hookshim/e2e/mockmodel"
	"github.com/tidwall/gjson"
)

// Planted texts: each appears only in a policy's answer.
const (
	tokDeny   = "HSE2E_KIMI_DENY_4W"
	tokCtx    = "HSE2E_KIMI_PROMPT_CTX_8J"
	tokStop   = "HSE2E_KIMI_STOP_2P"
	tokIgnore = "HSE2E_KIMI_IGNORED_6N"
)

// events registered, as `hookshim install` would.
var events = []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure", "Stop"}

var kimiScript, nodeBin, hookshimBin string

func TestMain(m *testing.M) {
	kimiScript = os.Getenv("HOOKSHIM_E2E_KIMI")
	if kimiScript == "" {
		fmt.Println("e2e/kimi: skipped (set HOOKSHIM_E2E_KIMI and HOOKSHIM_E2E_NODE, or run e2e/kimi/run.sh)")
		os.Exit(0)
	}
	nodeBin = os.Getenv("HOOKSHIM_E2E_NODE")
	if nodeBin == "" {
		nodeBin = "node"
	}
	hookshimBin = os.Getenv("HOOKSHIM_BIN")
	cleanup := func() {}
	if hookshimBin == "" {
		dir, err := os.MkdirTemp("", "hse2e-kimi-bin-")
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
			fmt.Println("e2e/kimi: building hookshim:", err)
			cleanup()
			os.Exit(1)
		}
	}
	code := m.Run()
	cleanup()
	os.Exit(code)
}

type world struct {
	t       *testing.T
	root    string
	home    string // KIMI_CODE_HOME
	proj    string
	mock    *mockmodel.Server
	payload string
}

func newWorld(t *testing.T, policy string) *world {
	t.Helper()
	root, err := os.MkdirTemp("", "hse2e-kimi-"+t.Name()+"-")
	if err != nil {
		t.Fatal(err)
	}
	root, _ = filepath.EvalSymlinks(root)
	if os.Getenv("HOOKSHIM_E2E_KEEP") == "1" {
		t.Logf("run folder kept: %s", root)
	} else {
		t.Cleanup(func() { os.RemoveAll(root) })
	}
	w := &world{t: t, root: root, home: filepath.Join(root, "kimi-home"), proj: filepath.Join(root, "proj"),
		payload: filepath.Join(root, "payloads.jsonl")}
	w.mock, err = mockmodel.Start(mockmodel.Options{Command: "touch marker.txt", Lifetime: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.mock.Close)

	rec := filepath.Join(root, "hook.sh")
	w.write(rec, fmt.Sprintf("#!/bin/sh\np=$(cat)\nprintf '%%s\\n' \"$p\" >> %s\nprintf '%%s' \"$p\" | exec %s run --provider kimi-code\n",
		shq(w.payload), shq(hookshimBin)), 0o755)
	var cfg strings.Builder
	cfg.WriteString("telemetry = false\n")
	for _, e := range events {
		fmt.Fprintf(&cfg, "\n[[hooks]]\nevent = %q\nmatcher = \"\"\ncommand = %q\ntimeout = 30\n", e, rec)
	}
	w.write(filepath.Join(w.home, "config.toml"), cfg.String(), 0o600)
	w.write(filepath.Join(w.proj, ".openhook.json"), policy, 0o644)
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

// run runs `kimi -p` once, bounded, with telemetry, the update check and the
// model catalog refresh switched off.
func (w *world) run(prompt string) (stdout, stderr string, code int) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nodeBin, kimiScript, "-p", prompt, "--output-format", "stream-json")
	cmd.Dir = w.proj
	cmd.Env = append(cleanEnv(),
		"HOME="+w.root,
		"PWD="+w.proj,
		"KIMI_CODE_HOME="+w.home,
		"KIMI_MODEL_NAME=mock-model",
		"KIMI_MODEL_API_KEY=dummy",
		"KIMI_MODEL_PROVIDER_TYPE=openai",
		"KIMI_MODEL_BASE_URL="+w.mock.URL+"/v1",
		"KIMI_DISABLE_TELEMETRY=1",
		"KIMI_CODE_NO_AUTO_UPDATE=1",
		"KIMI_CODE_MODEL_CATALOG_REFRESH_ON_START=0",
		"HOOKSHIM_TRUST_ALL=1",
		"HOOKSHIM_LOG="+filepath.Join(w.root, "hookshim.log"),
	)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		w.t.Fatalf("kimi did not finish in time\nstderr:\n%s", tail(errb.String()))
	}
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		w.t.Fatalf("running kimi: %v", err)
	}
	w.recordPayloads()
	return out.String(), errb.String(), code
}

func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "KIMI") || strings.HasPrefix(k, "HOOKSHIM") || k == "PWD" {
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

func (w *world) seen(text string) bool {
	for _, r := range w.mock.Requests() {
		if bytes.Contains(r.Body, []byte(text)) || strings.Contains(r.Raw, text) {
			return true
		}
	}
	return false
}

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

func (w *world) recordPayloads() {
	dir := os.Getenv("HOOKSHIM_E2E_RECORD_DIR")
	if dir == "" {
		return
	}
	b, err := os.ReadFile(w.payload)
	if err != nil {
		return
	}
	_ = os.MkdirAll(dir, 0o755)
	_ = os.WriteFile(filepath.Join(dir, w.t.Name()+".jsonl"), b, 0o644)
}

func (w *world) explain(stdout, stderr string) string {
	var events []string
	for _, p := range w.payloads() {
		events = append(events, p.Get("hook_event_name").Str)
	}
	log, _ := os.ReadFile(filepath.Join(w.root, "hookshim.log"))
	return fmt.Sprintf("events: %v\nhookshim log:\n%s\nkimi stdout:\n%s\nkimi stderr:\n%s\nmodel requests:\n%s",
		events, tail(string(log)), tail(stdout), tail(stderr), tail(w.mock.Transcript()))
}

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

// TestDenyBlocksShell: exit 2 with the reason on stderr blocks the call; the
// reason is the tool result the model reads.
func TestDenyBlocksShell(t *testing.T) {
	w := newWorld(t, policy(handler("no-touch", "before_tool_execute", "shell",
		`{"decision":"deny","reason":"`+tokDeny+` touching files is not allowed"}`)))
	out, errs, _ := w.run("create the marker file")
	if w.exists("marker.txt") {
		t.Fatalf("the denied command ran\n%s", w.explain(out, errs))
	}
	if !w.seen(tokDeny) {
		t.Fatalf("the reason did not reach the model\n%s", w.explain(out, errs))
	}
	var failure bool
	for _, p := range w.payloads() {
		if p.Get("hook_event_name").Str == "PostToolUseFailure" && strings.Contains(p.Get("error.message").Str, tokDeny) {
			failure = true
		}
	}
	if !failure {
		t.Errorf("no PostToolUseFailure carrying the reason\n%s", w.explain(out, errs))
	}
}

// TestAllowedPromptAddsNothing: an allow on UserPromptSubmit prints nothing,
// so nothing is injected into the conversation.
func TestAllowedPromptAddsNothing(t *testing.T) {
	w := newWorld(t, policy(
		handler("allow-prompt", "before_prompt", "", `{"decision":"allow","system_message":"`+tokIgnore+`"}`),
		handler("ctx-tool", "before_tool_execute", "", `{"context":"`+tokIgnore+`"}`),
	))
	out, errs, code := w.run("create the marker file")
	if code != 0 || !w.exists("marker.txt") {
		t.Fatalf("the run did not complete (exit %d)\n%s", code, w.explain(out, errs))
	}
	if w.seen("<hook_result") || w.seen(tokIgnore) {
		t.Fatalf("an allowed prompt injected something into the conversation\n%s", w.explain(out, errs))
	}
}

// TestPromptContext: context on UserPromptSubmit is the "message" field and
// reaches the model.
func TestPromptContext(t *testing.T) {
	w := newWorld(t, policy(handler("ctx", "before_prompt", "", `{"context":"`+tokCtx+`"}`)))
	out, errs, _ := w.run("create the marker file")
	if !w.seen(tokCtx) {
		t.Fatalf("the prompt context did not reach the model\n%s", w.explain(out, errs))
	}
	if !w.exists("marker.txt") {
		t.Errorf("the command did not run\n%s", w.explain(out, errs))
	}
}

// TestPromptBlocked: a deny on UserPromptSubmit means no model request.
func TestPromptBlocked(t *testing.T) {
	w := newWorld(t, policy(handler("closed", "before_prompt", "", `{"decision":"deny","reason":"`+tokDeny+` closed"}`)))
	out, errs, _ := w.run("create the marker file")
	if n := len(w.mock.Requests()); n != 0 {
		t.Fatalf("the model was called %d times after a blocked prompt\n%s", n, w.explain(out, errs))
	}
	if !strings.Contains(out, tokDeny) {
		t.Errorf("the reason is not in Kimi Code's output\n%s", w.explain(out, errs))
	}
}

// TestStopContinues: a deny on Stop is exit 2; the reason becomes a user
// message and the model is called once more.
func TestStopContinues(t *testing.T) {
	w := newWorld(t, policy(handler("not-yet", "agent_stop", "", `{"decision":"deny","reason":"`+tokStop+` run the tests first"}`)))
	out, errs, _ := w.run("create the marker file")
	if !w.seen(tokStop) {
		t.Fatalf("the stop reason did not reach the model\n%s", w.explain(out, errs))
	}
}

// TestNoPolicyNoEffect: hookshim registered, no handler: the run is what it
// would be without hookshim, and every payload is Kimi Code's.
func TestNoPolicyNoEffect(t *testing.T) {
	w := newWorld(t, policy())
	out, errs, code := w.run("create the marker file")
	if code != 0 || !w.exists("marker.txt") {
		t.Fatalf("the run did not complete (exit %d)\n%s", code, w.explain(out, errs))
	}
	if w.seen("<hook_result") {
		t.Fatalf("hookshim's silence was injected\n%s", w.explain(out, errs))
	}
	seen := map[string]bool{}
	for _, p := range w.payloads() {
		seen[p.Get("hook_event_name").Str] = true
		if p.Get("client_type").Str != "kimi_code_cli" {
			t.Errorf("payload without client_type kimi_code_cli: %s", p.Raw)
		}
	}
	for _, e := range []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "Stop"} {
		if !seen[e] {
			t.Errorf("%s did not fire (seen: %v)", e, seen)
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
