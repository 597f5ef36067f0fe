package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/stretchr/testify/require"
)

// A handler that cannot be started is a failure that names what is wrong
// and the fix, in the words of config's check (what allow, status and
// doctor say), and nothing is run in its place.
func TestNotStarted(t *testing.T) {
	for _, c := range []struct {
		name, command string
		files         map[string]string // path: content; a "+x" suffix on the path makes it executable
		want, hint    string
	}{
		{"not executable", "./hooks/x.sh", map[string]string{"hooks/x.sh": "#!/bin/sh\necho '{}'\n"},
			"hooks/x.sh is not executable", "chmod +x hooks/x.sh"},
		{"missing", "./hooks/x.sh", nil,
			"hooks/x.sh does not exist", "create hooks/x.sh"},
		{"a directory", "./hooks", map[string]string{"hooks/keep": ""},
			"hooks is a folder, not a program", "name the program to run in the command"},
		{"interpreter missing", "./x.sh", map[string]string{"x.sh+x": "#!/nonexistent/bin/python9 -u\nprint()\n"},
			"x.sh starts with #!/nonexistent/bin/python9, which does not exist", "install python9"},
		{"#! line with CR", "./x.sh", map[string]string{"x.sh+x": "#!/bin/sh\r\necho '{}'\r\n"},
			"x.sh has Windows (CRLF) line endings: its #! line ends in a carriage return", "save x.sh with Unix (LF) line endings"},
		{"no #! line", "./x.sh", map[string]string{"x.sh+x": "\x7fELG not a program\n"},
			"x.sh has no #! line, so it cannot be started directly", "add #!/bin/sh as its first line"},
		{"not on PATH", "no-such-program-here --flag", nil,
			"no-such-program-here is not in PATH", "install no-such-program-here (or put it in PATH)"},
		{"interpreter without its script", "sh hooks/gone.sh", nil,
			"hooks/gone.sh does not exist", "create hooks/gone.sh"},
		{"shell cannot find the command", "./gone.sh && echo done", nil,
			"exited 127: ", "check that the command and its interpreter exist"},
		// The check finds nothing wrong: the start error is all there is.
		{"a binary for another system", "./x", map[string]string{"x+x": "\x7fELF not for this system\n"},
			"./x: exec format error", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := hook(t, c.command)
			h.Name, h.Pos = "x", "cfg.json:3"
			for p, content := range c.files {
				mode := os.FileMode(0o644)
				if q, ok := strings.CutSuffix(p, "+x"); ok {
					p, mode = q, 0o755
				}
				require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(h.Dir, p)), 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(h.Dir, p), []byte(content), mode))
			}
			res := (&Runner{}).Run(context.Background(), []*config.Hook{h}, pieces(100))
			e, ok := res[0].Err.(*Error)
			require.True(t, ok, "%v", res[0].Err)
			require.Equal(t, NotStarted, e.Kind)
			require.Contains(t, e.Msg, c.want)
			require.Equal(t, c.hint, e.Hint)
			want := `handler "x" could not start: ` + e.Msg
			if c.hint != "" {
				want += " (hint: " + c.hint + ")"
			}
			require.Equal(t, want, Problem(res[0]))
		})
	}
}

// A handler that ran but failed, or was killed, says so in one line with
// the fix where one is known.
func TestProblem(t *testing.T) {
	h := hook(t, `echo not-json`)
	h.Name = "garbage"
	res := (&Runner{}).Run(context.Background(), []*config.Hook{h}, pieces(100))
	require.Equal(t, `handler "garbage" failed: exit 0 but stdout is not JSON: "not-json" (hint: print one JSON object such as {"decision":"deny","reason":"…"}, or nothing, on stdout; logs go to stderr)`, Problem(res[0]))

	h = hook(t, `echo boom >&2; exit 1`)
	h.Name = "crash"
	res = (&Runner{}).Run(context.Background(), []*config.Hook{h}, pieces(100))
	require.Equal(t, `handler "crash" failed: exited 1: boom`, Problem(res[0]))

	h = hook(t, `sleep 30`)
	h.Name, h.Timeout, h.Pos = "hang", 200*time.Millisecond, "cfg.json:4"
	res = (&Runner{}).Run(context.Background(), []*config.Hook{h}, pieces(100))
	require.Equal(t, `handler "hang" timed out after 200ms; its process group was killed (hint: make it answer sooner, or raise its "timeout" (now 200ms) in cfg.json:4)`, Problem(res[0]))

	h = hook(t, `echo '{}'`)
	res = (&Runner{}).Run(context.Background(), []*config.Hook{h}, pieces(100))
	require.Equal(t, "", Problem(res[0]))
}

// A duplicate call that reuses the answers of another gets its failures
// with their fixes.
func TestSharedFailuresKeepTheirHint(t *testing.T) {
	h := &config.Hook{Name: "x"}
	in := []Result{{Hook: h, Err: &Error{Kind: NotStarted, Msg: "./x.sh: permission denied", Hint: "chmod +x ./x.sh"}}}
	out, ok := Unmarshal(Marshal(in), []*config.Hook{h})
	require.True(t, ok)
	require.Equal(t, Problem(in[0]), Problem(out[0]))
}

// Files are what the command runs, as far as its line says.
func TestFiles(t *testing.T) {
	h := &config.Hook{Dir: "/p"}
	for cmd, want := range map[string][]string{
		"./hooks/x.sh --flag":             {"/p/hooks/x.sh"},
		"/usr/local/bin/guard":            {"/usr/local/bin/guard"},
		"sh hooks/x.sh":                   {"hooks/x.sh"},
		"python3 hooks/check.py arg":      {"hooks/check.py"},
		"python3 -m pkg.mod":              nil,
		"node --version":                  nil,
		"fakehandler record ran.log":      nil,
		"./hooks/x.sh | tee -a hooks.log": {"/p/hooks/x.sh"},
		"jq -e '.data' >/dev/null":        nil,
		"":                                nil,
	} {
		h.Command = cmd
		var abs []string
		for _, w := range want {
			if !filepath.IsAbs(w) {
				w = filepath.Join("/p", w)
			}
			abs = append(abs, w)
		}
		require.Equal(t, abs, Files(h), cmd)
	}
}
