package hookshim_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	hookshim "github.com/hookshim/hookshim"
	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/detect"
	"github.com/hookshim/hookshim/internal/dialect"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/normalize"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/respond"
	"github.com/hookshim/hookshim/internal/run"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/payloads")

const payloadDir = "testdata/payloads"

// TestProvidersHaveFixtures: every provider has a fixture folder and every
// folder belongs to a provider.
func TestProvidersHaveFixtures(t *testing.T) {
	entries, err := os.ReadDir(payloadDir)
	require.NoError(t, err)
	dirs := map[string]bool{}
	for _, e := range entries {
		if e.IsDir() {
			dirs[e.Name()] = true
			require.NotNilf(t, provider.Lookup(e.Name()), "folder %s/%s belongs to no provider", payloadDir, e.Name())
		}
	}
	for _, pr := range provider.All {
		require.Truef(t, dirs[pr.ID], "provider %s has no fixtures in %s/%s", pr.ID, payloadDir, pr.ID)
	}
}

// scenarios are the canonical answers every fixture is answered with.
var scenarios = []struct {
	name string
	out  func(input []byte) decision.Output
}{
	{"none", func([]byte) decision.Output { return decision.Output{} }},
	{"allow", func([]byte) decision.Output { return decision.Output{Decision: decision.Allow} }},
	{"deny", func([]byte) decision.Output {
		return decision.Output{Decision: decision.Deny, Reason: "blocked by policy: not on this branch"}
	}},
	{"ask", func([]byte) decision.Output {
		return decision.Output{Decision: decision.Ask, Reason: "this touches production: confirm"}
	}},
	// Only where the event can hold the call (Claude Code's defer); the
	// degradation elsewhere is internal/respond's TestDefer.
	{"defer", func([]byte) decision.Output {
		return decision.Output{Decision: decision.Defer, Reason: "the caller decides"}
	}},
	{"context", func([]byte) decision.Output {
		return decision.Output{Context: "remember: the style guide is in docs/STYLE.md"}
	}},
	{"rewrite", func(input []byte) decision.Output { return decision.Output{UpdatedInput: rewritten(input)} }},
	{"stop", func([]byte) decision.Output {
		f := false
		return decision.Output{Continue: &f, Reason: "budget exhausted: stopping the session"}
	}},
}

// rewritten is the fixture's tool input as a policy would rewrite it.
func rewritten(input []byte) []byte {
	if len(input) == 0 {
		input = []byte("{}")
	}
	in := gjson.ParseBytes(input)
	var out []byte
	var err error
	switch {
	case in.Get("command").Exists():
		out, err = sjson.SetBytes(input, "command", "echo rewritten by policy")
	case in.Get("file_path").Exists():
		out, err = sjson.SetBytes(input, "file_path", "/tmp/sandbox/file.txt")
	case in.Get("path").Exists():
		out, err = sjson.SetBytes(input, "path", "/tmp/sandbox/file.txt")
	default:
		out, err = sjson.SetBytes(input, "hookshim_rewritten", true)
	}
	if err != nil {
		panic(err)
	}
	return out
}

// machinePath finds what of the machine a real payload was recorded on
// can be left in it: the e2e run's temporary folders (hse2e-…, which
// e2e's sanitize renames), another home folder than the fixtures'
// /home/dev, with or without its leading slash (OpenCode's session path
// is relative to its worktree, "/").
var machinePath = regexp.MustCompile(`hse2e-|hookshim-e2e-|/root/|/Users/|\bhome/([^/"\\]+)`)

// TestRealPayloadsAreNeutral: the payloads captured from real clients
// (<Event>-real.json) name no folder of the machine they were recorded on.
func TestRealPayloadsAreNeutral(t *testing.T) {
	for _, s := range hookshim.Samples() {
		if !strings.Contains(s.Name, "-real") {
			continue
		}
		for _, m := range machinePath.FindAllStringSubmatch(string(s.Raw), -1) {
			if m[1] != "dev" {
				t.Errorf("%s/%s holds %q, a path of the machine it was recorded on: rename it as e2e's sanitize does (/home/dev, /home/dev/project)", s.Provider.ID, s.Name, m[0])
			}
		}
	}
}

