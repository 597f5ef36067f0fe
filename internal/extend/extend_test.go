package extend

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/stretchr/testify/require"
)

// write puts files (path: content) under a new folder and returns it.
func write(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		full := filepath.Join(dir, p)
		require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
		require.NoError(t, os.WriteFile(full, []byte(c), 0o644))
	}
	return dir
}

// hooks is a config with one hook per name, and the extra top-level fields.
func hooks(extra string, names ...string) string {
	var hs []string
	for _, n := range names {
		hs = append(hs, `{"name": "`+n+`", "event": "before_tool_execute", "handler": {"command": "./`+n+`.sh"}}`)
	}
	if extra != "" {
		extra += ",\n"
	}
	return "{\"spec\": \"hooks/0.1\",\n" + extra + `"hooks": [` + strings.Join(hs, ", ") + "]}"
}

func names(f *config.File) []string {
	var out []string
	for _, h := range f.Hooks {
		out = append(out, h.Name+":"+h.OnError)
	}
	return out
}

func load(t *testing.T, path string) *config.File {
	t.Helper()
	f, err := config.Load(path)
	require.NoError(t, err)
	return f
}

func TestResolveOrderAndPolicy(t *testing.T) {
	dir := write(t, map[string]string{
		"p/.openhook.json": hooks(`"on_error": "deny", "extends": ["../team/base.json", {"path": "local.json"}]`, "own"),
		"team/base.json":   hooks(`"extends": ["org.json", "shared.json"]`, "base"),
		"team/org.json":    hooks(`"on_error": "allow", "extends": ["shared.json"]`, "org"),
		"team/shared.json": hooks("", "shared"),
		"p/local.json":     hooks(`"on_error": "deny"`, "local"),
	})
	f := load(t, filepath.Join(dir, "p/.openhook.json"))
	rep, err := Resolve(f, Options{Cache: Cache{Dir: t.TempDir()}})
	require.NoError(t, err)
	// Extended before extending, depth first; shared.json, reached twice,
	// counts once, where first reached; each file's on_error for its own
	// hooks, inherited by a file that sets none (the root's hooks keep
	// "": they follow the call's policy, as before).
	require.Equal(t, []string{"shared:allow", "org:allow", "base:", "local:deny", "own:"}, names(f))
	require.Len(t, f.Extended, 4)
	require.Equal(t, filepath.Join(dir, "team/shared.json"), f.Extended[0].Path)
	require.Equal(t, filepath.Join(dir, "team"), f.Hooks[0].Dir, "an extended file's commands run from its own folder")
	require.Len(t, rep.Notes, 4)

	// Without extends, nothing is read.
	g := load(t, filepath.Join(dir, "team/shared.json"))
	rep, err = Resolve(g, Options{})
	require.NoError(t, err)
	require.Empty(t, rep.Notes)
	require.Nil(t, g.Extended)
}

func TestResolveErrors(t *testing.T) {
	dir := write(t, map[string]string{
		"cycle/a.json": hooks(`"extends": ["b.json"]`, "a"),
		"cycle/b.json": hooks(`"extends": [
  "c.json"]`, "b"),
		"cycle/c.json": hooks(`"extends": ["a.json"]`, "c"),
		"self.json":    hooks(`"extends": ["self.json"]`, "s"),
		"missing.json": hooks(`"extends": ["nope.json"]`, "m"),
		"broken.json": hooks(`"extends": [
  {"path": "bad.json"}]`, "x"),
		"bad.json":     `{"spec": "hooks/0.1", "hooks": [{"evnet": 1}]}`,
		"fetched.json": hooks(`"extends": ["d1.json"]`, "f"),
	})
	// A chain deeper than MaxDepth.
	for i := 1; i <= MaxDepth+2; i++ {
		next := filepath.Join(dir, "deep", "d"+string(rune('a'+i))+".json")
		ext := `"extends": ["d` + string(rune('a'+i+1)) + `.json"]`
		if i == MaxDepth+2 {
			ext = ""
		}
		require.NoError(t, os.MkdirAll(filepath.Dir(next), 0o755))
		require.NoError(t, os.WriteFile(next, []byte(hooks(ext, "d")), 0o644))
	}
	// MaxDepth levels are read; one more is an error (below).
	_, err := Resolve(load(t, filepath.Join(dir, "deep", "dc.json")), Options{})
	require.NoError(t, err)
	for _, c := range []struct{ file, want string }{
		{"cycle/a.json", "cycle/c.json:2:13: extends cycle: " + dir + "/cycle/a.json → " + dir + "/cycle/b.json → " + dir + "/cycle/c.json → " + dir + "/cycle/a.json"},
		{"self.json", "self.json:2:13: extends cycle: " + dir + "/self.json → " + dir + "/self.json"},
		{"missing.json", "missing.json:2:13: extends " + dir + "/nope.json: open " + dir + "/nope.json: no such file or directory"},
		{"broken.json", "broken.json:3:3: in the config it extends: " + dir + `/bad.json:1:33: hook 1 has neither "handler" nor "command"`},
		{"deep/db.json", "extends nested more than 8 deep"},
	} {
		f := load(t, filepath.Join(dir, c.file))
		_, err := Resolve(f, Options{Cache: Cache{Dir: t.TempDir()}})
		require.Error(t, err, c.file)
		require.Contains(t, err.Error(), c.want, c.file)
		var ce *config.Error
		require.True(t, errors.As(err, &ce), "a position in the extending file")
	}
}

