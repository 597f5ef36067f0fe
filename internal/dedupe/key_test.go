package dedupe

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

func canonical(b string) [sha256.Size]byte {
	h := sha256.New()
	writeCanonical(h, []byte(b))
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// Two spellings of one tool input are one key; two inputs are two.
func TestCanonicalSpellings(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{`{"b":1,"a":{"y":[1,"x"],"x":null}}`, `{ "a": {"x": null, "y": [1, "x"]}, "b": 1 }`},
		{`{"s":"\u00e9\/"}`, `{"s":"é/"}`},
		{`{"k":1,"k":2}`, `{"k":2}`},
		{`{"k\u0031":1}`, `{"k1":1}`},
		{`[{"b":2,"a":1},[]]`, `[ {"a":1, "b":2} , [ ] ]`},
		{`"a\"b"`, `"a\u0022b"`},
		{`{"q":"a\\"}`, `{"q":"a\u005c"}`},
		{`"\b\f\n\r\t\/"`, `"\u0008\u000c\u000a\u000d\u0009/"`},
		{`"\ud83d\ude00!"`, `"😀!"`},
		{`"\u00E9"`, `"\u00e9"`},
		{`"\ud83d x"`, `"\ufffd x"`}, // half a surrogate pair
		{`"\ud83d\u0041"`, `"\ufffdA"`},
		{`"\ud83d\ud83d\ude00"`, `"\ufffd😀"`},
		{`{"\u00e9":"\u00e9"}`, `{"é":"é"}`},
	} {
		require.Equal(t, canonical(c.a), canonical(c.b), "%s and %s", c.a, c.b)
	}
	for _, c := range []struct{ a, b string }{
		{`"a\nb"`, `"a\\nb"`},
		{`"\ud83d\ude00"`, `"\ude00\ud83d"`},
		{`{"a":1}`, `{"a":2}`},
		{`{"a":1}`, `{"b":1}`},
		{`{"a":1.0}`, `{"a":1}`}, // numbers count as sent
		{`{"a":"1"}`, `{"a":1}`},
		{`[1,2]`, `[2,1]`},
		{`[[1],2]`, `[[1,2]]`},
		{`{"a":{"b":1}}`, `{"a":{},"b":1}`},
		{`{"a":"x","b":"y"}`, `{"a":"xb","":"y"}`},
		{`{"a":[]}`, `{"a":{}}`},
		{`{"a":null}`, `{}`},
		{`not json`, `"not json"`},
		{`{"a":1`, `{"a":1}`},
	} {
		require.NotEqual(t, canonical(c.a), canonical(c.b), "%s and %s", c.a, c.b)
	}
}

// Deep nesting costs what its size costs: walking nested values level by
// level took minutes for 200 KB nested 100,000 deep.
func TestCanonicalDeepNestingIsLinear(t *testing.T) {
	const depth = 200_000
	arrays := strings.Repeat("[", depth) + strings.Repeat("]", depth)
	objects := strings.Repeat(`{"b":1,"a":`, depth) + "0" + strings.Repeat("}", depth)
	start := time.Now()
	canonical(arrays)
	canonical(objects)
	require.Less(t, time.Since(start), time.Minute, "quadratic takes hours here; linear, milliseconds")

	reordered := strings.Repeat(`{"a":`, depth) + `0,"b":1` + strings.Repeat(`,"b":1}`, depth-1) + "}"
	require.NotEqual(t, canonical(objects), canonical(reordered))
}

// A long string with escapes is decoded as it is hashed, never into a copy
// of its own: a tool's 10 MiB output used to be copied four times, each
// copy memory the process had not touched, and the call took 470 ms.
func TestCanonicalLongStringIsNotCopied(t *testing.T) {
	content := bytes.Repeat([]byte(`line with a \"quote\", a tab\t and \u00e9\n`), 10<<20/40)
	doc := append(append([]byte(`{"output":"`), content...), `"}`...)
	h := sha256.New()
	allocs := testing.AllocsPerRun(3, func() {
		h.Reset()
		writeCanonical(h, doc)
	})
	require.Less(t, allocs, 20.0, "a copy per escape or per string")
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	writeCanonical(h, doc)
	runtime.ReadMemStats(&ms)
	require.Less(t, ms.TotalAlloc-before, uint64(64<<10), "bytes allocated for a 10 MiB string")
}

