package hookshim_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	hookshim "github.com/hookshim/hookshim"
	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/detect"
	"github.com/hookshim/hookshim/internal/normalize"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/respond"
	"github.com/hookshim/hookshim/internal/run"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// lookAlikes are the tools that send Claude Code's fields, with the
// environment each sets for its hooks (measured where the tool was run).
// Several set CLAUDE_PROJECT_DIR too, which must not make them Claude.
var lookAlikes = []struct {
	id  string
	env map[string]string
	// alsoRuns: the tool runs the hooks registered for this provider,
	// with its own payload (the hint those registrations pass).
	alsoRuns string
}{
	{"claude-code", map[string]string{"CLAUDE_PROJECT_DIR": "/p", "CLAUDECODE": "1"}, ""},
	{"factory-droid", map[string]string{"FACTORY_PROJECT_DIR": "/p", "DROID_PROJECT_DIR": "/p", "CLAUDE_PROJECT_DIR": "/p"}, ""},
	{"codebuddy", map[string]string{"CODEBUDDY_PROJECT_DIR": "/p", "CLAUDE_PROJECT_DIR": "/p"}, ""},
	{"qoder", map[string]string{"QODER_PROJECT_DIR": "/p", "CLAUDE_PROJECT_DIR": "/p", "QODER_HOOK_SOURCE": "cli"}, ""},
	{"devin-cli", map[string]string{"DEVIN_PROJECT_DIR": "/p"}, "claude-code"},
	{"qwen-code", map[string]string{"QWEN_PROJECT_DIR": "/p", "CLAUDE_PROJECT_DIR": "/p", "GEMINI_PROJECT_DIR": "/p"}, ""},
	{"kimi-code", nil, ""},
	{"cursor", map[string]string{"CURSOR_PROJECT_DIR": "/p", "CLAUDE_PROJECT_DIR": "/p"}, "claude-code"},
	// Cortex Code's environment for hooks is not documented.
	{"cortex-code", nil, ""},
	// Grok Build's payload is camelCase, but it runs the hooks of
	// .claude/settings.json (and .cursor/hooks.json) with it.
	{"grok", map[string]string{"GROK_HOOK_EVENT": "pre_tool_use"}, "claude-code"},
}

// TestLookAlikes: every fixture of a Claude look-alike, with no
// --provider, is told apart from the others, from its payload alone and
// with its own environment (Claude's variables included), and --explain
// rates how sure it is. A tool that runs another's registrations is told
// apart under that tool's --provider as well. The ratings are printed.
func TestLookAlikes(t *testing.T) {
	var table strings.Builder
	for _, la := range lookAlikes {
		pr := provider.Lookup(la.id)
		require.NotNil(t, pr, la.id)
		n := 0
		for _, s := range hookshim.Samples() {
			if s.Provider != pr {
				continue
			}
			n++
			envs := []struct {
				name string
				env  map[string]string
			}{{"no env", nil}, {"its env", la.env}}
			for _, e := range envs {
				p := provider.NewPayload(s.Raw, func(k string) string { return e.env[k] })
				res := detect.Detect(p, "")
				require.NotNil(t, res.Provider, "%s/%s (%s): not detected\n%s", la.id, s.Name, e.name, res.Explain())
				require.Equal(t, la.id, res.Provider.ID, "%s/%s (%s)\n%s", la.id, s.Name, e.name, res.Explain())
				level, why := res.Confidence()
				require.NotEqual(t, detect.Guess, level, "%s/%s (%s): %s", la.id, s.Name, e.name, why)
				require.Contains(t, res.Explain(), "confidence: "+level)
				fmt.Fprintf(&table, "%-14s %-32s %-8s %-8s %s\n", la.id, s.Name, e.name, level, why)
				if la.alsoRuns != "" {
					res := detect.Decide(p, la.alsoRuns)
					require.Equal(t, la.id, res.Provider.ID, "%s/%s (%s) under --provider %s\n%s", la.id, s.Name, e.name, la.alsoRuns, res.Explain())
				}
			}
		}
		require.NotZero(t, n, "no fixtures for %s", la.id)
	}
	if testing.Verbose() {
		fmt.Fprint(os.Stdout, table.String())
	}
}

// TestQoderAsClaude: a Qoder payload can carry nothing of Qoder's (its
// config folder moved, so the transcript is elsewhere; an Anthropic model,
// so Claude's tool call ids; no Qoder variable). It is then taken for
// Claude Code's, whose answer Qoder reads the same way: for every fixture
// and every scenario, Claude Code's answer equals Qoder's, except that
// Claude blocks TaskCompleted and TeammateIdle with exit 2 and the reason
// on stderr, which Qoder reads as a deny too (docs/providers.md, "Claude
// look-alikes").
func TestQoderAsClaude(t *testing.T) {
	n := 0
	for _, s := range hookshim.Samples() {
		if s.Provider != provider.Qoder {
			continue
		}
		n++
		raw, err := sjson.SetBytes(s.Raw, "transcript_path", "/srv/agents/projects/-home-dev-project/a3f1c2d4.jsonl")
		require.NoError(t, err)
		if gjson.GetBytes(raw, "tool_use_id").Exists() {
			raw, err = sjson.SetBytes(raw, "tool_use_id", "toolu_01ABCdefGHIjklMNOpqrSTU")
			require.NoError(t, err)
		}
		p := provider.NewPayload(raw, func(string) string { return "" })
		res := detect.Detect(p, "")
		if gjson.GetBytes(raw, "tool_use_id").Exists() {
			require.NotNil(t, res.Provider, "%s\n%s", s.Name, res.Explain())
			require.Equal(t, provider.Claude, res.Provider, "%s\n%s", s.Name, res.Explain())
		}
		native := s.Event
		cs, qs := provider.Claude.Spec(native), provider.Qoder.Spec(native)
		require.NotNil(t, cs, "Claude Code has no event %s", native)
		// defer is Claude Code's alone: Qoder's contract does not name it,
		// so the look-alike is compared without it.
		require.Equal(t, qs.Can, cs.Can&^provider.CanDefer, "%s: Qoder's capabilities differ from Claude Code's", native)
		ev := normalize.Event(provider.Qoder, qs, p)
		var input []byte
		if ev.Tool != nil {
			input = ev.Tool.Input
		}
		for _, sc := range scenarios {
			if sc.name == "defer" {
				continue
			}
			out := sc.out(input)
			out.Handler = "policy"
			results := []run.Result{{Hook: &config.Hook{Name: "policy"}, Output: out}}
			want := respond.Encode(provider.Qoder, qs, respond.Verdict(qs, results, "allow"))
			got := respond.Encode(provider.Claude, cs, respond.Verdict(cs, results, "allow"))
			if got.Exit == 2 && (native == "TaskCompleted" || native == "TeammateIdle") {
				require.Equal(t, gjson.GetBytes(want.Stdout, "reason").Str+"\n", got.Stderr, "%s %s", native, sc.name)
				continue
			}
			require.Equal(t, want, got, "%s %s", native, sc.name)
		}
	}
	require.NotZero(t, n)
}