// TestPayloadGoldens walks testdata/payloads: each payload is detected,
// normalized, and answered with every scenario; the canonical event and the
// native answers are compared byte for byte with <name>.golden.
func TestPayloadGoldens(t *testing.T) {
	for _, s := range hookshim.Samples() {
		s := s
		t.Run(s.Provider.ID+"/"+strings.TrimSuffix(s.Name, ".json"), func(t *testing.T) {
			t.Parallel()
			golden := filepath.Join(payloadDir, s.Provider.ID, strings.TrimSuffix(s.Name, ".json")+".golden")
			got := goldenFor(t, s)
			if *update {
				require.NoError(t, os.WriteFile(golden, got, 0o644))
				return
			}
			want, err := os.ReadFile(golden)
			require.NoErrorf(t, err, "no golden file; run: go test . -run TestPayloadGoldens -update")
			require.Equal(t, string(want), string(got), "%s is out of date; if the change is intended run: go test . -run TestPayloadGoldens -update", golden)
		})
	}
}

func goldenFor(t *testing.T, s hookshim.Sample) []byte {
	p := provider.NewPayload(s.Raw, func(string) string { return "" })
	det := detect.Detect(p, "")
	require.NotNil(t, det.Provider, "no provider detected:\n%s", det.Explain())
	require.Equal(t, s.Provider.ID, det.Provider.ID, "detected as another provider:\n%s", det.Explain())
	native := s.Provider.EventName(p)
	if native == "" {
		// A nameless payload: what `hookshim run` without --event infers,
		// else the event it is registered for.
		if n, _, err := s.Provider.InferEvent(p); err == nil {
			native = n
		} else {
			native = s.Event
		}
	}
	require.Equal(t, s.Event, native, "the payload's event does not match the file name")
	spec := s.Provider.Spec(native)
	require.NotNil(t, spec, "%s has no event %q", s.Provider.ID, native)
	ev := normalize.Event(s.Provider, spec, p)
	if ev.Calls != nil {
		// Several tool calls in one payload get one answer, which can
		// say less than an answer about one call.
		spec = s.Provider.CallsSpec(spec)
	}

	ar := &txtar.Archive{}
	add := func(name string, body []byte) {
		ar.Files = append(ar.Files, txtar.File{Name: name, Data: body})
	}
	ar.Comment = []byte(fmt.Sprintf("%s %s -> %s (can: %s)\n", s.Provider.ID, native, orDash(string(spec.Canonical)), spec.Can.String()))
	add("canonical", pretty(normalize.Data(ev)))
	for i, call := range ev.Calls {
		if i > 0 {
			add(fmt.Sprintf("canonical call %d", i+1), pretty(normalize.Data(call)))
		}
	}
	var input []byte
	if ev.Tool != nil {
		input = ev.Tool.Input
	}
	if as := asClaudeHook(s.Provider, ev); as != nil {
		add("as claude-code", as)
	}
	hook := &config.Hook{Name: "policy"}
	for _, sc := range scenarios {
		if sc.name == "rewrite" && ev.Tool == nil || sc.name == "defer" && !spec.Can.Has(provider.CanDefer) {
			continue
		}
		out := sc.out(input)
		out.Handler = "policy"
		v := respond.Verdict(spec, []run.Result{{Hook: hook, Output: out}}, "allow")
		ans := respond.Encode(s.Provider, spec, v)
		var b bytes.Buffer
		fmt.Fprintf(&b, "exit %d\n", ans.Exit)
		fmt.Fprintf(&b, "stdout %s\n", bytes.TrimSuffix(ans.Stdout, []byte("\n")))
		if ans.Stderr != "" {
			fmt.Fprintf(&b, "stderr %q\n", ans.Stderr)
		}
		for _, n := range v.Notes {
			fmt.Fprintf(&b, "degraded %s\n", n)
		}
		checkAnswer(t, s.Provider, sc.name, ans)
		add(sc.name, b.Bytes())
	}
	return txtar.Format(ar)
}