func call(t *testing.T) Call {
	dir := t.TempDir()
	script := filepath.Join(dir, "guard.sh")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755))
	cfg := &config.File{Path: filepath.Join(dir, config.FileName), Content: []byte(`{"spec":"hooks/0.1","hooks":[]}`)}
	return Call{
		Provider: "claude-code",
		Event: &event.Event{Name: event.BeforeToolExecute, SessionID: "s1",
			Tool: &event.Tool{Name: "shell", Command: "ls", CallID: "toolu_1", Input: []byte(`{"command":"ls"}`)}},
		Hooks:   []*config.Hook{{Name: "guard", Pos: cfg.Path + ":3", Command: "./guard.sh"}},
		Configs: []*config.File{cfg},
		Files:   []string{script},
	}
}

// The policy in force is part of the key: a change the user just made is
// never answered from before it.
func TestKeyChangesWithThePolicy(t *testing.T) {
	c := call(t)
	base, window := Key(c)
	require.Equal(t, Window, window, "a call id names the call")
	again, _ := Key(c)
	require.Equal(t, base, again)

	edited := c
	edited.Configs = []*config.File{{Path: c.Configs[0].Path, Content: []byte(`{"spec":"hooks/0.1","hooks":[] }`)}}
	k, _ := Key(edited)
	require.NotEqual(t, base, k, "an edited config")

	later := time.Now().Add(time.Minute)
	require.NoError(t, os.Chtimes(c.Files[0], later, later))
	k, _ = Key(c)
	require.NotEqual(t, base, k, "an edited handler script")
	base = k

	require.NoError(t, os.WriteFile(c.Files[0], []byte("#!/bin/sh\nexit 0\n"), 0o755))
	require.NoError(t, os.Chtimes(c.Files[0], later, later))
	k, _ = Key(c)
	require.NotEqual(t, base, k, "a handler script of another size, with the same time")
	base = k

	require.NoError(t, os.Chmod(c.Files[0], 0o644))
	k, _ = Key(c)
	require.NotEqual(t, base, k, "a handler script made executable or not")
	base = k

	require.NoError(t, os.Remove(c.Files[0]))
	k, _ = Key(c)
	require.NotEqual(t, base, k, "a handler script removed")

	other := c
	other.Hooks = append([]*config.Hook{{Name: "log", Pos: c.Configs[0].Path + ":2", Command: "logger"}}, c.Hooks...)
	k2, _ := Key(other)
	require.NotEqual(t, k, k2, "other handlers matched")
}

// What the call is about: the same call under two spellings is one key;
// another call is another.
func TestKeyIdentifiesTheCall(t *testing.T) {
	c := call(t)
	base, _ := Key(c)

	spelled := c
	ev := *c.Event
	tool := *ev.Tool
	tool.Input = []byte(`{ "command" : "ls" }`)
	ev.Tool = &tool
	spelled.Event = &ev
	k, _ := Key(spelled)
	require.Equal(t, base, k, "the same input, spelled otherwise")

	for name, change := range map[string]func(e *event.Event){
		"another command":   func(e *event.Event) { e.Tool.Command = "ls -la" },
		"another session":   func(e *event.Event) { e.SessionID = "s2" },
		"another call id":   func(e *event.Event) { e.Tool.CallID = "toolu_2" },
		"another input":     func(e *event.Event) { e.Tool.Input = []byte(`{"command":"pwd"}`) },
		"another turn":      func(e *event.Event) { e.Fields = []event.Field{{Key: "turn_id", Value: []byte(`"t2"`)}} },
		"a prompt":          func(e *event.Event) { p := "hi"; e.Prompt = &p },
		"another event":     func(e *event.Event) { e.Name = event.AfterToolExecute },
		"no tool, only raw": func(e *event.Event) { e.Tool = nil; e.Raw = []byte(`{}`) },
	} {
		ev := *c.Event
		tool := *ev.Tool
		ev.Tool = &tool
		change(&ev)
		o := c
		o.Event = &ev
		k, _ := Key(o)
		require.NotEqual(t, base, k, name)
	}

	split := c
	split.SplitEvents = true
	_, window := Key(split)
	require.Equal(t, DigestWindow, window, "a tool that splits one call into events with their own ids")
}

