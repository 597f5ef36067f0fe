package journal

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func entry(id string) *Entry {
	return &Entry{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), ID: id, Provider: "claude-code", Native: "PreToolUse",
		Event: "before_tool_execute", Tool: "shell", Command: "ls", Decision: "none", Stdout: "{}"}
}

func TestWhere(t *testing.T) {
	env := map[string]string{"HOME": "/h"}
	getenv := func(k string) string { return env[k] }
	p, priv := Where("", getenv)
	assert.Equal(t, filepath.Join("/h", ".local", "state", "hookshim", FileName), p)
	assert.True(t, priv)
	env["XDG_STATE_HOME"] = "/s"
	p, _ = Where("", getenv)
	assert.Equal(t, filepath.Join("/s", "hookshim", FileName), p)
	env["HOOKSHIM_LOG"] = "/x.log"
	p, priv = Where("", getenv)
	assert.Equal(t, "/x.log", p)
	assert.False(t, priv)
	p, _ = Where("/flag.log", getenv)
	assert.Equal(t, "/flag.log", p, "--log wins over HOOKSHIM_LOG")
	for _, off := range []string{"off", "OFF", "0", "none", "false"} {
		env["HOOKSHIM_LOG"] = off
		p, priv = Where("", getenv)
		assert.Equal(t, "", p, off)
		assert.False(t, priv, off)
	}
}

func TestMaxSize(t *testing.T) {
	for in, want := range map[string]int64{"": DefaultMax, "100": 100, "64K": 64 << 10, "8m": 8 << 20, "1G": 1 << 30, "2MB": 2 << 20, "x": DefaultMax, "-3": DefaultMax} {
		assert.Equal(t, want, MaxSize(in), in)
	}
}

func decode(t *testing.T, line []byte) map[string]any {
	t.Helper()
	require.True(t, bytes.HasSuffix(line, []byte("\n")))
	var m map[string]any
	require.NoError(t, json.Unmarshal(line, &m), "%s", line)
	return m
}

func TestEncodeBounds(t *testing.T) {
	e := entry("a")
	e.Command = strings.Repeat("c", 5000)
	e.Stdout = strings.Repeat("é", 5000)
	e.ToolInput = json.RawMessage(`{"content":"` + strings.Repeat("x", 100000) + `","password":"hunter2"}`)
	for i := 0; i < 100; i++ {
		e.Notes = append(e.Notes, strings.Repeat("n", 2000))
		e.Hooks = append(e.Hooks, Hook{Name: fmt.Sprint("h", i), Pos: strings.Repeat("p", 500), Events: []string{"before_tool_execute"}})
		e.Runs = append(e.Runs, Run{Name: fmt.Sprint("h", i), Reason: strings.Repeat("r", 3000), Decision: "deny"})
	}
	line := Encode(e, []string{"tool_input.password"})
	assert.LessOrEqual(t, len(line), MaxRecord+1)
	m := decode(t, line)
	assert.Equal(t, "a", m["id"], "who and what survive")
	assert.Equal(t, "none", m["decision"])
	assert.Contains(t, m["command"], "…[+", "a cut field says so")
	assert.Contains(t, m["truncated"], "command")
	assert.NotContains(t, string(line), "hunter2", "a marked field is redacted before the input is cut")
}

func TestEncodeSmallInputStaysJSON(t *testing.T) {
	e := entry("b")
	e.ToolInput = json.RawMessage(`{"command":"ls","password":"pw1234","nested":{"api_key":"k"}}`)
	m := decode(t, Encode(e, []string{"tool_input.nested.api_key", "stdout", "no.such"}))
	in := m["tool_input"].(map[string]any)
	assert.Equal(t, "ls", in["command"])
	assert.Equal(t, Redacted, in["password"], "a field named password")
	assert.Equal(t, Redacted, in["nested"].(map[string]any)["api_key"])
	assert.Equal(t, Redacted, m["stdout"], "any record field the config marks")
	assert.Nil(t, m["truncated"])
}

