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
// and the fix, and nothing is run in its place.
func TestNotStarted(t *testing.T) {
	for _, c := range []struct {
		name, command string
		files         map[string]string // path: content; a "+x" suffix on the path makes it executable
		want, hint    string
	}{
		{"not executable", "./hooks/x.sh", map[string]string{"hooks/x.sh": "#!/bin/sh\necho '{}'\n"},
			"./hooks/x.sh: permission denied", "chmod +x ./hooks/x.sh"},
		{"missing", "./hooks/x.sh", nil,
			"./hooks/x.sh: no such file", `create it, or fix the "command" at cfg.json:3`},
		{"a directory", "./hooks", map[string]string{"hooks/keep": ""},
			"./hooks: is a directory", `name the script to run in the "command" at cfg.json:3`},
		{"interpreter missing", "./x.sh", map[string]string{"x.sh+x": "#!/nonexistent/bin/python9 -u\nprint()\n"},
			"./x.sh: its interpreter /nonexistent/bin/python9 does not exist", "install /nonexistent/bin/python9, or fix the #! line of ./x.sh"},
		{"#! line with CR", "./x.sh", map[string]string{"x.sh+x": "#!/bin/sh\r\necho '{}'\r\n"},
			"./x.sh: its #! line ends in a carriage return", "save ./x.sh with Unix (LF) line endings"},
		{"no #! line", "./x.sh", map[string]string{"x.sh+x": "\x7fELG not a program\n"},
			"./x.sh: not a program the system can run", "start it with a #! line, such as #!/bin/sh"},
		{"not on PATH", "no-such-program-here --flag", nil,
			"no-such-program-here: not found on PATH", "install no-such-program-here, or name it by its path"},
		{"interpreter without its script", "sh hooks/gone.sh", nil,
			"hooks/gone.sh: no such file", `create it, or fix the "command" at cfg.json:3`},
		{"shell cannot find the command", "./gone.sh && echo done", nil,
			"exited 127: ", "check that the command and its interpreter exist"},
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
			require.Equal(t, `handler "x" could not start: `+e.Msg+" (hint: "+c.hint+")", Problem(res[0]))
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
