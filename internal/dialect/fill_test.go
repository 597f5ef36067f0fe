package dialect

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// Transcripts as each tool writes them, reduced to one exchange: the user
// asks, the assistant runs a command, reads its result and answers.
var transcripts = []struct {
	caller *provider.Provider
	file   string
	text   string
}{
	{provider.Codex, "rollout.jsonl", `{"timestamp":"t1","type":"session_meta","payload":{"id":"s"}}
{"timestamp":"t1","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>cwd</environment_context>"}]}}
{"timestamp":"t1","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"run the tests"}]}}
{"timestamp":"t2","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"go\",\"test\"]}","call_id":"c1"}}
{"timestamp":"t3","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"ok"}}
{"timestamp":"t4","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"All tests pass."}]}}
`},
	{provider.Gemini, "session.json", `{"sessionId":"s","messages":[
{"id":"1","timestamp":"t1","type":"user","content":"run the tests"},
{"id":"2","timestamp":"t2","type":"gemini","content":"","toolCalls":[{"id":"c1","name":"run_shell_command","args":{"command":"go test"},"result":[{"functionResponse":{"response":{"output":"ok"}}}],"resultDisplay":"ok","status":"success"}]},
{"id":"3","timestamp":"t4","type":"gemini","content":"All tests pass."}]}`},
	{provider.Copilot, "events.jsonl", `{"type":"session.start","data":{}}
{"type":"user.message","data":{"content":"run the tests"},"timestamp":"t1"}
{"type":"assistant.message","data":{"content":"","toolRequests":[{"toolCallId":"c1","name":"bash","arguments":{"command":"go test"}}]},"timestamp":"t2"}
{"type":"tool.execution_complete","data":{"toolCallId":"c1","success":true,"result":{"content":"ok"}},"timestamp":"t3"}
{"type":"assistant.message","data":{"content":"All tests pass."},"timestamp":"t4"}
`},
	{provider.Qwen, "chat.jsonl", `{"uuid":"1","type":"user","timestamp":"t1","message":{"role":"user","parts":[{"text":"run the tests"}]}}
{"uuid":"2","type":"assistant","timestamp":"t2","message":{"role":"model","parts":[{"functionCall":{"id":"c1","name":"run_shell_command","args":{"command":"go test"}}}]}}
{"uuid":"3","type":"tool_result","timestamp":"t3","message":{"role":"user","parts":[{"functionResponse":{"id":"c1","name":"run_shell_command","response":{"output":"ok"}}}]}}
{"uuid":"4","type":"assistant","timestamp":"t4","message":{"role":"model","parts":[{"text":"All tests pass."}]}}
`},
}

// A Claude Code Stop hook under another tool reads a Claude transcript,
// written for the call and removed after it, and the last assistant
// message the caller did not send.
func TestTranscriptConverted(t *testing.T) {
	for _, tc := range transcripts {
		t.Run(tc.caller.ID, func(t *testing.T) {
			dir := t.TempDir()
			src := filepath.Join(dir, tc.file)
			require.NoError(t, os.WriteFile(src, []byte(tc.text), 0o600))
			ev := &event.Event{Provider: tc.caller.ID, Native: "Stop", Name: event.AgentStop, SessionID: "s",
				Cwd: "/w", ProjectDir: "/w", TranscriptPath: src, Raw: []byte(`{}`)}
			tmp := filepath.Join(dir, "tmp")
			c, err := SpeakWith(provider.Claude, tc.caller, ev, Options{Now: now, TempDir: tmp})
			require.NoError(t, err)
			doc := gjson.ParseBytes(c.Input[0])
			require.Equal(t, "All tests pass.", doc.Get("last_assistant_message").Str, "%q", c.Gaps)
			path := doc.Get("transcript_path").Str
			require.True(t, strings.HasPrefix(path, tmp), path)
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			lines := strings.Split(strings.TrimSpace(string(data)), "\n")
			require.Len(t, lines, 4, string(data))
			first, use, result, last := gjson.Parse(lines[0]), gjson.Parse(lines[1]), gjson.Parse(lines[2]), gjson.Parse(lines[3])
			require.Equal(t, "user", first.Get("type").Str)
			require.Equal(t, "run the tests", first.Get("message.content").Str)
			require.Equal(t, "tool_use", use.Get("message.content.0.type").Str)
			require.Equal(t, "Bash", use.Get("message.content.0.name").Str, lines[1])
			require.Equal(t, "c1", result.Get("message.content.0.tool_use_id").Str)
			require.Contains(t, result.Get("message.content.0.content").Str, "ok")
			require.Equal(t, "assistant", last.Get("type").Str)
			require.Equal(t, "All tests pass.", last.Get("message.content.0.text").Str)
			st, err := os.Stat(path)
			require.NoError(t, err)
			require.Equal(t, os.FileMode(0o600), st.Mode().Perm())
			c.Cleanup()
			_, err = os.Stat(path)
			require.True(t, os.IsNotExist(err))
		})
	}
}

