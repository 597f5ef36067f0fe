package install

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookshim/hookshim/internal/provider"
	"github.com/pelletier/go-toml/v2"
	"github.com/stretchr/testify/require"
)

// kimiTarget is Kimi Code's config.toml in a fresh environment, with the
// user's text already in it.
func kimiTarget(t *testing.T, text string) (Env, *provider.Provider, provider.Target, string) {
	t.Helper()
	p := provider.Lookup("kimi-code")
	require.NotNil(t, p)
	env := testEnv(t)
	tg := *Target(p, provider.ScopeUser)
	path, err := env.Path(tg)
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(text), 0o600))
	return env, p, tg, path
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

const kimiEntry = `[[hooks]]
event = "%s"
matcher = ""
command = "/opt/hookshim/bin/hookshim run --provider kimi-code"
timeout = 30
`

// TestTOMLKeepsComments: comments anywhere, the user's own [[hooks]] table
// and TOML 1.1 inline tables survive install byte for byte; uninstall
// gives the file back exactly.
func TestTOMLKeepsComments(t *testing.T) {
	orig := `# my settings   
telemetry = false # no thanks

[models.k2]
model = "kimi-k2"
limits = {
  context = 262144, # tokens
  output = 32768,
}

[[hooks]] # mine
event = "PreToolUse"   # before every tool
matcher = "^Bash$"
# the guard reads stdin
command = "~/bin/guard.sh"
timeout = 5
# end of my hooks

# trailing words
`
	env, p, tg, path := kimiTarget(t, orig)
	run(t, env, p, tg, []string{"PreToolUse", "Stop"})
	want := orig + "\n" + strings.ReplaceAll(kimiEntry, "%s", "PreToolUse") +
		"\n" + strings.ReplaceAll(kimiEntry, "%s", "Stop")
	require.Equal(t, want, readString(t, path))
	require.Empty(t, run(t, env, p, tg, []string{"PreToolUse", "Stop"}), "a second install changed something")

	_, reg, err := Plan(env, p, tg, []string{"PreToolUse", "Stop"})
	require.NoError(t, err)
	require.True(t, reg.Current(), "%v", reg.Problems)

	run(t, env, p, tg, nil)
	require.Equal(t, orig, readString(t, path))
}

// TestTOMLGivesBackBytes: whatever the file's line breaks, byte order mark
// or trailing lines, uninstall gives back what install found, and what
// install writes in between is TOML that keeps the file's line breaks.
func TestTOMLGivesBackBytes(t *testing.T) {
	for name, orig := range map[string]string{
		"crlf":           "# written on Windows\r\ntelemetry = false\r\n\r\n[models.k2]\r\nmodel = \"kimi-k2\"\r\n",
		"bom":            "\uFEFF# my settings\ntelemetry = false\n",
		"blank lines":    "telemetry = false\n\n\n\n",
		"comment at end": "telemetry = false\n# bye",
		"only a comment": "# nothing yet\n",
		"user hooks":     "[[hooks]]\nevent = \"Stop\"\nmatcher = \"\"\ncommand = \"say done\"\ntimeout = 5\n\n[models.k2]\nmodel = \"kimi-k2\"\n",
	} {
		t.Run(name, func(t *testing.T) {
			env, p, tg, path := kimiTarget(t, orig)
			run(t, env, p, tg, []string{"PreToolUse", "UserPromptSubmit"})
			got := readString(t, path)
			var v map[string]any
			require.NoError(t, toml.Unmarshal([]byte(strings.TrimPrefix(got, "\uFEFF")), &v), "%q", got)
			require.Len(t, v["hooks"], strings.Count(got, "[[hooks]]"))
			if strings.Contains(orig, "\r\n") {
				require.NotRegexp(t, "[^\r]\n", got, "a line break that is not the file's")
			}
			require.True(t, strings.HasPrefix(got, strings.TrimRight(orig, "\r\n")), "install changed the user's text")

			// The install record gives back the exact bytes, also a last
			// line without a line break.
			run(t, env, p, tg, nil)
			require.Equal(t, orig, readString(t, path))
		})
	}
}

// TestTOMLRefused: a file hookshim cannot read is never edited, on
// install or uninstall, and the message names the line. 23:59:60 is valid
// TOML 1.1 (a leap second, from RFC 3339) that go-toml refuses; the
// second file is not TOML at all.
func TestTOMLRefused(t *testing.T) {
	for _, c := range []struct{ doc, line string }{
		{"# my settings\n[schedule]\nat = 2016-12-31T23:59:60Z\n", "line 3, column "},
		{"[[hooks]]\nevent = \"Stop\"\ncommand = \"/opt/hookshim/bin/hookshim run --provider kimi-code\"\nevent = \"Stop\"\n", "line 4, column 1: "},
		// Valid TOML, but a line of the table starts with "[": hookshim
		// cannot tell where the table ends.
		{"[[hooks]]\nevent = \"Stop\"\ncommand = \"say done\"\nenv = [\n  [\"A\", \"1\"],\n]\n", "the [[hooks]] table at line 1: line 4, column "},
	} {
		env, p, tg, path := kimiTarget(t, c.doc)
		for _, events := range [][]string{{"Stop"}, nil} {
			_, _, err := Plan(env, p, tg, events)
			var u *UnreadableError
			require.True(t, errors.As(err, &u), "got %v", err)
			require.Contains(t, err.Error(), "is not valid TOML hookshim can edit: "+c.line, c.doc)
			require.Equal(t, c.doc, readString(t, path))
		}
	}
}

// TestParseTOMLInlineTables: the TOML 1.1 inline tables Codex and Kimi
// Code read are read here too.
func TestParseTOMLInlineTables(t *testing.T) {
	m, err := parseTOML("a = {\n  b = 1, # one\n  c = [\n    2,\n  ],\n}\n")
	require.NoError(t, err)
	require.Equal(t, map[string]any{"a": map[string]any{"b": int64(1), "c": []any{int64(2)}}}, m)

	_, err = parseTOML("a = 1\nb = {c = }\n")
	require.ErrorContains(t, err, "line 2, column ")
}
