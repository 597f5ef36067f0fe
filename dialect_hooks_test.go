package hookshim_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	hookshim "github.com/hookshim/hookshim"
	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/dialect"
	"github.com/hookshim/hookshim/internal/normalize"
	"github.com/hookshim/hookshim/internal/pipeline"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// hookCases are hooks written the way people write them for their own
// tool (testdata/hooks), each registered as a dialect handler the way
// `hookshim import` writes it.
var hookCases = []struct {
	file  string
	entry string // the Hook Interchange entry, with COMMAND for the script
}{
	// Matchers in Claude's own tool names, as in .claude/settings.json.
	{"block-destructive.sh", `{"event":"before_tool_execute","matcher":"Bash","handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"protect-files.sh", `{"event":"before_tool_execute","matcher":{"pattern":"^(Read|Edit|MultiEdit|Write)$"},"handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"bash_policy.py", `{"event":"before_tool_execute","matcher":"shell","handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"bash_policy.py", `{"event":"before_prompt","handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"session-context.sh", `{"event":"session_start","handler":{"command":"COMMAND","dialect":"claude-code"}}`},
	{"gemini-guard.sh", `{"event":"before_tool_execute","matcher":"shell","handler":{"command":"COMMAND","dialect":"gemini-cli"}}`},
	{"gemini-guard.sh", `{"event":"before_prompt","handler":{"command":"COMMAND","dialect":"gemini-cli"}}`},
	{"cursor-shell.sh", `{"event":"before_tool_execute","matcher":"shell","handler":{"command":"COMMAND","dialect":"cursor"}}`},
}

// TestDialectHooks runs each hook of testdata/hooks, unchanged, as a
// dialect handler under every tool's fixture payloads of the events it is
// registered for, and compares the native answers each tool gets (and
// what the call noted about the dialect) with testdata/hooks/<hook>.golden.
func TestDialectHooks(t *testing.T) {
	for _, tool := range []string{"bash", "jq", "python3"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: the hooks are written in it", tool)
		}
	}
	// The hooks read CLAUDE_PROJECT_DIR: only the dialect may set it.
	for _, v := range []string{"CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "CURSOR_PROJECT_DIR"} {
		if old, ok := os.LookupEnv(v); ok {
			os.Unsetenv(v)
			t.Cleanup(func() { os.Setenv(v, old) })
		}
	}
	pinPython(t)
	dir, err := filepath.Abs("testdata/hooks")
	require.NoError(t, err)
	goldens := map[string]*goldenLog{}
	var order []string
	for _, hc := range hookCases {
		g := goldens[hc.file]
		if g == nil {
			g = &goldenLog{}
			goldens[hc.file] = g
			order = append(order, hc.file)
		}
		g.cases = append(g.cases, hc.entry)
	}
	for _, file := range order {
		g := goldens[file]
		t.Run(file, func(t *testing.T) {
			t.Parallel()
			var entries []string
			for _, e := range g.cases {
				// A timeout that only a hang reaches: hundreds of
				// interpreters started one after the other take
				// seconds each on a loaded machine.
				entries = append(entries, strings.Replace(e, `"COMMAND"`, `"`+filepath.Join(dir, file)+`","timeout":300`, 1))
			}
			doc := `{"spec":"hooks/0.1","hooks":[` + strings.Join(entries, ",") + `]}`
			f, err := config.Parse(filepath.Join(dir, "openhook.json"), []byte(doc))
			require.NoError(t, err)
			configs := []config.Found{{File: f}}
			// The fixtures are answered a few at a time, each into its
			// own part of the log, which is then written in their order.
			samples := hookshim.Samples()
			parts := make([]string, len(samples))
			var wg sync.WaitGroup
			slots := make(chan struct{}, 8)
			for i, s := range samples {
				wg.Add(1)
				slots <- struct{}{}
				go func() {
					defer func() { <-slots; wg.Done() }()
					parts[i] = answerLog(s, configs)
				}()
			}
			wg.Wait()
			var out bytes.Buffer
			ran := 0
			for _, p := range parts {
				if p != "" {
					ran++
					out.WriteString(p)
				}
			}
			require.NotZero(t, ran, "no fixture ran %s", file)
			golden := filepath.Join("testdata/hooks", strings.TrimSuffix(file, filepath.Ext(file))+".golden")
			if *update {
				require.NoError(t, os.WriteFile(golden, out.Bytes(), 0o644))
				return
			}
			want, err := os.ReadFile(golden)
			require.NoErrorf(t, err, "no golden file; run: go test . -run TestDialectHooks -update")
			require.Equal(t, string(want), out.String(), "%s is out of date; if the change is intended run: go test . -run TestDialectHooks -update", golden)
		})
	}
}

type goldenLog struct{ cases []string }

// pinPython puts the folder of the interpreter that python3 in PATH runs
// first in PATH, for the hooks' #!/usr/bin/env python3: a version
// manager's python3 (pyenv's, asdf's) is a shell script that starts a
// dozen processes on every call before the interpreter, and with a
// hundred calls here that took minutes on a loaded machine.
func pinPython(t *testing.T) {
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	require.NoError(t, err)
	exe := strings.TrimSpace(string(out))
	if !filepath.IsAbs(exe) {
		return
	}
	old := os.Getenv("PATH")
	os.Setenv("PATH", filepath.Dir(exe)+string(os.PathListSeparator)+old)
	t.Cleanup(func() { os.Setenv("PATH", old) })
}

// answerLog is one fixture's part of a hook's golden log: what the tool
// got and what the call noted about the dialect; "" when no hook matched.
// The deadline is one only a hang reaches, as the hooks' timeouts are.
func answerLog(s hookshim.Sample, configs []config.Found) string {
	ans, rec := pipeline.Call(s.Raw, nil, func(string) string { return "" },
		pipeline.Options{Provider: s.Provider.ID, Event: s.Event, Configs: configs, Timeout: 10 * time.Minute,
			// A tool that sends no working folder gets one that does not
			// depend on where this checkout is.
			Wd: "/home/dev/project"})
	if len(rec.Matched) == 0 {
		return ""
	}
	var out strings.Builder
	fmt.Fprintf(&out, "== %s/%s (%s -> %s)\n", s.Provider.ID, strings.TrimSuffix(s.Name, ".json"), rec.Native, rec.Canonical)
	fmt.Fprintf(&out, "exit %d\n", ans.Exit)
	if len(ans.Stdout) > 0 {
		fmt.Fprintf(&out, "stdout %s\n", bytes.TrimRight(ans.Stdout, "\n"))
	}
	if ans.Stderr != "" {
		fmt.Fprintf(&out, "stderr %s\n", strings.TrimRight(ans.Stderr, "\n"))
	}
	for _, n := range rec.Notes {
		if strings.HasPrefix(n, "dialect ") {
			fmt.Fprintf(&out, "note %s\n", n)
		}
	}
	for _, w := range rec.Warnings() {
		fmt.Fprintf(&out, "warning %s\n", w)
	}
	return out.String()
}

// TestDialectPayloads speaks every dialect for every sample payload of
// every tool: each payload is one JSON object naming the dialect's event
// under its event key, and the tool's own call of the same event is
// passed through untouched (as NewPayload reads it).
func TestDialectPayloads(t *testing.T) {
	now := time.Unix(1795593600, 0)
	for _, s := range hookshim.Samples() {
		spec := s.Provider.Spec(s.Event)
		if spec == nil || spec.Canonical == "" {
			continue
		}
		ev := normalize.Event(s.Provider, spec, provider.NewPayload(s.Raw, func(string) string { return "" }))
		if ev.Name == "" {
			continue
		}
		for _, d := range provider.Commanded() {
			c, err := dialect.Speak(d, s.Provider, ev, now)
			if errors.Is(err, dialect.ErrNoEvent) {
				continue
			}
			name := d.ID + " for " + s.Provider.ID + "/" + s.Name
			require.NoError(t, err, name)
			doc := bytes.Join(c.Input, nil)
			require.True(t, json.Valid(doc) && gjson.ParseBytes(doc).IsObject(), "%s: not one JSON object: %s", name, doc)
			switch k := d.Dialect.EventKey; {
			case d == s.Provider && c.Native == ev.Native:
				// Untouched but for a name given twice, which keeps its last
				// member as the tool reads it (NewPayload).
				require.Equal(t, provider.NewPayload(s.Raw, nil).Raw, doc, name)
			case k != "":
				// Spelt as the tool sends it (Grok: snake_case).
				require.Equal(t, d.Dialect.EventSpelling(c.Native), gjson.GetBytes(doc, k).Str, name)
			}
		}
	}
}
