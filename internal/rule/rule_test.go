package rule

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func shellEvent(cmd string) *event.Event {
	return &event.Event{Name: event.BeforeToolExecute, Native: "PreToolUse", Provider: "claude-code",
		Cwd: "/home/u/proj", ProjectDir: "/home/u/proj", SessionID: "s1",
		Tool: &event.Tool{Name: "shell", Native: "Bash", Command: cmd, Input: []byte(`{"command":` + quote(cmd) + `,"timeout":120000}`)}}
}

func fileEvent(tool, p string) *event.Event {
	return &event.Event{Name: event.BeforeToolExecute, Provider: "gemini-cli", Cwd: "/home/u/proj",
		Tool: &event.Tool{Name: tool, Native: "write_file", FilePath: p, Input: []byte(`{"file_path":` + quote(p) + `}`)}}
}

func quote(s string) string {
	b := []byte{'"'}
	for _, c := range []byte(s) {
		if c == '"' || c == '\\' {
			b = append(b, '\\')
		}
		b = append(b, c)
	}
	return string(append(b, '"'))
}

// matchCases are expressions with a call each is true or false for.
var matchCases = func() []struct {
	expr string
	ev   *event.Event
	want bool
} {
	prompt := "here is my key AKIAABCDEFGHIJKLMNOP, deploy"
	promptEv := &event.Event{Name: event.BeforePrompt, Provider: "codex", Prompt: &prompt}
	return []struct {
		expr string
		ev   *event.Event
		want bool
	}{
		{`tool == "shell"`, shellEvent("ls"), true},
		{`tool == 'shell' && command contains 'rm -rf /'`, shellEvent("ls && rm -rf /"), true},
		{`command contains 'rm -rf /'`, shellEvent("rm -rf ./build"), false},
		// Regular expressions in backquotes need no second escaping.
		{"command matches `rm\\s+-rf\\s+/(\\s|$)`", shellEvent("rm  -rf /"), true},
		{"command matches `rm\\s+-rf\\s+/(\\s|$)`", shellEvent("rm -rf /tmp/x"), false},
		{`command matches "git\\s+push"`, shellEvent("git  push"), true},
		{`command matches '"quoted"'`, shellEvent(`echo "quoted"`), true},
		{`command == "echo \"hi\""`, shellEvent(`echo "hi"`), true},
		{`input.timeout > 60000`, shellEvent("make"), true},
		{`input.missing == nil`, shellEvent("make"), true},
		{`provider == "claude-code" && native_event == "PreToolUse" && native_tool == "Bash"`, shellEvent("x"), true},
		{`session_id == "s1" && cwd == project_dir`, shellEvent("x"), true},
		{`file_path endsWith ".env"`, shellEvent("cat .env"), false},
		{`path == "migrations/001.sql" && file_path == "/home/u/proj/migrations/001.sql"`, fileEvent("file_write", "/home/u/proj/migrations/001.sql"), true},
		{`glob(path, "migrations/**")`, fileEvent("file_write", "/home/u/proj/migrations/001.sql"), true},
		{`glob(path, "migrations/**")`, fileEvent("file_write", "/home/u/proj/src/migrations.go"), false},
		{`glob(path, "src/**/*.go")`, fileEvent("file_edit", "/home/u/proj/src/a/b/c.go"), true},
		{`glob(path, "src/**/*.go")`, fileEvent("file_edit", "/home/u/proj/src/c.go"), true},
		{`glob(path, "src/**/*.go")`, fileEvent("file_edit", "/home/u/proj/src/c.go.bak"), false},
		{`glob(path, "/etc/*")`, fileEvent("file_write", "/etc/passwd"), true},
		{`base(path) startsWith ".env"`, fileEvent("file_read", "/home/u/proj/config/.env.local"), true},
		{`tool in ["file_write", "file_edit"]`, fileEvent("file_write", "a"), true},
		{`any(paths, glob(#, "**/package-lock.json"))`, fileEvent("file_write", "/home/u/proj/web/package-lock.json"), true},
		{`prompt matches "AKIA[0-9A-Z]{16}"`, promptEv, true},
		{`prompt matches "AKIA[0-9A-Z]{16}"`, shellEvent("x"), false},
		{`event == "before_prompt" && tool == ""`, promptEv, true},
		{`len(paths) == 0 && len(input) == 0`, promptEv, true},
	}
}()

