package dialect

import (
	"strings"
	"testing"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// fileEvent is a file tool call of caller, working in /w.
func fileEvent(caller *provider.Provider, canonical, native, input string) *event.Event {
	return &event.Event{Provider: caller.ID, Native: "x", Name: event.BeforeToolExecute,
		SessionID: "s", Cwd: "/w", ProjectDir: "/w", Raw: []byte(`{}`),
		Tool: &event.Tool{Name: canonical, Native: native, Input: []byte(input)}}
}

// What a hook written for Claude Code sees of every tool's writes: Write
// with content for a new file, Edit or MultiEdit for changes, in Claude's
// keys, absolute paths; a call of several files has the others in
// hookshim_more_files.
func TestWritesAsClaudeSeesThem(t *testing.T) {
	for _, tc := range []struct {
		name   string
		caller *provider.Provider
		ev     *event.Event
		tool   string
		input  string
		more   string // hookshim_more_files, "" for none
	}{
		{
			name: "codex apply_patch", caller: provider.Codex,
			ev: fileEvent(provider.Codex, event.ToolFileEdit, "apply_patch",
				`{"command":"*** Begin Patch\n*** Add File: .env\n+TOKEN=ghp_x\n*** Update File: a.go\n@@\n-x\n+y\n@@\n-p\n+q\n*** End Patch"}`),
			tool:  "Write",
			input: `{"file_path":"/w/.env","content":"TOKEN=ghp_x\n"}`,
			more:  `[{"tool_name":"MultiEdit","tool_input":{"file_path":"/w/a.go","edits":[{"old_string":"x","new_string":"y"},{"old_string":"p","new_string":"q"}]}}]`,
		},
		{
			name: "opencode edit", caller: provider.Lookup("opencode"),
			ev:    fileEvent(provider.Lookup("opencode"), event.ToolFileEdit, "edit", `{"filePath":"src/a.ts","oldString":"a","newString":"SECRET","replaceAll":true}`),
			tool:  "Edit",
			input: `{"file_path":"/w/src/a.ts","old_string":"a","new_string":"SECRET","replace_all":true}`,
		},
		{
			name: "kiro ide fs_write", caller: provider.Kiro,
			ev:    fileEvent(provider.Kiro, event.ToolFileWrite, "fs_write", `{"path":"/w/k.txt","text":"SECRET"}`),
			tool:  "Write",
			input: `{"file_path":"/w/k.txt","content":"SECRET"}`,
		},
		{
			name: "windsurf edits", caller: provider.Windsurf,
			ev:    fileEvent(provider.Windsurf, event.ToolFileEdit, "write_code", `{"file_path":"/w/w.py","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"SECRET"}]}`),
			tool:  "MultiEdit",
			input: `{"file_path":"/w/w.py","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"SECRET"}]}`,
		},
		{
			name: "windsurf new file", caller: provider.Windsurf,
			ev:    fileEvent(provider.Windsurf, event.ToolFileEdit, "write_code", `{"file_path":"/w/n.py","edits":[{"old_string":"","new_string":"SECRET"}]}`),
			tool:  "Write",
			input: `{"file_path":"/w/n.py","content":"SECRET"}`,
		},
		{
			name: "cline replace_in_file", caller: provider.Cline,
			ev:    fileEvent(provider.Cline, event.ToolFileEdit, "replace_in_file", `{"path":"c.ts","diff":"------- SEARCH\na\n=======\nSECRET\n+++++++ REPLACE\n"}`),
			tool:  "Edit",
			input: `{"file_path":"/w/c.ts","old_string":"a","new_string":"SECRET"}`,
		},
		{
			name: "vscode multi_replace", caller: provider.VSCode,
			ev: fileEvent(provider.VSCode, event.ToolFileEdit, "multi_replace_string_in_file",
				`{"replacements":[{"filePath":"/w/a","oldString":"1","newString":"2"},{"filePath":"/w/b","oldString":"3","newString":"SECRET"}]}`),
			tool:  "Edit",
			input: `{"file_path":"/w/a","old_string":"1","new_string":"2"}`,
			more:  `[{"tool_name":"Edit","tool_input":{"file_path":"/w/b","old_string":"3","new_string":"SECRET"}}]`,
		},
		{
			name: "copilot create", caller: provider.Copilot,
			ev:    fileEvent(provider.Copilot, event.ToolFileWrite, "create", `{"path":"/w/x","file_text":"SECRET"}`),
			tool:  "Write",
			input: `{"file_path":"/w/x","content":"SECRET"}`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, c := spoken(t, provider.Claude, tc.caller, tc.ev)
			require.Equal(t, tc.tool, doc.Get("tool_name").Str)
			require.JSONEq(t, tc.input, doc.Get("tool_input").Raw)
			if tc.more == "" {
				require.False(t, doc.Get("hookshim_more_files").Exists())
			} else {
				require.JSONEq(t, tc.more, doc.Get("hookshim_more_files").Raw)
				require.True(t, gapWith(c, "hookshim_more_files"), "%q", c.Gaps)
			}
		})
	}
}