// A Gemini CLI hook under another tool reads Gemini's session file: its
// messages, a tool call's args and result, in Gemini's tool names; a
// Gemini transcript is given as it is.
func TestTranscriptConvertedForGemini(t *testing.T) {
	claude := `{"type":"user","timestamp":"t1","message":{"role":"user","content":"run the tests"}}
{"type":"assistant","timestamp":"t2","message":{"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"Bash","input":{"command":"go test"}}]}}
{"type":"user","timestamp":"t3","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":"ok"}]}}
{"type":"assistant","timestamp":"t4","message":{"role":"assistant","content":[{"type":"text","text":"All tests pass."}]}}
`
	cases := append(slices.Clone(transcripts), struct {
		caller *provider.Provider
		file   string
		text   string
	}{provider.Claude, "claude.jsonl", claude})
	for _, tc := range cases {
		t.Run(tc.caller.ID, func(t *testing.T) {
			dir := t.TempDir()
			src := filepath.Join(dir, tc.file)
			require.NoError(t, os.WriteFile(src, []byte(tc.text), 0o600))
			ev := &event.Event{Provider: tc.caller.ID, Native: "Stop", Name: event.AgentStop, SessionID: "s",
				Cwd: "/w", ProjectDir: "/w", TranscriptPath: src, Raw: []byte(`{}`)}
			caller := tc.caller
			if caller == provider.Gemini {
				// (Its own call is given as it came.) A file in Gemini's
				// format, whoever sent it.
				caller = provider.Qwen
			}
			c, err := SpeakWith(provider.Gemini, caller, ev, Options{Now: now, TempDir: filepath.Join(dir, "tmp")})
			require.NoError(t, err)
			defer c.Cleanup()
			path := gjson.GetBytes(c.Input[0], "transcript_path").Str
			if tc.caller == provider.Gemini {
				require.Equal(t, src, path)
				return
			}
			require.True(t, gapWith(c, "written again in Gemini CLI's format"), "%q", c.Gaps)
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			doc := gjson.ParseBytes(data)
			require.Equal(t, "s", doc.Get("sessionId").Str, string(data))
			msgs := doc.Get("messages").Array()
			require.Len(t, msgs, 3, string(data))
			require.Equal(t, "user", msgs[0].Get("type").Str)
			require.Equal(t, "run the tests", msgs[0].Get("content").Str)
			call := msgs[1].Get("toolCalls.0")
			require.Equal(t, "gemini", msgs[1].Get("type").Str)
			require.Equal(t, "run_shell_command", call.Get("name").Str, string(data))
			require.Equal(t, "c1", call.Get("id").Str)
			require.Contains(t, call.Get("resultDisplay").Str, "ok")
			require.Equal(t, "success", call.Get("status").Str)
			require.Equal(t, "c1", call.Get("result.0.functionResponse.id").Str)
			require.Equal(t, "gemini", msgs[2].Get("type").Str)
			require.Equal(t, "All tests pass.", msgs[2].Get("content").Str)
			// Read back as hookshim reads Gemini's: the same exchange.
			turns, format, err := readTranscript(path)
			require.NoError(t, err)
			require.Equal(t, formatGemini, format)
			text, _ := lastAssistant(turns)
			require.Equal(t, "All tests pass.", text)
		})
	}
}