// BenchmarkKey is the key of a call that runs one handler: a shell command,
// one config, the handler's script and the trust record stat'ed. (The
// claim itself: BenchmarkClaim.)
func BenchmarkKey(b *testing.B) {
	dir := b.TempDir()
	script := filepath.Join(dir, "guard.sh")
	record := filepath.Join(dir, "allow")
	for _, p := range []string{script, record} {
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	cfg := &config.File{Path: filepath.Join(dir, config.FileName), Content: bytes.Repeat([]byte(`{"name":"guard","event":"before_tool_execute"},`), 20)}
	c := Call{
		Provider: "claude-code",
		Event: &event.Event{Name: event.BeforeToolExecute, SessionID: "5c1e4a0e-8f0e-4c1e-9a4b-2a4f5c0e9b1d",
			Tool: &event.Tool{Name: "shell", Command: "rm -rf /", CallID: "toolu_01ABC",
				Input: []byte(`{"command":"rm -rf /","description":"Clean everything","timeout":120000}`)}},
		Hooks:   []*config.Hook{{Name: "guard", Pos: cfg.Path + ":3", Command: "./guard.sh"}},
		Configs: []*config.File{cfg},
		Files:   []string{script, record},
	}
	b.Run("with-files", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Key(c)
		}
	})
	// What the two stats cost: the difference.
	c.Files = nil
	b.Run("without-files", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Key(c)
		}
	})
}

// BenchmarkKeyLargeInput is the key of a 10 MiB tool input (a file write).
func BenchmarkKeyLargeInput(b *testing.B) {
	content := bytes.Repeat([]byte(`line of a file with a \"quote\" and a tab\t`), 10<<20/44)
	input := append(append([]byte(`{"file_path":"/p/x.go","content":"`), content...), `"}`...)
	c := Call{Provider: "claude-code", Event: &event.Event{Name: event.BeforeToolExecute,
		Tool: &event.Tool{Name: "file_write", FilePath: "/p/x.go", Input: input}}}
	b.SetBytes(int64(len(input)))
	for b.Loop() {
		Key(c)
	}
}