// Other dialects get the same calls in their own tools and keys: Gemini
// CLI's write_file and replace, VS Code's camelCase, Codex's patch.
func TestWritesInOtherDialects(t *testing.T) {
	oc := provider.Lookup("opencode")
	edit := fileEvent(oc, event.ToolFileEdit, "edit", `{"filePath":"a.ts","oldString":"a","newString":"b"}`)
	doc, _ := spoken(t, provider.Gemini, oc, edit)
	require.Equal(t, "replace", doc.Get("tool_name").Str)
	require.JSONEq(t, `{"file_path":"/w/a.ts","old_string":"a","new_string":"b"}`, doc.Get("tool_input").Raw)

	doc, _ = spoken(t, provider.VSCode, oc, edit)
	require.JSONEq(t, `{"filePath":"/w/a.ts","oldString":"a","newString":"b"}`, doc.Get("tool_input").Raw)

	doc, _ = spoken(t, provider.Codex, oc, edit)
	require.Equal(t, "apply_patch", doc.Get("tool_name").Str)
	require.Equal(t, "*** Begin Patch\n*** Update File: /w/a.ts\n@@\n-a\n+b\n*** End Patch\n", doc.Get("tool_input.command").Str)

	// A patch reaches a tool whose apply_patch takes a patch as its edit
	// and create tools, in their keys.
	codex := fileEvent(provider.Codex, event.ToolFileEdit, "apply_patch", `{"command":"*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** Add File: b\n+z\n*** End Patch"}`)
	doc, c := spoken(t, provider.Copilot, provider.Codex, codex)
	require.Equal(t, "edit", doc.Get("toolName").Str)
	require.JSONEq(t, `{"path":"/w/a","old_str":"x","new_str":"y"}`, doc.Get("toolArgs").Raw)
	more := gjson.ParseBytes(c.More[0][0])
	require.Equal(t, "create", more.Get("toolName").Str)
	require.JSONEq(t, `{"path":"/w/b","file_text":"z\n"}`, more.Get("toolArgs").Raw)

	kiro := fileEvent(provider.Kiro, event.ToolFileWrite, "fs_write", `{"path":"k","text":"T"}`)
	doc, _ = spoken(t, provider.Gemini, provider.Kiro, kiro)
	require.Equal(t, "write_file", doc.Get("tool_name").Str)
	require.JSONEq(t, `{"file_path":"/w/k","content":"T"}`, doc.Get("tool_input").Raw)

	// Several edits where the dialect has no MultiEdit: the first as the
	// edit, all in edits.
	ws := fileEvent(provider.Windsurf, event.ToolFileEdit, "write_code", `{"file_path":"/w/w","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"d"}]}`)
	doc, _ = spoken(t, provider.Gemini, provider.Windsurf, ws)
	require.Equal(t, "replace", doc.Get("tool_name").Str)
	require.Equal(t, "a", doc.Get("tool_input.old_string").Str)
	require.Equal(t, "b", doc.Get("tool_input.new_string").Str)
	require.Equal(t, int64(2), doc.Get("tool_input.edits.#").Int())
}

// A rewrite of a call that reached the hook in another shape cannot be
// put back: the call is put to the user instead of the rewrite being
// lost. A rewrite of renamed keys goes back in the caller's.
func TestRewriteOfConvertedCall(t *testing.T) {
	ev := fileEvent(provider.Codex, event.ToolFileEdit, "apply_patch", `{"command":"*** Begin Patch\n*** Add File: .env\n+T=1\n*** End Patch"}`)
	c, err := Speak(provider.Claude, provider.Codex, ev, now)
	require.NoError(t, err)
	out, err := c.Read(0, []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"file_path":"/w/.env","content":"T=<redacted>"}}}`), "")
	require.NoError(t, err)
	require.Equal(t, decision.Ask, out.Decision)
	require.Nil(t, out.UpdatedInput)
	require.Contains(t, out.Reason, "cannot be put back")

	oc := provider.Lookup("opencode")
	edit := fileEvent(oc, event.ToolFileEdit, "edit", `{"filePath":"a.ts","oldString":"a","newString":"b"}`)
	c, err = Speak(provider.Claude, oc, edit, now)
	require.NoError(t, err)
	out, err = c.Read(0, []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"file_path":"/w/a.ts","old_string":"a","new_string":"c"}}}`), "")
	require.NoError(t, err)
	require.JSONEq(t, `{"filePath":"/w/a.ts","oldString":"a","newString":"c"}`, string(out.UpdatedInput))
}

// A Claude hook registered for Write runs for a patch that adds a file.
func TestToolNamesOfAPatch(t *testing.T) {
	ev := fileEvent(provider.Codex, event.ToolFileEdit, "apply_patch", `{"command":"*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** Add File: b\n+z\n*** End Patch"}`)
	require.Equal(t, []string{"Edit", "Write"}, ToolNames(provider.Claude, ev.Tool))
	require.Equal(t, []string{"Bash"}, ToolNames(provider.Claude, &event.Tool{Name: event.ToolShell, Native: "run_shell_command", Input: []byte(`{"command":"ls"}`)}))
}