// A transcript already in Claude's format is given as it is; one that
// cannot be read is said.
func TestTranscriptKeptOrSaid(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "t.jsonl")
	require.NoError(t, os.WriteFile(src, []byte(`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"done"}]}}`+"\n"), 0o600))
	ev := &event.Event{Provider: "codebuddy", Native: "Stop", Name: event.AgentStop, SessionID: "s", Cwd: "/w", ProjectDir: "/w", TranscriptPath: src, Raw: []byte(`{}`)}
	c, err := SpeakWith(provider.Claude, provider.Codex, ev, Options{Now: now, TempDir: filepath.Join(dir, "tmp")})
	require.NoError(t, err)
	doc := gjson.ParseBytes(c.Input[0])
	require.Equal(t, src, doc.Get("transcript_path").Str)
	require.Equal(t, "done", doc.Get("last_assistant_message").Str)

	ev.TranscriptPath = filepath.Join(dir, "missing.json")
	c, err = SpeakWith(provider.Claude, provider.Gemini, ev, Options{Now: now, TempDir: filepath.Join(dir, "tmp")})
	require.NoError(t, err)
	require.True(t, gapWith(c, "transcript could not be read: no such file or directory"), "%q", c.Gaps)
}

// The format of a transcript is named from its head, as from the whole,
// or not at all where the head does not tell.
func TestSniffTranscript(t *testing.T) {
	pad := func(n int) string {
		// A line of no message (Claude's summary lines): only filler.
		return `{"type":"summary","summary":"` + strings.Repeat("x", n) + `"}` + "\n"
	}
	claude := `{"type":"user","message":{"role":"user","content":"hi"}}` + "\n"
	codex := `{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}}` + "\n"
	msgs := `[{"type":"user","content":"hi"},{"type":"gemini","content":"` + strings.Repeat("y", headSize) + `"}]`
	for _, tc := range []struct {
		name, text, want string
		whole            bool // readTranscript names the same format
	}{
		{"claude, short", claude, formatClaude, true},
		{"claude, long", pad(100) + claude + pad(2*headSize), formatClaude, true},
		{"codex, long", codex + pad(2*headSize), formatCodex, true},
		{"gemini, short", `{"sessionId":"s","messages":[]}`, formatGemini, true},
		{"gemini indented, long", "{\n  \"sessionId\": \"s\",\n  \"messages\": " + msgs + "\n}\n", formatGemini, true},
		{"gemini on one line, long", `{"sessionId":"s","messages":` + msgs + "}\n", "", true},
		{"gemini, messages after the head", "{\n  \"x\": \"" + strings.Repeat("z", 2*headSize) + "\",\n  \"messages\": []\n}\n", "", false},
		{"first message after the head", pad(2*headSize) + claude, "", true},
		{"first line longer than the head", `{"type":"user","message":{"role":"user","content":"` + strings.Repeat("w", 2*headSize) + `"}}` + "\n", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t")
			require.NoError(t, os.WriteFile(path, []byte(tc.text), 0o600))
			got, err := sniffTranscript(path)
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
			if tc.whole && got != "" {
				_, format, err := readTranscript(path)
				require.NoError(t, err)
				require.Equal(t, got, format)
			}
		})
	}
	_, err := sniffTranscript(filepath.Join(t.TempDir(), "missing"))
	require.ErrorIs(t, err, os.ErrNotExist)
}

// A transcript already in the dialect's format is not read whole when
// only its format matters: Gemini's indented session file, longer than
// hookshim reads of a transcript, reaches a Gemini hook as it is and
// without a note.
func TestTranscriptInFormatNotRead(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "session.json")
	long := strings.Repeat("y", maxTranscript)
	text := "{\n  \"sessionId\": \"s\",\n  \"messages\": [\n    {\"type\": \"user\", \"content\": \"" + long + "\"}\n  ]\n}\n"
	require.NoError(t, os.WriteFile(src, []byte(text), 0o600))
	ev := &event.Event{Provider: "qwen-code", Native: "SessionStart", Name: event.SessionStart, SessionID: "s",
		Cwd: "/w", ProjectDir: "/w", TranscriptPath: src, Raw: []byte(`{}`)}
	c, err := SpeakWith(provider.Gemini, provider.Qwen, ev, Options{Now: now, TempDir: filepath.Join(dir, "tmp")})
	require.NoError(t, err)
	defer c.Cleanup()
	require.Equal(t, src, gjson.GetBytes(c.Input[0], "transcript_path").Str)
	require.False(t, gapWith(c, "transcript"), "%q", c.Gaps)
}

// Cursor's stop says how many Stops the hook's blocks started; a Claude
// hook's loop guard reads stop_hook_active.
func TestLoopGuard(t *testing.T) {
	for _, tc := range []struct {
		count string
		want  bool
	}{{"0", false}, {"2", true}} {
		ev := &event.Event{Provider: "cursor", Native: "stop", Name: event.AgentStop, SessionID: "s", Cwd: "/w", ProjectDir: "/w", Raw: []byte(`{}`),
			Fields: []event.Field{{Key: "loop_count", Value: []byte(tc.count)}}}
		doc, c := spoken(t, provider.Claude, provider.Cursor, ev)
		require.Equal(t, gjsonBool(tc.want), doc.Get("stop_hook_active").Raw)
		require.True(t, gapWith(c, "stop_hook_active (from loop_count)"))
	}
}

