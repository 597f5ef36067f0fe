package install

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/require"
)

// TestInstallJSONC: config files with comments and trailing commas (the
// tools read them) are installed into with both kept, and uninstall gives
// them back byte for byte.
func TestInstallJSONC(t *testing.T) {
	n := 0
	for _, p := range installable() {
		jsonc, ok := input(t, p, "jsonc")
		if !ok {
			continue
		}
		n++
		t.Run(p.ID, func(t *testing.T) {
			tg := projectTarget(t, p)
			events := defaultEvents(t, p)
			env := testEnv(t)
			path, _ := env.Path(tg)
			got := roundTrip(t, env, p, tg, events, "jsonc", jsonc)
			require.NoError(t, checkJSON(got))

			// Edited by the user in between: hookshim's entries go, the
			// edit and everything the file had before stay.
			run(t, env, p, tg, events)
			edited := "// edited after install\n" + readInput(t, tg, path)
			require.NoError(t, os.WriteFile(path, []byte(edited), 0o644))
			run(t, env, p, tg, nil)
			require.Equal(t, "// edited after install\n"+jsonc, readInput(t, tg, path))
		})
	}
	require.NotZero(t, n, "no testdata/install/*/jsonc.* input")
}

// TestConcurrentInstalls: installs planned at the same moment and applied
// at once all succeed; the file ends whole, with each entry once, and its
// record matches it.
func TestConcurrentInstalls(t *testing.T) {
	env := testEnv(t)
	p := provider.Claude
	tg := *Target(p, provider.ScopeProject)
	path, _ := env.Path(tg)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	orig := "{\n  \"model\": \"opus\",\n  \"hooks\": {}\n}\n"
	require.NoError(t, os.WriteFile(path, []byte(orig), 0o644))
	events := defaultEvents(t, p)

	const n = 6
	var planned sync.WaitGroup
	var wg sync.WaitGroup
	errs := make([]error, n)
	planned.Add(n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// A different subset of events each, all planned on the
			// original file before any is written.
			evs := events[:len(events)-i]
			changes, _, err := Plan(env, p, tg, evs)
			planned.Done()
			planned.Wait()
			if err != nil {
				errs[i] = err
				return
			}
			_, errs[i] = Apply(env, changes[0])
		}()
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, checkJSON(string(b)))
	// Whichever install came last decided the events; none is twice.
	_, reg, err := Plan(env, p, tg, events[:1])
	require.NoError(t, err)
	require.NotContains(t, strings.Join(reg.Problems, ";"), "more than once")
	rec := env.loadRecord(realPath(path))
	require.NotNil(t, rec)
	require.Equal(t, digest(b), rec.Written, "the record is not about the file as written")
	run(t, env, p, tg, nil)
	b, _ = os.ReadFile(path)
	require.Equal(t, orig, string(b))
}

// TestSafetyDocNamesTheRecords: docs/safety.md says where the records are
// and which scripts test the guarantees; both must be true.
func TestSafetyDocNamesTheRecords(t *testing.T) {
	b, err := os.ReadFile("../../docs/safety.md")
	require.NoError(t, err)
	doc := string(b)
	i := strings.Index(doc, "## Install and uninstall")
	require.GreaterOrEqual(t, i, 0, "docs/safety.md has no install section")
	sec := doc[i:]
	if j := strings.Index(sec[3:], "\n## "); j >= 0 {
		sec = sec[:j+3]
	}
	env := Env{Home: "/home/u", Getenv: func(string) string { return "" }}
	require.Equal(t, "/home/u/.local/state/hookshim/installed", env.recordDir())
	require.Contains(t, sec, "`~/.local/state/hookshim/installed`")
	env.Getenv = func(k string) string { return map[string]string{"XDG_STATE_HOME": "/x"}[k] }
	require.Equal(t, "/x/hookshim/installed", env.recordDir())
	require.Contains(t, sec, "`$XDG_STATE_HOME/hookshim/installed`")
	scripts := regexp.MustCompile(`testdata/script/[a-z_]+\.txtar`).FindAllString(sec, -1)
	require.NotEmpty(t, scripts)
	for _, s := range scripts {
		require.FileExists(t, filepath.Join("../..", s))
	}
}