func TestSecrets(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`"key sk-proj-abc123DEF456ghi789jkl"`, `"key [redacted]"`},
		{`"pip install sk-learn scikit-learn"`, `"pip install sk-learn scikit-learn"`},
		{`"ghp_0123456789abcdefghijABCDEFGHIJ012345"`, `"[redacted]"`},
		{`"github_pat_11ABCDEFG0123456789_abcdefghijklmnop"`, `"[redacted]"`},
		{`"AKIAIOSFODNN7EXAMPLE"`, `"[redacted]"`},
		{`"xoxb-1234-5678-abcdefghij"`, `"[redacted]"`},
		{`"Authorization: Bearer abc.def-123456"`, `"Authorization: Bearer [redacted]"`},
		{`"curl -u x -H 'Authorization: Basic dXNlcjpwYXNz'"`, `"curl -u x -H 'Authorization: Basic [redacted]'"`},
		{`"DB_PASSWORD=hunter2 make"`, `"DB_PASSWORD=[redacted] make"`},
		{`"export OPENAI_API_KEY=abc"`, `"export OPENAI_API_KEY=[redacted]"`},
		{`"X=Zm9vYmFyMTIzNDU2Nzg5MGFiY2RlZkdISUpL make"`, `"X=[redacted] make"`},
		{`"PATH=/usr/local/bin:/usr/bin GOFLAGS=-mod=mod"`, `"PATH=/usr/local/bin:/usr/bin GOFLAGS=-mod=mod"`},
		{`{"password":"hunter 2!","user":"bob"}`, `{"password":"[redacted]","user":"bob"}`},
		{`"{\"client_secret\":\"abc def\",\"x\":1}"`, `"{\"client_secret\":\"[redacted]\",\"x\":1}"`},
		{`"TOKEN=\"abc def\" run"`, `"TOKEN=\"[redacted]\" run"`},
		{`"line\nghp_0123456789abcdefghijABCDEFGHIJ012345"`, `"line\n[redacted]"`},
		{`"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"`, `"[redacted]"`},
		{`"git checkout 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39"`, `"git checkout 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39"`},
		{`{"tool":"token","decision":"deny"}`, `{"tool":"token","decision":"deny"}`},
		{`"max_tokens=4096"`, `"max_tokens=4096"`},
		{`"glpat-abcdefghij0123456789"`, `"[redacted]"`},
		{`"key=AIzaSyA1234567890abcdefghijklmnopqrstu"`, `"key=[redacted]"`},
		{`"hf_abcdefghijklmnopqrstuvwxyz0123456789"`, `"[redacted]"`},
		{`"npm_abcdefghijklmnopqrstuvwxyz0123456789"`, `"[redacted]"`},
		{`"pypi-AgEIcHlwaS5vcmcCJGFiY2RlZmdoLWlqa2wtbW5vcC1xcnN0"`, `"[redacted]"`},
		{`"ASIAIOSFODNN7EXAMPLE"`, `"[redacted]"`},
		{`"xoxp-1234-5678-abcdefghij"`, `"[redacted]"`},
		{`"the password: hunter2 then"`, `"the password: [redacted] then"`},
		{`{"apikey":"a1","access_key":"a2","private_key":"a3","credentials":"a4","passwd":"a5"}`, `{"apikey":"[redacted]","access_key":"[redacted]","private_key":"[redacted]","credentials":"[redacted]","passwd":"[redacted]"}`},
	} {
		got := string(Secrets([]byte(tc.in)))
		assert.Equal(t, tc.want, got, tc.in)
		if json.Valid([]byte(tc.in)) {
			assert.True(t, json.Valid([]byte(got)), "still JSON: %s", got)
		}
	}
}

func TestSecretsKeepsJSONValid(t *testing.T) {
	// Whatever the text, a redacted record is still one JSON document.
	inputs := []string{`"password":`, `password=`, `"token":"\"`, `Bearer `, `"secret": "` + strings.Repeat("a\\\"", 600) + `"`}
	for _, in := range inputs {
		e := entry("c")
		e.Command = in
		e.Stdout = in + in
		line := Encode(e, nil)
		assert.True(t, json.Valid(line), "%q: %s", in, line)
	}
}

func TestAppendRotateScan(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state", "hookshim", FileName)
	for i := 0; i < 30; i++ {
		require.NoError(t, Append(path, Encode(entry(fmt.Sprintf("id-%02d", i)), nil), 2000, true))
	}
	for _, g := range Generations(path) {
		st, err := os.Stat(g)
		if g == path && os.IsNotExist(err) {
			continue // the last call rotated it; the next creates it
		}
		require.NoError(t, err, g)
		assert.LessOrEqual(t, st.Size(), int64(2000+MaxRecord), g)
	}
	_, err := os.Stat(path + ".3")
	assert.True(t, os.IsNotExist(err), "only Keep generations are kept")
	var ids []string
	require.NoError(t, Scan(path, func(r *Record) bool { ids = append(ids, r.ID); return true }))
	require.NotEmpty(t, ids)
	assert.Equal(t, "id-29", ids[0], "newest first")
	for i := 1; i < len(ids); i++ {
		assert.Greater(t, ids[i-1], ids[i], "newest first, through the generations")
	}
	require.NoError(t, Check(path))
	require.NoError(t, os.Chmod(path+".1", 0o666))
	assert.Error(t, Check(path), "a log others may write is not read")
}

func TestAppendRefusesSharedFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "hookshim")
	require.NoError(t, os.MkdirAll(dir, 0o700))
	require.NoError(t, os.Chmod(dir, 0o777))
	err := Append(filepath.Join(dir, FileName), Encode(entry("x"), nil), 0, true)
	assert.ErrorContains(t, err, "not a directory only this user can write in")
	require.NoError(t, Append(filepath.Join(dir, "other.log"), Encode(entry("x"), nil), 0, false), "a log the user chose is written where they said")
}

func TestFind(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	for _, id := range []string{"abc-1", "abd-2", "abd-3"} {
		require.NoError(t, Append(path, Encode(entry(id), nil), 0, false))
	}
	os.WriteFile(path+".1", []byte("not a record\n{\"old\":\"format\"}\n"+string(Encode(entry("zzz-9"), nil))), 0o600)
	r, err := Find(path, "abc-1")
	require.NoError(t, err)
	assert.Equal(t, "abc-1", r.ID)
	r, err = Find(path, "abc")
	require.NoError(t, err, "a unique prefix")
	assert.Equal(t, "abc-1", r.ID)
	r, err = Find(path, "zzz")
	require.NoError(t, err, "in a rotated generation")
	assert.Equal(t, "zzz-9", r.ID)
	_, err = Find(path, "abd")
	var amb *AmbiguousError
	require.ErrorAs(t, err, &amb)
	assert.ElementsMatch(t, []string{"abd-2", "abd-3"}, amb.IDs)
	_, err = Find(path, "nope")
	var nf *NotFoundError
	require.ErrorAs(t, err, &nf)
}

func TestFollowAcrossRotation(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	require.NoError(t, Append(path, Encode(entry("before"), nil), 0, false))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a bound for a hang only
	defer cancel()
	var mu sync.Mutex
	var got []string
	seen := func(n int) func() bool {
		return func() bool {
			mu.Lock()
			defer mu.Unlock()
			return len(got) >= n
		}
	}
	done := make(chan error)
	go func() {
		done <- Follow(ctx, path, 10*time.Millisecond, func(r *Record) error {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, r.ID)
			if len(got) == 3 {
				cancel()
			}
			return nil
		})
	}()
	// Each record is appended once the follower has the one before: it
	// reads from where the file ended when it opened it, and polls.
	require.Eventually(t, func() bool { return opened(path) }, time.Minute, 5*time.Millisecond)
	require.NoError(t, Append(path, Encode(entry("one"), nil), 0, false))
	require.Eventually(t, seen(1), time.Minute, 5*time.Millisecond)
	require.NoError(t, Append(path, Encode(entry("two"), nil), 1, false)) // rotates
	require.Eventually(t, seen(2), time.Minute, 5*time.Millisecond)
	require.NoError(t, Append(path, Encode(entry("three"), nil), 0, false))
	require.NoError(t, <-done)
	assert.Equal(t, []string{"one", "two", "three"}, got, "only new records, across a rotation")
}

// opened reports whether this process has path open. Without /proc to
// tell, it waits a moment and says yes.
func opened(path string) bool {
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		time.Sleep(100 * time.Millisecond)
		return true
	}
	for _, fd := range fds {
		if target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && target == path {
			return true
		}
	}
	return false
}

func TestConcurrentAppend(t *testing.T) {
	// Goroutines here; TestConcurrentProcesses in internal/cli does the
	// same with real processes.
	path := filepath.Join(t.TempDir(), FileName)
	var wg sync.WaitGroup
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			e := entry(fmt.Sprint("id-", i))
			e.Stdout = strings.Repeat(fmt.Sprint(i%10), 3000)
			assert.NoError(t, Append(path, Encode(e, nil), 64<<10, false))
		}(i)
	}
	wg.Wait()
	n := 0
	for _, g := range Generations(path) {
		data, err := os.ReadFile(g)
		if os.IsNotExist(err) {
			continue
		}
		require.NoError(t, err)
		for _, l := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
			require.True(t, json.Valid(l), "a torn record: %.100s", l)
			n++
		}
	}
	// Rotation past Keep drops the oldest generation; what is kept is whole.
	assert.Greater(t, n, 40)
}

func TestCut(t *testing.T) {
	assert.Equal(t, "short", Cut("short", 10))
	s := Cut(strings.Repeat("é", 100), 50)
	assert.LessOrEqual(t, len(s), 50)
	assert.True(t, strings.HasSuffix(s, " bytes]"))
	assert.True(t, json.Valid([]byte(fmt.Sprintf("%q", s))))
}