func gjsonBool(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// Amplifier sends no cwd or session: a Claude hook gets hookshim's working
// folder, a session id of the agent's process, and says so.
func TestFilledForAmplifier(t *testing.T) {
	ev := &event.Event{Provider: "amplifier", Native: "PreToolUse", Name: event.BeforeToolExecute, Raw: []byte(`{}`),
		Tool: &event.Tool{Name: event.ToolShell, Native: "bash", Input: []byte(`{"command":"ls"}`), Command: "ls"}}
	session := ProcessSession("amplifier", 42, "/w/p")
	require.Equal(t, session, ProcessSession("amplifier", 42, "/w/p"))
	require.NotEqual(t, session, ProcessSession("amplifier", 43, "/w/p"))
	require.Len(t, session, 36)
	c, err := SpeakWith(provider.Claude, provider.Lookup("amplifier"), ev, Options{Now: now, Wd: "/w/p", Session: session})
	require.NoError(t, err)
	doc := gjson.ParseBytes(c.Input[0])
	require.Equal(t, "/w/p", doc.Get("cwd").Str)
	require.Equal(t, session, doc.Get("session_id").Str)
	require.Contains(t, c.Env, "CLAUDE_PROJECT_DIR=/w/p")
	require.True(t, gapWith(c, "cwd (hookshim's working folder given instead)"), "%q", c.Gaps)
	require.True(t, gapWith(c, "session_id (one made up"), "%q", c.Gaps)
}

// The project folder is the root holding .git or the dialect's config
// folder, never the folder a command runs in (Windsurf's cwd), and never
// a home folder kept in git.
func TestProjectRoot(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	sub := filepath.Join(proj, "src", "deep")
	require.NoError(t, os.MkdirAll(sub, 0o755))
	require.NoError(t, os.Mkdir(filepath.Join(proj, ".claude"), 0o755))
	require.NoError(t, os.Mkdir(filepath.Join(home, ".git"), 0o755))
	ev := &event.Event{Provider: "windsurf", Native: "pre_run_command", Name: event.BeforeToolExecute, SessionID: "s",
		Cwd: sub, ProjectDir: sub, Raw: []byte(`{}`),
		Tool: &event.Tool{Name: event.ToolShell, Native: "run_command", Input: []byte(`{"command":"rm -rf x"}`), Command: "rm -rf x"}}
	c, err := SpeakWith(provider.Claude, provider.Windsurf, ev, Options{Now: now, Home: home})
	require.NoError(t, err)
	require.Contains(t, c.Env, "CLAUDE_PROJECT_DIR="+proj)
	require.Equal(t, sub, gjson.GetBytes(c.Input[0], "cwd").Str)

	// Without a marker below home, the caller's folder stays.
	other := filepath.Join(home, "other")
	require.NoError(t, os.Mkdir(other, 0o755))
	ev.Cwd, ev.ProjectDir = other, other
	c, err = SpeakWith(provider.Claude, provider.Windsurf, ev, Options{Now: now, Home: home})
	require.NoError(t, err)
	require.Contains(t, c.Env, "CLAUDE_PROJECT_DIR="+other)

	// A folder holding the project's hooks is the project, whatever a
	// folder above it holds (a stray .claude in /tmp, outside home).
	outside := t.TempDir()
	cfgProj := filepath.Join(outside, "run", "proj")
	require.NoError(t, os.MkdirAll(filepath.Join(cfgProj, "src"), 0o755))
	require.NoError(t, os.Mkdir(filepath.Join(outside, ".claude"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(cfgProj, ".openhook.json"), []byte(`{"hooks":[]}`), 0o644))
	for _, dir := range []string{cfgProj, filepath.Join(cfgProj, "src")} {
		ev.Cwd, ev.ProjectDir = dir, dir
		c, err = SpeakWith(provider.Claude, provider.Codex, ev, Options{Now: now, Home: home})
		require.NoError(t, err)
		require.Contains(t, c.Env, "CLAUDE_PROJECT_DIR="+cfgProj, "from %s", dir)
	}
}