func TestMatch(t *testing.T) {
	for _, c := range matchCases {
		r, err := Compile(c.expr)
		require.NoError(t, err, c.expr)
		got, err := r.Match(NewEnv(c.ev))
		require.NoError(t, err, c.expr)
		assert.Equal(t, c.want, got, c.expr)
	}
}

func TestCompileErrors(t *testing.T) {
	for _, c := range []struct {
		expr   string
		offset int
		msg    string
	}{
		{`command == 1`, 8, "mismatched types string and int"},
		{`comand == "x"`, 0, "unknown name comand"},
		{`tool == "shell" &&`, 17, "unexpected token EOF"},
		{`command matches "(unclosed"`, 16, "missing closing )"},
		{`glob(path, "[a-")`, 11, "malformed pattern"},
		{`glob(path)`, 0, "not enough arguments"},
		{`"shell"`, 0, "expected bool"},
		// The name a constant regular expression is compiled to takes no string.
		{`$matches(command, "x")`, 18, "cannot use string"},
	} {
		_, err := Compile(c.expr)
		var e *Error
		require.True(t, errors.As(err, &e), "%s: %v", c.expr, err)
		assert.Equal(t, c.offset, e.Offset, c.expr)
		assert.Contains(t, e.Msg, c.msg, c.expr)
	}
}

func TestGlob(t *testing.T) {
	for _, c := range []struct {
		name, pattern string
		want          bool
	}{
		{"a/b/c", "a/**", true},
		{"a", "a/**", true},
		{"a/b/c", "**/c", true},
		{"c", "**/c", true},
		{"a/b/c", "**", true},
		{"a/b/c", "a/*/c", true},
		{"a/b/x/c", "a/*/c", false},
		{"a/b/x/c", "a/**/c", true},
		{"a/b/c.go", "**/*.go", true},
		{"a/b/c.go", "*.go", false},
		{"a/x/b/y/c", "a/**/b/**/c", true},
		{"a/x/b/y/d", "a/**/b/**/c", false},
		{"/etc/passwd", "/etc/*", true},
	} {
		assert.Equal(t, c.want, Glob(c.name, c.pattern), "%s ~ %s", c.name, c.pattern)
	}
}

// A long path against many `**` stays linear per pattern element.
func TestGlobLinear(t *testing.T) {
	name := ""
	for range 2000 {
		name += "a/"
	}
	pat := ""
	for range 50 {
		pat += "**/a/"
	}
	assert.False(t, Glob(name+"b", pat+"c"))
}

// The names expressions see are the expr tags of Env, one for one.
func TestVarsMatchTags(t *testing.T) {
	typ := reflect.TypeOf(Env{})
	var tags []string
	for i := range typ.NumField() {
		if tag := typ.Field(i).Tag.Get("expr"); tag != "" && tag != "-" {
			tags = append(tags, tag)
		}
	}
	var names []string
	for k := range (&Env{}).vars() {
		names = append(names, k)
	}
	assert.ElementsMatch(t, tags, names)
}

// expr's memory budget stops an expression that builds a huge list.
func TestMemoryBudget(t *testing.T) {
	r, err := Compile(`len(1..2000000) > 0`)
	require.NoError(t, err)
	_, err = r.Match(NewEnv(shellEvent("ls")))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "memory budget exceeded")
}

// The tool input an expression sees as input is what encoding/json makes
// of it.
func TestInputDecodedAsEncodingJSON(t *testing.T) {
	for _, in := range []string{
		`{"command":"ls","timeout":600000,"n":1.5e3,"neg":-0.25,"big":12345678901234567890}`,
		`{"a":{"b":[1,"x",true,null,{"c":"\u00e9\n\"q\""}]},"e":[],"o":{}}`,
		`{"dup":1,"dup":2}`,
		`{ "spaced" : [ 1 , 2 ] }`,
	} {
		var want map[string]any
		require.NoError(t, json.Unmarshal([]byte(in), &want))
		ev := shellEvent("ls")
		ev.Tool.Input = []byte(in)
		assert.Equal(t, want, NewEnv(ev).Input, in)
	}
	for _, bad := range []string{`{"a":`, `[1,2]`, `"s"`, `nope`} {
		ev := shellEvent("ls")
		ev.Tool.Input = []byte(bad)
		assert.Equal(t, map[string]any{}, NewEnv(ev).Input, bad)
	}
}
