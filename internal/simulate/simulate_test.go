package simulate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	hookshim "github.com/hookshim/hookshim"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// env is a simulation in a temporary home, with no config of the user's.
func env(t *testing.T) Env {
	root := t.TempDir()
	vars := map[string]string{"HOME": root, "XDG_CONFIG_HOME": filepath.Join(root, "config"),
		"XDG_STATE_HOME": filepath.Join(root, "state"), "XDG_RUNTIME_DIR": filepath.Join(root, "run"), "HOOKSHIM_DEPTH": "3"}
	return Env{Getenv: func(k string) string { return vars[k] }, Version: func() string { return "v0.0.0-test" }}
}

func TestExampleAnswer(t *testing.T) {
	for cmd, want := range map[string]bool{
		"rm -rf /":                          true,
		"rm -rf ~":                          true,
		"sudo rm -rf /":                     true,
		"rm -fr /":                          true,
		"rm -r -f /":                        true,
		"cd /tmp && rm -rf /":               true,
		"mkfs.ext4 /dev/sda1":               true,
		"dd if=/dev/zero of=/dev/sda bs=1M": true,
		":(){ :|:& };:":                     true,
		"rm -rf ./build":                    false,
		"rm -rf /tmp/x":                     false,
		"ls -la /":                          false,
		"npm test":                          false,
		"echo 'rm -rf' is bad":              false,
	} {
		env := `{"data":{"tool_name":"shell","command":` + string(wire.Quote(cmd)) + `}}`
		out, err := ExampleAnswer("deny-destructive", []byte(env))
		require.NoError(t, err)
		require.Equalf(t, want, strings.Contains(string(out), `"deny"`), "command %q", cmd)
	}
	out, err := ExampleAnswer("deny-destructive", []byte(`{"data":{"tool_name":"file_write","command":"rm -rf /"}}`))
	require.NoError(t, err)
	require.Nil(t, out, "no opinion on other tools")
	out, err = ExampleAnswer("prompt-context", []byte(`{}`))
	require.NoError(t, err)
	require.Equal(t, `{"context":`+string(wire.Quote(ExampleContext))+`}`, string(out))
	_, err = ExampleAnswer("nope", nil)
	require.EqualError(t, err, `unknown example policy "nope" (known: deny-destructive, prompt-context)`)
}

func TestQuoteArg(t *testing.T) {
}

func TestSample(t *testing.T) {
	claude := provider.Lookup("claude-code")
	raw, err := Sample(claude, "PreToolUse", "")
	require.NoError(t, err)
	wd, _ := os.Getwd()
	assert.Equal(t, wd, gjson.GetBytes(raw, "cwd").Str, "pointed at this folder")
	codex := provider.Lookup("codex")
	raw, err = Sample(codex, "PreToolUse", "")
	require.NoError(t, err)
	assert.Equal(t, "Bash", gjson.GetBytes(raw, "tool_name").Str, "the plain PreToolUse.json, not the first variant by name")

	_, err = Sample(claude, "Nope", "")
	assert.ErrorContains(t, err, `Claude Code has no event "Nope" (its events: `)
	file := filepath.Join(t.TempDir(), "p.json")
	require.NoError(t, os.WriteFile(file, []byte(`{"x":1}`), 0o644))
	raw, err = Sample(claude, "", file)
	require.NoError(t, err)
	assert.Equal(t, `{"x":1}`, string(raw))
}

func TestWithToolInput(t *testing.T) {
	claude := provider.Lookup("claude-code")
	raw, err := Sample(claude, "PreToolUse", "")
	require.NoError(t, err)
	got, err := WithToolInput(claude, raw, []byte(`{"command":"ls"}`))
	require.NoError(t, err)
	assert.JSONEq(t, `{"command":"ls"}`, gjson.GetBytes(got, "tool_input").Raw)
	_, err = WithToolInput(claude, raw, []byte(`["ls"]`))
	assert.EqualError(t, err, `--tool-input must be a JSON object, such as '{"command":"ls"}'`)
	raw, err = Sample(claude, "UserPromptSubmit", "")
	require.NoError(t, err)
	_, err = WithToolInput(claude, raw, []byte(`{"command":"ls"}`))
	assert.EqualError(t, err, "this Claude Code sample has no tool input to replace")
}

// Each tool is shown with a sample about the shell, from its event for
// shell commands where it has one.
func TestRepresentative(t *testing.T) {
	getenv := func(string) string { return "" }
	samples := hookshim.Samples()
	s := representative(samples, provider.Lookup("cursor"), event.BeforeToolExecute, getenv)
	require.NotNil(t, s)
	assert.Equal(t, "beforeShellExecution.json", s.Name)
	s = representative(samples, provider.Lookup("codex"), event.BeforeToolExecute, getenv)
	require.NotNil(t, s)
	assert.Equal(t, "PreToolUse.json", s.Name)
	assert.True(t, hasCanonical(provider.Lookup("claude-code"), event.BeforePrompt))
}

// The example command, in every tool's payload, is denied wherever the
// tool can say so; nothing in the user's environment leaks in, not even
// hookshim's recursion guard.
func TestMatrix(t *testing.T) {
	policy, err := ExamplePolicy("true")
	require.NoError(t, err)
	rows, errs := env(t).Matrix(policy)
	require.Empty(t, errs)
	tools := 0
	for _, row := range rows {
		res := row.Result
		require.NotNil(t, res.Event, row.Sample.Name)
		if res.Event.Tool == nil {
			continue
		}
		tools++
		assert.Equal(t, ExampleCommand, res.Event.Tool.Command, row.Sample.Provider.ID)
		assert.Equal(t, "deny", res.Said(), row.Sample.Provider.ID)
		assert.Contains(t, res.Explain, "deny-destructive", row.Sample.Provider.ID)
	}
	withTools := 0
	for _, pr := range provider.All {
		if hasCanonical(pr, event.BeforeToolExecute) {
			withTools++ // Junie CLI has a session event only
		}
	}
	assert.Equal(t, withTools, tools, "one shell command per tool that has a tool event")
	e := env(t)
	assert.Equal(t, "3", e.Getenv("HOOKSHIM_DEPTH"))
	assert.Equal(t, "", e.getenv("HOOKSHIM_DEPTH"))
	assert.NotEmpty(t, e.getenv("HOME"))
}

func TestAll(t *testing.T) {
	policy, err := ExamplePolicy("true")
	require.NoError(t, err)
	rows := env(t).All(policy)
	require.Len(t, rows, len(hookshim.Samples()))
	for _, row := range rows {
		assert.Contains(t, []string{"none", "deny", "allow", "ask", "context"}, row.Result.Decision(), row.Sample.Name)
	}
}

// Every documented example of the policy pack answers as documented.
func TestPack(t *testing.T) {
	rows, errs := env(t).Pack(t.TempDir())
	require.Empty(t, errs)
	require.NotEmpty(t, rows)
	for _, row := range rows {
		said := "none"
		if v := row.Result.Verdict; v != nil {
			said = v.Decision.String()
		}
		assert.Equal(t, row.Want, said, "%s: %s", row.Policy, row.Example.Text)
	}
}

func TestClaudeTool(t *testing.T) {
	name, key, ok := claudeTool(event.ToolFileEdit)
	assert.True(t, ok)
	assert.Equal(t, "Edit", name)
	assert.Equal(t, "file_path", key)
	_, _, ok = claudeTool("teleport")
	assert.False(t, ok)
}