// TestDisabledReadsComments: a switch that turns a tool's hooks off is
// found in a file with comments, and not in a comment.
func TestDisabledReadsComments(t *testing.T) {
	env := testEnv(t)
	path := filepath.Join(env.Home, ".gemini", "settings.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte("{\n  // was: \"hooksConfig\": {\"enabled\": true},\n  \"hooksConfig\": {\"enabled\": false,},\n}\n"), 0o644))
	require.Len(t, Disabled(env, provider.Gemini), 1)
}

func TestCommentHelpers(t *testing.T) {
	require.Equal(t, " // c\n", string(withComments([]byte(" // c\n  "))))
	require.Equal(t, " /* c */", string(withComments([]byte(" /* c */\n  "))))
	require.Equal(t, "", string(withComments([]byte("\n  "))))
	same, rest := splitSameLine([]byte(" // c\n  "))
	require.Equal(t, []string{" // c", "\n  "}, []string{string(same), string(rest)})
	same, rest = splitSameLine([]byte(" /* a\n b */\n  "))
	require.Equal(t, []string{"", " /* a\n b */\n  "}, []string{string(same), string(rest)})
	same, rest = splitSameLine([]byte(" "))
	require.Equal(t, []string{" ", ""}, []string{string(same), string(rest)})
}

// TestCommentsStayWithTheirMembers: removing a member from the middle or
// the end of a commented container keeps its neighbours' comments, and
// the result still parses.
func TestCommentsStayWithTheirMembers(t *testing.T) {
	for _, tc := range []struct{ in, key, want string }{
		{"{\n  \"a\": 1, // about a\n  \"b\": 2,\n  // about c\n  \"c\": 3\n}", "b", "{\n  \"a\": 1, // about a\n  // about c\n  \"c\": 3\n}"},
		{"{\n  \"a\": 1, // about a\n  \"b\": 2\n}", "b", "{\n  \"a\": 1 // about a\n}"},
		{"{\n  \"a\": 1, // about a\n  \"b\": 2,\n}", "b", "{\n  \"a\": 1, // about a\n}"},
		{"{\"a\":1,//x\n\"b\":2}", "b", "{\"a\":1//x\n}"},
		{"{\n  // only\n  \"b\": 2\n}", "b", "{\n  // only\n}"},
		{"{\"a\":1,//x\n\"b\":2,\"c\":3}", "b", "{\"a\":1,//x\n\"c\":3}"},
	} {
		d, err := newJDoc(tc.in)
		require.NoError(t, err)
		require.NoError(t, d.remove(path{tc.key}))
		require.Equal(t, tc.want, d.s, tc.in)
		require.NoError(t, checkJSON(d.s))
	}
}

// TestRealPathBeforeAndAfter: a file's record is found again after install
// made its folders, also below a linked folder.
func TestRealPathBeforeAndAfter(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(root, "real"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(root, "real"), filepath.Join(root, "link")))
	p := filepath.Join(root, "link", "a", "b", "settings.json")
	before := realPath(p)
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte("{}"), 0o644))
	require.Equal(t, before, realPath(p))
	want, _ := filepath.EvalSymlinks(filepath.Join(root, "real"))
	require.Equal(t, filepath.Join(want, "a", "b", "settings.json"), before)
}

// AppendBefore puts a new key before the member named, in its layout, and
// appends to a list that exists; Set replaces one value or adds a key.
func TestJSONCAppendBeforeAndSet(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"multi-line, comment lines stay with the next member",
			"{\n  \"a\": 1, // one\n  // the list\n  \"list\": []\n}\n",
			"{\n  \"a\": 1, // one\n  \"new\": [\n    1\n  ],\n  // the list\n  \"list\": []\n}\n"},
		{"first member", "{\n  \"list\": []\n}", "{\n  \"new\": [\n    1\n  ],\n  \"list\": []\n}"},
		{"one line", `{"a": 1, "list": []}`, `{"a": 1, "new": [1], "list": []}`},
		{"compact", `{"list":[]}`, `{"new":[1],"list":[]}`},
		{"no such member: at the end", `{"a": 1}`, `{"a": 1, "new": [1]}`},
		{"the key exists", `{"new": [0,], "list": []}`, `{"new": [0,1,], "list": []}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			j, err := EditJSONC(c.in, "")
			require.NoError(t, err)
			require.NoError(t, j.AppendBefore("new", "1", "list"))
			require.Equal(t, c.want, j.Text())
			require.NoError(t, checkJSON(j.Text()))
		})
	}

	j, err := EditJSONC("{\n  \"x\": [{\"u\": 1}, /* two */ {\"u\": 2, \"p\": \"old\"},],\n}\n", "")
	require.NoError(t, err)
	require.NoError(t, j.Set(`"new"`, "x", 1, "p"))
	require.NoError(t, j.Set(`"added"`, "x", 0, "p"))
	require.Equal(t, "{\n  \"x\": [{\"u\": 1, \"p\": \"added\"}, /* two */ {\"u\": 2, \"p\": \"new\"},],\n}\n", j.Text())
	require.Error(t, j.Set(`1`, "x", 5, "p"))
	require.Error(t, j.Set(`1`))
}