func TestResolveCache(t *testing.T) {
	team := []byte(hooks(`"on_error": "deny"`, "team"))
	pin := config.Integrity(team)
	cache := Cache{Dir: t.TempDir()}
	dir := write(t, map[string]string{
		".openhook.json": hooks(`"extends": [{"url": "https://example.com/team.json", "integrity": "`+pin+`"}]`, "own"),
		"strict.json":    hooks(`"extends": [{"url": "https://example.com/team.json", "integrity": "`+pin+`", "on_error": "deny"}]`, "own"),
	})

	// Not cached, fail-open: left out, with a warning at the entry.
	f := load(t, filepath.Join(dir, ".openhook.json"))
	rep, err := Resolve(f, Options{Cache: cache})
	require.NoError(t, err)
	require.Equal(t, []string{"own:"}, names(f))
	require.Len(t, f.Warnings, 1)
	require.Contains(t, f.Warnings[0], dir+"/.openhook.json:2:13: extends https://example.com/team.json: not in the cache ("+pin+"); fetch it with: hookshim fetch; its hooks do not run (on_error: allow)")
	require.Len(t, rep.Unavailable, 1)

	// Not cached, fail-closed entry: an UnavailableError.
	f = load(t, filepath.Join(dir, "strict.json"))
	_, err = Resolve(f, Options{Cache: cache})
	var u *UnavailableError
	require.True(t, errors.As(err, &u), "%v", err)
	require.Contains(t, err.Error(), "strict.json:2:13: extends https://example.com/team.json: not in the cache")

	// Or a fail-closed file, for its entries that name no policy.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "closed.json"), []byte(hooks(`"on_error": "deny", "extends": [{"url": "https://example.com/team.json", "integrity": "`+pin+`"}]`, "own")), 0o644))
	_, err = Resolve(load(t, filepath.Join(dir, "closed.json")), Options{Cache: cache})
	require.True(t, errors.As(err, &u), "%v", err)

	// Cached: read from the cache, its hooks run from the extending
	// file's folder, under its own on_error.
	require.NoError(t, cache.Put(team))
	f = load(t, filepath.Join(dir, ".openhook.json"))
	rep, err = Resolve(f, Options{Cache: cache})
	require.NoError(t, err)
	require.Equal(t, []string{"team:deny", "own:"}, names(f))
	require.Equal(t, dir, f.Hooks[0].Dir)
	require.Equal(t, "https://example.com/team.json:3", f.Hooks[0].Pos)
	require.Contains(t, rep.Notes[0], "read from the cache")

	// A damaged copy is never used.
	sum, _ := config.PinSum(pin)
	require.NoError(t, os.WriteFile(cache.path(sum), []byte(hooks("", "evil")), 0o600))
	f = load(t, filepath.Join(dir, ".openhook.json"))
	_, err = Resolve(f, Options{Cache: cache})
	require.NoError(t, err)
	require.Equal(t, []string{"own:"}, names(f))
	require.Contains(t, f.Warnings[0], "the cached copy does not match its pin")
}

func TestResolveRemotePath(t *testing.T) {
	remote := []byte(hooks(`"extends": ["/etc/passwd.json"]`, "r"))
	cache := Cache{Dir: t.TempDir()}
	require.NoError(t, cache.Put(remote))
	dir := write(t, map[string]string{
		".openhook.json": hooks(`"extends": [{"url": "https://example.com/r.json", "integrity": "`+config.Integrity(remote)+`"}]`, "own"),
	})
	_, err := Resolve(load(t, filepath.Join(dir, ".openhook.json")), Options{Cache: cache})
	require.EqualError(t, err, "https://example.com/r.json:2:13: extends /etc/passwd.json: a config fetched from a URL can extend only pinned URLs, not a path on this machine")
}

// server is a Fetcher serving what body holds (a 404 when nil), as
// hookshim-remote reports what a server answers.
type server struct {
	mu    sync.Mutex
	body  []byte
	calls int
}

func (s *server) Get(url string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	if s.body == nil {
		return nil, errors.New(url + ": HTTP 404 Not Found")
	}
	return s.body, nil
}

func (s *server) serve(b []byte) {
	s.mu.Lock()
	s.body = b
	s.mu.Unlock()
}

