package hookshim_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	hookshim "github.com/hookshim/hookshim"
	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/dialect"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/normalize"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// corpusHooks are hooks written the way people write them for their own
// tool (testdata/dialect-hooks: bash and jq, node, python's standard
// library), each registered as `hookshim import` writes a dialect
// handler. COMMAND is the script's path; DIR the corpus folder.
var corpusHooks = []struct {
	file  string
	entry string
}{
	{"block-rm-rf.sh", `{"event":"before_tool_execute","matcher":"Bash","handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"protect-env.py", `{"event":"before_tool_execute","matcher":{"pattern":"^(Edit|MultiEdit|Write)$"},"handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"legacy-approve.sh", `{"event":"before_tool_execute","matcher":"Bash","handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"prompt-context.sh", `{"event":"before_prompt","handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"prompt-secret-guard.py", `{"event":"before_prompt","handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"npm-to-pnpm.js", `{"event":"before_tool_execute","matcher":"Bash","handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"touch-in-tmp.py", `{"event":"before_tool_execute","matcher":"Bash","handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"ask-before-push.sh", `{"event":"before_tool_execute","matcher":"Bash","handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"stay-in-project.sh", `{"event":"before_tool_execute","matcher":{"pattern":"^(Read|Edit|Write)$"},"handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"no-secrets-written.py", `{"event":"before_tool_execute","matcher":{"pattern":"^(Write|Edit|MultiEdit)$"},"handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"plugin-guard.sh", `{"event":"before_tool_execute","matcher":"Bash","handler":{"command":"COMMAND","dialect":"claude-code","env":{"CLAUDE_PLUGIN_ROOT":"DIR"}}}`},
	{"post-edit-context.sh", `{"event":"after_tool_execute","matcher":{"pattern":"^(Edit|MultiEdit|Write)$"},"handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"post-no-print.py", `{"event":"after_tool_execute","matcher":{"pattern":"^(Edit|Write)$"},"handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	// Shell syntax in the command, as Claude Code runs it.
	{"audit-log.sh", `{"event":"after_tool_execute","handler":{"command":"cat | COMMAND","dialect":"claude-code"}}`},
	{"stop-run-tests.sh", `{"event":"agent_stop","handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"stop-transcript.py", `{"event":"agent_stop","handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"stop-notify.js", `{"event":"agent_stop","handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	// No #! line: Claude Code runs it through sh.
	{"session-env.sh", `{"event":"session_start","handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"session-env.js", `{"event":"session_start","handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"gemini-no-sudo.sh", `{"event":"before_tool_execute","matcher":"run_shell_command","handler":{"command":"COMMAND","dialect":"gemini-cli"}}`},
	{"gemini-context.js", `{"event":"before_prompt","handler":{"command":"COMMAND","dialect":"gemini-cli"}}`},
	{"cursor-shell-guard.sh", `{"event":"before_tool_execute","matcher":"shell","handler":{"command":"COMMAND","dialect":"cursor"}}`},
	{"codex-bash-guard.py", `{"event":"before_tool_execute","matcher":"Bash","handler":{"command":"COMMAND","dialect":"codex"}}`},

	// Written after public hooks hookshim had not been measured on (the
	// repository each imitates is named in the script and README.md).
	{"pre-bash-project-script.sh", `{"event":"before_tool_execute","matcher":"Bash","handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"roadmap-stop.sh", `{"event":"agent_stop","handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"stop-log.sh", `{"event":"agent_stop","handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"stop-last-message.sh", `{"event":"agent_stop","handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"session-id-env.sh", `{"event":"session_start","handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"session-id-overwrite.sh", `{"event":"session_start","handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"session-setup-path.sh", `{"event":"session_start","handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	// A command written inline in the settings, as ddlaws0n/claude-config's
	// environment-setup template does: no script file.
	{"session-inline-env", `{"event":"session_start","handler":{"command":"bash -c 'echo \"configuring session\" >&2; if [[ -n \"$CLAUDE_ENV_FILE\" ]]; then echo \"export NODE_ENV=development\" >> \"$CLAUDE_ENV_FILE\"; echo \"export API_BASE=http://localhost:8080\" >> \"$CLAUDE_ENV_FILE\"; fi; exit 0'","timeout":300,"dialect":"claude-code"}}`},
	{"post-tool-notice.sh", `{"event":"after_tool_execute","matcher":{"pattern":"^(Write|Edit)$"},"handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"post-tool-echo.sh", `{"event":"after_tool_execute","matcher":{"pattern":"^(Read|Grep|Glob)$"},"handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"gemini-tool-status.sh", `{"event":"after_tool_execute","handler":{"command":"COMMAND","dialect":"gemini-cli"}}`},
	{"gemini-log-tool.sh", `{"event":"before_tool_execute","matcher":{"pattern":"^(write_file|replace)$"},"handler":{"command":"COMMAND","dialect":"gemini-cli"}}`},
	{"gemini-afteragent-transcript.js", `{"event":"agent_stop","handler":{"command":"COMMAND","dialect":"gemini-cli"}}`},
	{"cursor-block-git.sh", `{"event":"before_tool_execute","matcher":"shell","handler":{"command":"COMMAND","dialect":"cursor"}}`},
	{"cursor-no-reset-hard.sh", `{"event":"before_tool_execute","matcher":"shell","handler":{"command":"COMMAND","dialect":"cursor"}}`},
	{"cursor-session-env.sh", `{"event":"session_start","handler":{"command":"COMMAND","dialect":"cursor"}}`},
	{"grok-no-rm.sh", `{"event":"before_tool_execute","matcher":"run_terminal_command","handler":{"command":"COMMAND","dialect":"grok"}}`},
	{"jan-protect-env.sh", `{"event":"before_tool_execute","matcher":{"pattern":"^(write|edit)$"},"handler":{"command":"COMMAND","dialect":"jan"}}`},
}

// TestDialectHookCorpus runs each hook of testdata/dialect-hooks,
// unchanged, through the real binary under every tool's sample payloads
// of its event, and compares what each tool got, what the handler did and
// what the call said it could not give (degradations, dialect notes) with
// testdata/dialect-hooks/<hook>.golden (-update rewrites them). Where the
// caller hands hooks an env file on the event (Claude Code's
// CLAUDE_ENV_FILE), the exports that reach it are in the golden too.
func TestDialectHookCorpus(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the hooks are Unix scripts")
	}
	if testing.Short() {
		t.Skip("hundreds of interpreters started: not with -short")
	}
	for _, tool := range []string{"bash", "jq", "python3", "node", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: the hooks are written in it", tool)
		}
	}
	pinPython(t)
	bin := filepath.Join(t.TempDir(), "hookshim")
	out, err := exec.Command("go", "build", "-o", bin, "./cmd/hookshim").CombinedOutput()
	require.NoError(t, err, "%s", out)
	dir, err := filepath.Abs("testdata/dialect-hooks")
	require.NoError(t, err)
	samples := hookshim.Samples()
	for _, hc := range corpusHooks {
		t.Run(hc.file, func(t *testing.T) {
			t.Parallel()
			tmp := t.TempDir()
			entry := strings.Replace(hc.entry, `"COMMAND"`, `"COMMAND","timeout":300`, 1)
			entry = strings.ReplaceAll(entry, "COMMAND", filepath.Join(dir, hc.file))
			entry = strings.ReplaceAll(entry, "DIR", dir)
			cfg := filepath.Join(tmp, "openhook.json")
			require.NoError(t, os.WriteFile(cfg, []byte(`{"spec":"hooks/0.1","hooks":[`+entry+`]}`), 0o644))
			f, err := config.Load(cfg)
			require.NoError(t, err)
			h := f.Hooks[0]
			parts := make([]string, len(samples))
			var wg sync.WaitGroup
			slots := make(chan struct{}, 2)
			for i, s := range samples {
				if !corpusMatches(h, s) {
					continue // no process started for nothing
				}
				wg.Add(1)
				slots <- struct{}{}
				go func() {
					defer func() { <-slots; wg.Done() }()
					parts[i] = corpusCall(t, bin, cfg, dir, filepath.Join(tmp, fmt.Sprint(i)), s)
				}()
			}
			wg.Wait()
			var got bytes.Buffer
			for _, p := range parts {
				got.WriteString(p)
			}
			require.NotZero(t, got.Len(), "no sample payload ran %s", hc.file)
			golden := filepath.Join("testdata/dialect-hooks", hc.file+".golden")
			if *update {
				require.NoError(t, os.WriteFile(golden, got.Bytes(), 0o644))
				return
			}
			want, err := os.ReadFile(golden)
			require.NoErrorf(t, err, "no golden file; run: go test . -run TestDialectHookCorpus -update")
			require.Equal(t, string(want), got.String(), "%s is out of date; if the change is intended run: go test . -run TestDialectHookCorpus -update", golden)
		})
	}
}

// corpusMatches reports whether a call of the sample would run h, as the
// pipeline matches a dialect handler: by the caller's tool name or the
// dialect's.
func corpusMatches(h *config.Hook, s hookshim.Sample) bool {
	spec := s.Provider.Spec(s.Event)
	if spec == nil || spec.Canonical == "" {
		return false
	}
	ev := normalize.Event(s.Provider, spec, provider.NewPayload(s.Raw, func(string) string { return "" }))
	if h.Matches(ev) {
		return true
	}
	d, err := dialect.Lookup(h.Dialect)
	if err != nil || ev.Tool == nil {
		return false
	}
	name, ok := dialect.ToolName(d, ev.Tool)
	if !ok {
		return false
	}
	e, tool := *ev, *ev.Tool
	tool.Native = name
	e.Tool = &tool
	return h.Matches(&e)
}

// corpusStop reports whether the sample is a Stop, whose hooks read the
// transcript.
func corpusStop(s hookshim.Sample) bool {
	spec := s.Provider.Spec(s.Event)
	return spec != nil && (spec.Canonical == event.AgentStop || spec.Canonical == event.SubagentStop)
}

// corpusCall runs one sample through the binary and returns its part of
// the golden: "" when the hook did not match.
func corpusCall(t *testing.T, bin, cfg, hooks, tmp string, s hookshim.Sample) string {
	require.NoError(t, os.MkdirAll(tmp, 0o755))
	log := filepath.Join(tmp, "log.jsonl")
	cmd := exec.Command(bin, "run", "--provider", s.Provider.ID, "--event", s.Event, "--log", log, "--timeout", "600")
	raw := s.Raw
	if f := s.Provider.Fields.Transcript; f != "" && gjson.GetBytes(raw, f).Exists() && corpusStop(s) {
		// On a Stop, the caller's transcript in its own format, where the
		// corpus has one (transcripts/): a hook that reads it reads a
		// real one.
		for _, ext := range []string{".jsonl", ".json"} {
			fx := filepath.Join(hooks, "transcripts", s.Provider.ID+ext)
			if _, err := os.Stat(fx); err == nil {
				raw, err = sjson.SetBytes(raw, f, fx)
				require.NoError(t, err)
			}
		}
	}
	cmd.Stdin = bytes.NewReader(raw)
	cmd.Dir = tmp
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + tmp, "XDG_STATE_HOME=" + filepath.Join(tmp, "state"),
		"XDG_CONFIG_HOME=" + filepath.Join(tmp, "config"), "HOOKSHIM_CONFIG=" + cfg, "LANG=C.UTF-8",
		// Each call on its own: two samples of one tool call (Cursor's
		// preToolUse and beforeShellExecution) would otherwise share
		// one answer, whichever ran first.
		"XDG_RUNTIME_DIR=" + filepath.Join(tmp, "run"), "TMPDIR=" + tmp}
	envFile := ""
	if d := s.Provider.Dialect; d != nil && d.EnvFile != "" {
		// The env file the tool itself hands its hooks on such events.
		envFile = filepath.Join(tmp, "env-file")
		require.NoError(t, os.WriteFile(envFile, nil, 0o600))
		cmd.Env = append(cmd.Env, d.EnvFile+"="+envFile)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	exit := 0
	if ee, ok := err.(*exec.ExitError); ok {
		exit = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	rec, err := os.ReadFile(log)
	require.NoError(t, err, "no log record: %s", stderr.String())
	r := gjson.ParseBytes(bytes.TrimSpace(rec))
	if len(r.Get("handlers").Array()) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "== %s/%s (%s -> %s)\n", s.Provider.ID, strings.TrimSuffix(s.Name, ".json"), r.Get("native_event").Str, r.Get("event").Str)
	for _, run := range r.Get("runs").Array() {
		fmt.Fprintf(&b, "handler exit %d", run.Get("exit").Int())
		if d := run.Get("decision").Str; d != "" {
			fmt.Fprintf(&b, " decision %s", d)
		}
		if run.Get("rewrite").Bool() {
			b.WriteString(" rewrite")
		}
		if e := run.Get("error").Str; e != "" {
			fmt.Fprintf(&b, " error %s", e)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "exit %d\n", exit)
	if stdout.Len() > 0 {
		fmt.Fprintf(&b, "stdout %s\n", bytes.TrimRight(stdout.Bytes(), "\n"))
	}
	if stderr.Len() > 0 {
		fmt.Fprintf(&b, "stderr %s\n", strings.ReplaceAll(strings.TrimRight(stderr.String(), "\n"), "\n", "\n       "))
	}
	for _, d := range r.Get("degraded").Array() {
		fmt.Fprintf(&b, "degraded %s\n", d.Str)
	}
	for _, n := range r.Get("notes").Array() {
		fmt.Fprintf(&b, "note %s\n", n.Str)
	}
	if envFile != "" {
		if env, _ := os.ReadFile(envFile); len(env) > 0 {
			fmt.Fprintf(&b, "env file %s\n", strings.ReplaceAll(strings.TrimRight(string(env), "\n"), "\n", " | "))
		}
	}
	// No path of this machine: the call's folder and the corpus's, and
	// the PATH an export read (Cursor's env answer holds its value).
	return strings.NewReplacer(tmp, "$TMP", filepath.Dir(cfg), "$CONFIG", hooks, "$HOOKS",
		os.Getenv("PATH"), "$PATH").Replace(b.String())
}