// Two calls that differ in any field are two keys, with a call id or
// without one: a duplicate is never answered by a call that merely looks
// like it (a force push to main answered with the "no opinion" given to
// the same command on a feature branch).
func TestKeyHoldsEverythingTheCallIsAbout(t *testing.T) {
	// Gemini CLI sends no call id: the payload is all there is.
	raw := `{"session_id":"19b5552b","transcript_path":"/h/.gemini/tmp/p/chats/s.jsonl","cwd":"/home/dev/feature","hook_event_name":"BeforeTool","timestamp":"2026-11-22T08:14:16.912Z","tool_name":"run_shell_command","tool_input":{"command":"git push --force","description":"push"}}`
	gemini := func() *event.Event {
		return &event.Event{Provider: "gemini-cli", Native: "BeforeTool", Name: event.BeforeToolExecute,
			SessionID: "19b5552b", Cwd: "/home/dev/feature", ProjectDir: "/home/dev/feature",
			TranscriptPath: "/h/.gemini/tmp/p/chats/s.jsonl",
			Tool: &event.Tool{Name: "shell", Native: "run_shell_command", Command: "git push --force",
				Input: []byte(`{"command":"git push --force","description":"push"}`)},
			Raw: []byte(raw)}
	}
	changes := map[string]func(e *event.Event){
		"another folder (main's worktree)": func(e *event.Event) { e.Cwd = "/home/dev/main" },
		"another project folder":           func(e *event.Event) { e.ProjectDir = "/home/dev/main" },
		"another transcript":               func(e *event.Event) { e.TranscriptPath = "/h/other.jsonl" },
		"another model":                    func(e *event.Event) { e.Model = "gemini-2.5-pro" },
		"another native event":             func(e *event.Event) { e.Native = "AfterTool" },
		"another native tool":              func(e *event.Event) { e.Tool.Native = "shell" },
		"an MCP server":                    func(e *event.Event) { e.Tool.MCP = &event.MCP{Server: "git", Tool: "push"} },
		"another file":                     func(e *event.Event) { e.Tool.FilePath = "x" },
		"an input key hookshim does not read": func(e *event.Event) {
			e.Tool.Input = []byte(`{"command":"git push --force","description":"push","dir_path":"main"}`)
		},
		"a tool output":     func(e *event.Event) { e.Tool.Output = []byte(`"ok"`) },
		"a tool error":      func(e *event.Event) { e.Tool.Error = []byte(`"failed"`) },
		"an extra field":    func(e *event.Event) { e.Fields = []event.Field{{Key: "branch", Value: []byte(`"main"`)}} },
		"another extra key": func(e *event.Event) { e.Fields = []event.Field{{Key: "stop_hook_active", Value: []byte(`true`)}} },
		"payload only: a field hookshim does not read": func(e *event.Event) {
			e.Raw = []byte(strings.Replace(raw, `"cwd"`, `"branch":"main","cwd"`, 1))
		},
		"payload only: another timestamp": func(e *event.Event) {
			e.Raw = []byte(strings.Replace(raw, "16.912Z", "17.001Z", 1))
		},
	}
	for _, callID := range []string{"", "toolu_01"} {
		key := func(change func(e *event.Event)) string {
			ev := gemini()
			ev.Tool.CallID = callID
			if change != nil {
				change(ev)
			}
			k, _ := Key(Call{Provider: "gemini-cli", Event: ev})
			return k
		}
		base := key(nil)
		require.Equal(t, base, key(func(e *event.Event) {
			e.Raw = []byte(strings.Replace(raw, `"cwd":`, ` "cwd" : `, 1))
		}), "the same payload, spelled otherwise, call id %q", callID)
		for name, change := range changes {
			if callID != "" && strings.HasPrefix(name, "payload only") {
				continue // with an id, the id and what hookshim reads name the call
			}
			require.NotEqual(t, base, key(change), "%s, call id %q", name, callID)
		}
	}
}

// The key decodes a string as gjson does: every spelling of one value,
// escaped or not, is that value.
func FuzzDecodeIsGjsonsValue(f *testing.F) {
	for _, s := range []string{"", "plain", "a\nb\t\"c\\", "é😀", "\x01\x1f", "\\u0041", "line\n" + strings.Repeat("x", 300)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			t.Skip()
		}
		var esc strings.Builder // every character as \u escapes
		esc.WriteByte('"')
		for _, r := range s {
			if r > 0xffff {
				hi, lo := utf16.EncodeRune(r)
				fmt.Fprintf(&esc, `\u%04x\u%04x`, hi, lo)
				continue
			}
			fmt.Fprintf(&esc, `\u%04X`, r)
		}
		esc.WriteByte('"')
		plain, err := json.Marshal(s)
		require.NoError(t, err)
		for _, q := range [][]byte{plain, []byte(esc.String())} {
			var got []byte
			decode(q[1:len(q)-1], func(p []byte) { got = append(got, p...) })
			require.Equal(t, gjson.ParseBytes(q).Str, string(got), "%s", q)
			require.Equal(t, canonical(string(plain)), canonical(string(q)), "%s", q)
		}
	})
}