// The record is written by hand (encode.go) and read with encoding/json:
// every field of a full entry comes back as it went in.
func TestEncodeRoundTrip(t *testing.T) {
	e := Entry{
		Time: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC), ID: "id", MS: 1.25, Provider: "cursor", Version: "1.7",
		Hint: "claude-code", Native: "preToolUse", Event: "before_tool_execute", Tool: "shell", NativeTool: "Shell",
		Command: "echo \"<&>\"\n\u2028", FilePath: "/f", ToolInput: json.RawMessage("{\n  \"command\": \"ls\"\n}"), Session: "s", Cwd: "/c",
		Keys: []string{"a", "b"},
		Detection: &Detection{Provider: "cursor", Hint: "claude-code", Overruled: true, Confidence: "likely", Why: "w",
			Score: 12, Signals: []string{"+10 x"}, RunnerUp: "claude-code", RunnerUpAt: 8, Doubt: "d"},
		Configs:  []Config{{Path: "/p", Trust: "allowed"}},
		NoConfig: "nc",
		Hooks:    []Hook{{Name: "h", Pos: "/p:1", Events: []string{"*"}, Matcher: "shell", Matched: true, Why: "y"}},
		Handlers: []string{"h"}, Call: "id", ReusedFrom: "r",
		Runs: []Run{{Name: "h", Pos: "/p:1", MS: 2.5, Exit: 2, Decision: "deny", Reason: "r", Context: "c", Rewrite: true,
			Error: "e", TimedOut: true, Async: true, Reused: true}},
		HandlerErrors: []string{"he"}, Decision: "deny", Reason: "why", Context: "ctx", Message: "m", Stop: true, Rewrite: true,
		Degraded: []string{"dg"}, Notes: []string{"n"}, Problems: []string{"p"}, Exit: 2, Stdout: "{}", Stderr: "err",
	}
	line := marshal(&e)
	require.True(t, json.Valid(line), "%s", line)
	require.NotContains(t, string(line), "\n", "one line")
	var back Entry
	require.NoError(t, json.Unmarshal(line, &back))
	assert.JSONEq(t, string(e.ToolInput), string(back.ToolInput))
	back.ToolInput = e.ToolInput
	assert.Equal(t, e, back)

	// The empty fields are left out, as omitempty would.
	min := marshal(&Entry{ID: "x", Decision: "none"})
	assert.Equal(t, `{"time":"0001-01-01T00:00:00Z","id":"x","ms":0,"decision":"none","exit":0,"stdout":""}`, string(min))
	// A tool input that is not JSON is kept as text.
	bad := marshal(&Entry{ID: "x", ToolInput: json.RawMessage(`{"a":`)})
	assert.Contains(t, string(bad), `"tool_input":"{\"a\":"`)
}

// secretName's first test, on the last letter, must let every name through.
func TestSecretNamesLastLetters(t *testing.T) {
	for _, n := range secretNames {
		if !strings.ContainsRune("dtnyls", rune(n[len(n)-1])) {
			t.Errorf("%q ends in a letter secretName does not look at", n)
		}
		if !secretName([]byte("MY_" + strings.ToUpper(n))) {
			t.Errorf("MY_%s is not taken for a secret name", strings.ToUpper(n))
		}
	}
}

// Every field that carries what the tool sent or a handler answered is
// scanned for secrets.
func TestEncodeScansToolAndHandlerFields(t *testing.T) {
	const tok = "ghp_0123456789abcdefghijABCDEFGHIJ012345"
	e := entry("s")
	e.Command, e.FilePath, e.Cwd, e.Session = "echo "+tok, tok, tok, tok
	e.ToolInput = json.RawMessage(`{"a":"` + tok + `"}`)
	e.Stdout, e.Stderr, e.Reason, e.Context, e.Message = tok, tok, tok, tok, tok
	e.NoConfig = "no config " + tok
	e.Notes, e.Problems, e.HandlerErrors, e.Degraded = []string{tok}, []string{tok}, []string{tok}, []string{tok}
	e.Runs = []Run{{Name: "h", Decision: "deny", Reason: tok, Context: tok, Error: tok}}
	line := Encode(e, nil)
	assert.NotContains(t, string(line), tok)
	assert.True(t, json.Valid(line), "%s", line)
	e = entry("t")
	e.ToolInput = json.RawMessage(`{"a":` + tok) // not JSON: kept as text
	assert.NotContains(t, string(Encode(e, nil)), tok)
}