func TestResolveFetch(t *testing.T) {
	srv := &server{}
	team := []byte(hooks("", "team"))
	changed := []byte(hooks("", "team", "backdoor"))
	pin := config.Integrity(team)
	url := "https://example.com/team.json"
	dir := write(t, map[string]string{
		".openhook.json": hooks(`"extends": [{"url": "`+url+`", "integrity": "`+pin+`"}]`, "own"),
	})
	cache := Cache{Dir: t.TempDir()}
	resolve := func(o Options) (*config.File, Report, error) {
		f := load(t, filepath.Join(dir, ".openhook.json"))
		rep, err := Resolve(f, o)
		return f, rep, err
	}

	// A fetch that fails, nothing cached: the extension is unavailable,
	// with the reason.
	_, rep, err := resolve(Options{Cache: cache, Fetch: srv})
	require.NoError(t, err)
	require.Equal(t, []string{dir + "/.openhook.json:2:13: extends " + url + ": not in the cache, and fetching it failed: " + url + ": HTTP 404 Not Found"}, rep.Unavailable)

	// Changed, nothing cached: refused, the extension is unavailable.
	srv.serve(changed)
	f, rep, err := resolve(Options{Cache: cache, Fetch: srv})
	require.NoError(t, err)
	require.Equal(t, []string{"own:"}, names(f))
	require.Contains(t, rep.Unavailable[0], "changed: it serves "+config.Integrity(changed)+", not the pinned "+pin+": refused, and no copy that matches the pin is cached")

	// Matching: fetched, cached.
	srv.serve(team)
	f, rep, err = resolve(Options{Cache: cache, Fetch: srv})
	require.NoError(t, err)
	require.Equal(t, []string{"team:", "own:"}, names(f))
	require.Contains(t, rep.Notes[0], "fetched, matches its pin")
	got, _, err := cache.Get(pin)
	require.NoError(t, err)
	require.Equal(t, team, got)

	// Cached: a later fetch without Refresh does not ask the server.
	calls := srv.calls
	_, _, err = resolve(Options{Cache: cache, Fetch: srv})
	require.NoError(t, err)
	require.Equal(t, calls, srv.calls)

	// Changed on the server, refreshed: refused, the cached copy is used.
	srv.serve(changed)
	f, rep, err = resolve(Options{Cache: cache, Fetch: srv, Refresh: true})
	require.NoError(t, err)
	require.Equal(t, []string{"team:", "own:"}, names(f))
	require.Contains(t, rep.Unavailable[0], "changed: it now serves "+config.Integrity(changed)+", not the pinned "+pin+": refused; the cached copy that matches the pin is used")
	require.Equal(t, calls+1, srv.calls)

	// Gone from the server: the cached copy is used.
	srv.serve(nil)
	f, rep, err = resolve(Options{Cache: cache, Fetch: srv, Refresh: true})
	require.NoError(t, err)
	require.Equal(t, []string{"team:", "own:"}, names(f))
	require.Contains(t, rep.Unavailable[0], "404")
}

func TestResolveMaxFiles(t *testing.T) {
	files := map[string]string{}
	var list []string
	for i := 0; i <= MaxFiles; i++ {
		name := "f" + strings.Repeat("x", i) + ".json"
		files[name] = hooks("", "h")
		list = append(list, `"`+name+`"`)
	}
	files["root.json"] = hooks(`"extends": [`+strings.Join(list, ", ")+`]`, "own")
	dir := write(t, files)
	_, err := Resolve(load(t, filepath.Join(dir, "root.json")), Options{})
	require.ErrorContains(t, err, "extends pulls in more than 64 files")

	delete(files, "f"+strings.Repeat("x", MaxFiles)+".json")
	files["root.json"] = hooks(`"extends": [`+strings.Join(list[:MaxFiles], ", ")+`]`, "own")
	dir = write(t, files)
	f := load(t, filepath.Join(dir, "root.json"))
	_, err = Resolve(f, Options{})
	require.NoError(t, err)
	require.Len(t, f.Hooks, MaxFiles+1)
}

// A file that two configs of one call extend runs once.
func TestResolveSeen(t *testing.T) {
	dir := write(t, map[string]string{
		"user.json":    hooks(`"extends": ["team.json"]`, "user"),
		"project.json": hooks(`"extends": ["team.json"]`, "project"),
		"team.json":    hooks("", "team"),
	})
	seen := map[string]bool{}
	u, p := load(t, filepath.Join(dir, "user.json")), load(t, filepath.Join(dir, "project.json"))
	_, err := Resolve(u, Options{Seen: seen})
	require.NoError(t, err)
	_, err = Resolve(p, Options{Seen: seen})
	require.NoError(t, err)
	require.Equal(t, []string{"team:", "user:"}, names(u))
	require.Equal(t, []string{"project:"}, names(p))
}

// Without a cache folder nothing is read from, or written to, the
// current folder.
func TestCacheNone(t *testing.T) {
	content := []byte(hooks("", "x"))
	t.Chdir(t.TempDir())
	sum, _ := config.PinSum(config.Integrity(content))
	require.NoError(t, os.WriteFile(filepath.Base(Cache{Dir: "/"}.path(sum)), content, 0o600))
	got, damaged, err := Cache{}.Get(config.Integrity(content))
	require.NoError(t, err)
	require.False(t, damaged)
	require.Nil(t, got)
	require.Error(t, Cache{}.Put(content))
	_, err = DefaultCache(func(string) string { return "" })
	require.Error(t, err)
}
