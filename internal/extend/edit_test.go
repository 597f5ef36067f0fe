package extend

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/install"
	"github.com/stretchr/testify/require"
)

func addOptions(t *testing.T, srv *server) AddOptions {
	cache := Cache{Dir: filepath.Join(t.TempDir(), "cache")}
	return AddOptions{
		Cache: func() (Cache, error) { return cache, nil },
		Fetch: srv,
		Env:   install.Env{Getenv: func(string) string { return "" }, Home: t.TempDir(), Now: time.Now},
	}
}

// Add edits the list in place: comments, a trailing comma and the rest of
// the file stay; a path is written relative to the config; a URL is
// pinned, and pinned anew the second time; the same path twice is left.
func TestAdd(t *testing.T) {
	dir := write(t, map[string]string{
		"team/base.json": hooks("", "base"),
		"project/.openhook.json": `{
  // Written by hand.
  "spec": "hooks/0.1",
  "extends": [
    "../team/old.json", // kept for now
  ],
  "hooks": [],
}
`,
		"team/old.json": hooks("", "old"),
	})
	target := filepath.Join(dir, "project", ".openhook.json")
	srv := &server{}
	o := addOptions(t, srv)

	a, err := Add(target, filepath.Join(dir, "team", "base.json"), o)
	require.NoError(t, err)
	require.Equal(t, Added{Path: "../team/base.json", Hooks: 1, Backup: a.Backup}, a)
	require.NotEmpty(t, a.Backup)
	got, err := os.ReadFile(target)
	require.NoError(t, err)
	require.Equal(t, `{
  // Written by hand.
  "spec": "hooks/0.1",
  "extends": [
    "../team/old.json", // kept for now
    {
      "path": "../team/base.json"
    },
  ],
  "hooks": [],
}
`, string(got))

	a, err = Add(target, filepath.Join(dir, "team", "..", "team", "old.json"), o)
	require.NoError(t, err)
	require.True(t, a.Already)
	again, _ := os.ReadFile(target)
	require.Equal(t, string(got), string(again))

	team := []byte(hooks("", "team", "more"))
	srv.serve(team)
	a, err = Add(target, "https://policy.example.com/team.json", o)
	require.NoError(t, err)
	require.Equal(t, config.Integrity(team), a.Pin)
	require.Equal(t, 2, a.Hooks)
	require.False(t, a.Repinned)
	cache, _ := o.Cache()
	cached, damaged, err := cache.Get(a.Pin)
	require.NoError(t, err)
	require.False(t, damaged)
	require.Equal(t, team, cached)

	srv.serve([]byte(hooks("", "team")))
	a, err = Add(target, "https://policy.example.com/team.json", o)
	require.NoError(t, err)
	require.True(t, a.Repinned)
	f, err := config.Load(target)
	require.NoError(t, err)
	require.Len(t, f.Extends, 3)
	require.Equal(t, a.Pin, f.Extends[2].Integrity)
}

// What Add refuses leaves the file as it was.
func TestAddRefuses(t *testing.T) {
	dir := write(t, map[string]string{
		"broken/.openhook.json": "{\n  \"spec\": \"hooks/0.1\",\n  \"hooks\": [\n",
		"ok/.openhook.json":     hooks(""),
		"notconfig.json":        `{"hooks": 1}`,
	})
	srv := &server{body: []byte(`{"spec": "hooks/0.1", "hooks": [{"event": "nope"}]}`)}
	o := addOptions(t, srv)
	broken := filepath.Join(dir, "broken", ".openhook.json")
	ok := filepath.Join(dir, "ok", ".openhook.json")
	for _, tc := range []struct{ target, arg, err string }{
		{broken, filepath.Join(dir, "ok", ".openhook.json"), "; it is left as it was"},
		{ok, "http://policy.example.com/x.json", "only https URLs can be extended"},
		{ok, "https://policy.example.com/x.json", "is not a config hookshim can use"},
		{ok, filepath.Join(dir, "notconfig.json"), "notconfig.json"},
	} {
		before, _ := os.ReadFile(tc.target)
		_, err := Add(tc.target, tc.arg, o)
		require.ErrorContains(t, err, tc.err, tc.arg)
		after, _ := os.ReadFile(tc.target)
		require.Equal(t, string(before), string(after), tc.arg)
	}
}

// A config that does not exist is created with the entry.
func TestAddCreates(t *testing.T) {
	dir := write(t, map[string]string{"base.json": hooks("", "base")})
	target := filepath.Join(dir, "new", ".openhook.json")
	a, err := Add(target, filepath.Join(dir, "base.json"), addOptions(t, &server{}))
	require.NoError(t, err)
	require.Empty(t, a.Backup)
	f, err := config.Load(target)
	require.NoError(t, err)
	require.Len(t, f.Extends, 1)
}