// An unreadable patch still names its files.
func TestUnreadablePatch(t *testing.T) {
	ev := fileEvent(provider.Codex, event.ToolFileEdit, "apply_patch", `{"command":"*** Begin Patch\n*** Update File: a\n@@\n?bad\n*** Add File: .env\n+T\n"}`)
	doc, c := spoken(t, provider.Claude, provider.Codex, ev)
	require.Equal(t, "/w/a", doc.Get("tool_input.file_path").Str)
	require.Equal(t, "/w/.env", doc.Get("hookshim_more_files.0.tool_input.file_path").Str)
	require.True(t, gapWith(c, "could not be read"), "%q", c.Gaps)
}

// gapWith reports whether one of the call's gaps says s.
func gapWith(c *Call, s string) bool {
	for _, g := range c.Gaps {
		if strings.Contains(g, s) {
			return true
		}
	}
	return false
}

// A call of several files gives the handler one payload per file.
func TestOnePayloadPerFile(t *testing.T) {
	ev := fileEvent(provider.Codex, event.ToolFileEdit, "apply_patch", `{"command":"*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** Add File: .env\n+T=1\n*** Delete File: old\n*** End Patch"}`)
	c, err := Speak(provider.Claude, provider.Codex, ev, now)
	require.NoError(t, err)
	require.Len(t, c.More, 2)
	second := gjson.ParseBytes(c.More[0][0])
	require.Equal(t, "Write", second.Get("tool_name").Str)
	require.Equal(t, "T=1\n", second.Get("tool_input.content").Str)
	require.False(t, second.Get("hookshim_more_files").Exists())
	third := gjson.ParseBytes(c.More[1][0])
	require.Equal(t, "/w/old", third.Get("tool_input.file_path").Str)
	require.True(t, third.Get("tool_input.hookshim_delete").Bool())
}

// FuzzFileCalls: any tool input of a file tool is read and written in
// every dialect without a panic, and each call names a file.
func FuzzFileCalls(f *testing.F) {
	f.Add(`{"command":"*** Begin Patch\n*** Add File: a\n+x\n*** End Patch"}`, true)
	f.Add(`{"path":"p","diff":"------- SEARCH\na\n=======\nb\n+++++++ REPLACE"}`, false)
	f.Add(`{"file_path":"p","edits":[{"old_string":"","new_string":"x"},{"oldString":1}]}`, false)
	f.Add(`{"replacements":[{"filePath":"a"},{"filePath":"a","oldString":"x"},3]}`, false)
	f.Fuzz(func(t *testing.T, input string, write bool) {
		if !gjson.Valid(input) {
			return // a payload is valid JSON before it is read
		}
		name := event.ToolFileEdit
		if write {
			name = event.ToolFileWrite
		}
		tool := &event.Tool{Name: name, Native: "x", Input: []byte(input)}
		v := viewFiles(tool, nil, "/w")
		if v == nil {
			return
		}
		if len(v.calls) == 0 {
			return
		}
		for _, d := range provider.Commanded() {
			for _, s := range speakFiles(d, tool, v) {
				if !gjson.ValidBytes(s.input) {
					t.Fatalf("%s: not JSON: %s", d.ID, s.input)
				}
			}
		}
	})
}

// FuzzTranscriptLine: any line of a transcript is read without a panic.
func FuzzTranscriptLine(f *testing.F) {
	for _, tc := range transcripts {
		for _, l := range strings.Split(tc.text, "\n") {
			f.Add(l)
		}
	}
	f.Fuzz(func(t *testing.T, line string) {
		if !gjson.Valid(line) {
			return
		}
		tr, _, ok := lineTurn(gjson.Parse(line))
		if ok {
			out := claudeJSONL([]turn{tr}, "s", "/w", func(s string) string { return s })
			if !gjson.ValidBytes(out[:len(out)-1]) {
				t.Fatalf("not JSON: %s", out)
			}
		}
	})
}

// A moved file is judged at its new path too; a patch for Codex keeps the
// move as one file.
func TestMovedFile(t *testing.T) {
	ev := fileEvent(provider.VSCode, event.ToolFileEdit, "apply_patch", `{"input":"*** Begin Patch\n*** Update File: a.ts\n*** Move to: .env\n@@\n-x\n+y\n*** End Patch"}`)
	c, err := Speak(provider.Claude, provider.VSCode, ev, now)
	require.NoError(t, err)
	require.Len(t, c.More, 1)
	moved := gjson.ParseBytes(c.More[0][0])
	require.Equal(t, "/w/.env", moved.Get("tool_input.file_path").Str)
	require.Equal(t, "/w/a.ts", moved.Get("tool_input.hookshim_moved_from").Str)
	doc, _ := spoken(t, provider.Codex, provider.VSCode, ev)
	require.Equal(t, "*** Begin Patch\n*** Update File: /w/a.ts\n*** Move to: /w/.env\n@@\n-x\n+y\n*** End Patch\n", doc.Get("tool_input.command").Str)
}