// asClaudeHook is what a hook written for Claude Code ("dialect":
// "claude-code") reads on stdin when this fixture's tool calls, for the
// calls whose shapes differ most between tools: file tools (what is
// written, in Claude's Write, Edit and MultiEdit) and Stop (its loop guard
// and last message). Each payload of a call of several files is shown,
// then what the caller did not send. nil for the other fixtures and for
// Claude Code's own, which reach its hooks untouched.
func asClaudeHook(caller *provider.Provider, ev *event.Event) []byte {
	if caller == provider.Claude || ev.Name == "" {
		return nil
	}
	file := ev.Tool != nil && slices.Contains([]string{event.ToolFileRead, event.ToolFileWrite, event.ToolFileEdit}, ev.Tool.Name)
	if !file && ev.Name != event.AgentStop && ev.Name != event.SubagentStop {
		return nil
	}
	c, err := dialect.Speak(provider.Claude, caller, ev, time.Unix(1795593600, 0))
	if err != nil {
		return []byte(err.Error() + "\n")
	}
	var b bytes.Buffer
	b.Write(pretty(bytes.Join(c.Input, nil)))
	for _, in := range c.More {
		b.Write(pretty(bytes.Join(in, nil)))
	}
	for _, g := range c.Gaps {
		fmt.Fprintf(&b, "note %s\n", g)
	}
	return b.Bytes()
}

// checkAnswer holds every answer to the rules that keep tools safe:
// stdout is empty or one JSON document, and only a deliberate block
// uses a non-zero exit code, apart from the neutral exit of a tool whose
// exit 0 approves (Provider.NeutralExit).
func checkAnswer(t *testing.T, pr *provider.Provider, scenario string, ans provider.Answer) {
	if len(bytes.TrimSpace(ans.Stdout)) > 0 && !pr.TextStdout {
		require.Truef(t, json.Valid(ans.Stdout), "%s: stdout is not one JSON document: %s", scenario, ans.Stdout)
	}
	if scenario != "deny" && scenario != "ask" && scenario != "rewrite" && scenario != "stop" {
		if ans.Exit != pr.NeutralExit {
			require.Equalf(t, 0, ans.Exit, "%s: a non-blocking answer exits %d", scenario, ans.Exit)
		}
	}
}

// TestDetectionMatrix: every fixture, with and without --provider, is
// detected as its own provider and nothing else. The matrix is printed.
func TestDetectionMatrix(t *testing.T) {
	ids := provider.IDs()
	counts := map[string]map[string]int{}
	for _, s := range hookshim.Samples() {
		p := provider.Payload{Raw: s.Raw, Env: func(string) string { return "" }}
		for _, hint := range []string{"", s.Provider.ID} {
			det := detect.Detect(p, hint)
			got := "unknown"
			if det.Provider != nil {
				got = det.Provider.ID
			}
			if counts[s.Provider.ID] == nil {
				counts[s.Provider.ID] = map[string]int{}
			}
			counts[s.Provider.ID][got]++
			if got != s.Provider.ID {
				t.Errorf("%s/%s (hint %q) detected as %s:\n%s", s.Provider.ID, s.Name, hint, got, det.Explain())
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-16s", "fixture \\ got")
	for _, id := range ids {
		fmt.Fprintf(&b, "%6.6s", id)
	}
	b.WriteString("\n")
	rows := make([]string, 0, len(counts))
	for id := range counts {
		rows = append(rows, id)
	}
	sort.Strings(rows)
	for _, row := range rows {
		fmt.Fprintf(&b, "%-16s", row)
		for _, id := range ids {
			fmt.Fprintf(&b, "%6d", counts[row][id])
		}
		b.WriteString("\n")
	}
	t.Logf("detection matrix (rows: fixture folder, columns: detected provider; each fixture with and without --provider):\n%s", b.String())
}

func pretty(b []byte) []byte {
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return b
	}
	out.WriteByte('\n')
	return out.Bytes()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
