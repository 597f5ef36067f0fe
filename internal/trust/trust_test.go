package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/stretchr/testify/require"
)

// project writes files (path: content; a path ending in / is a folder)
// under a new project root, and a config whose hooks run commands.
func project(t testing.TB, files map[string]string, commands ...string) *config.File {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		full := filepath.Join(dir, p)
		if strings.HasSuffix(p, "/") {
			require.NoError(t, os.MkdirAll(full, 0o755))
			continue
		}
		require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
		require.NoError(t, os.WriteFile(full, []byte(c), 0o644))
	}
	var hooks []string
	for i, c := range commands {
		b, _ := json(c)
		hooks = append(hooks, fmt.Sprintf(`{"name": "h%d", "event": "before_tool_execute", "handler": {"type": "command", "command": %s}}`, i, b))
	}
	path := filepath.Join(dir, config.FileName)
	require.NoError(t, os.WriteFile(path, []byte(`{"spec": "hooks/0.1", "hooks": [`+strings.Join(hooks, ",")+`]}`), 0o644))
	f, err := config.Load(path)
	require.NoError(t, err)
	return f
}

func json(s string) (string, error) {
	return fmt.Sprintf("%q", s), nil // Go quoting is JSON for these ASCII commands
}

// The digest's layout: changing it revokes every allowance, which the
// record's header must then say (Outdated).
func TestDigestLayout(t *testing.T) {
	f := project(t, map[string]string{"hooks/h.sh": "echo\n"}, "sh hooks/h.sh")
	pins := Pins(f)
	hooks := filepath.Join(f.Dir, "hooks")
	require.Equal(t, []Pin{{Path: hooks, Tree: true}}, pins)
	got, files, err := digest(f.Path, f.Content, pins)
	require.NoError(t, err)
	require.Equal(t, []string{hooks, filepath.Join(hooks, "h.sh")}, files)
	want := sha256.Sum256([]byte(fmt.Sprintf("hookshim-trust 2\nconfig %s\n%d\n%s\ndir %s\n0\n\nfile %s\n5\necho\n\n",
		f.Path, len(f.Content), f.Content, hooks, filepath.Join(hooks, "h.sh"))))
	require.Equal(t, hex.EncodeToString(want[:]), got)
}

// The rule of Pins, case by case: what each command pins.
func TestPins(t *testing.T) {
	files := map[string]string{
		"hooks/h.sh": "", "hooks/lib/l.sh": "", "tools/deep/x.sh": "", "guard.sh": "", "Makefile": "",
		"package.json": "", "pkg/__init__.py": "", "mod.py": "", "data/": "",
	}
	tree := func(p string) string { return "tree " + p }
	file := func(p string) string { return "file " + p }
	for _, tc := range []struct {
		cmd  string
		want []string
	}{
		{"sh hooks/h.sh", []string{tree("hooks")}},
		{"cd hooks && sh h.sh", []string{tree("hooks")}},
		{`sh -c "sh hooks/h.sh"`, []string{tree("hooks")}},
		{`bash -c 'cd hooks; ./h.sh'`, []string{tree("hooks")}},
		{`bash -ec 'cd tools && sh deep/x.sh'`, []string{tree("tools")}},
		{"sh hooks/h*.sh", []string{tree("hooks")}},
		{"sh $PWD/hooks/h.sh", []string{tree("hooks")}},
		{`sh "${CLAUDE_PROJECT_DIR}/tools/deep/x.sh"`, []string{tree("tools/deep")}},
		{"sh hooks/$NAME.sh", []string{tree("hooks")}},
		{"sh ./guard.sh", []string{file("guard.sh")}},
		{"sh missing.sh", []string{file("missing.sh")}},
		{"sh later/x.sh", []string{tree("later")}},
		{"make check", []string{file("GNUmakefile"), file("Makefile"), file("makefile")}},
		{"make -C tools", []string{tree("tools")}},
		{"npm run check", []string{file("package.json"), tree("scripts")}},
		{"python3 -m pkg.sub", []string{tree("pkg")}},
		{"python3 -m mod", []string{file("mod.py")}},
		{"cat data", []string{tree("data")}},
		{"echo hello world", nil},
		{`env -i A=b sh -c "sh hooks/h.sh"`, []string{tree("hooks")}},
		{`timeout 5 nice -n 5 sh -c 'cd tools; sh deep/x.sh'`, []string{tree("tools")}},
		{"cd later && sh x.sh", []string{tree("later")}},
		{"cd /tmp && sh hooks/h.sh", nil},
		{"cd $HOME && sh guard.sh", []string{file("guard.sh")}},
		{"sh /etc/x.sh ../outside/x.sh", nil},
		{"cd $CLAUDE_PROJECT_DIR && sh hooks/lib/l.sh hooks/h.sh", []string{tree("hooks")}},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			f := project(t, files, tc.cmd)
			var got []string
			for _, p := range Pins(f) {
				rel, err := filepath.Rel(f.Dir, p.Path)
				require.NoError(t, err)
				got = append(got, strings.TrimSuffix(p.line(), p.Path)+rel)
			}
			require.Equal(t, tc.want, got)
		})
	}
}

func store(t *testing.T) Store {
	dir := filepath.Join(t.TempDir(), "trust")
	require.NoError(t, os.MkdirAll(dir, 0o700))
	return Store{Dir: dir}
}

// Every file under a pinned folder is part of the allowance: an edit, a
// new file, a file removed are changes, each named; the allowed version
// is what the call gets to run.
func TestVerifyPinnedTree(t *testing.T) {
	s := store(t)
	for name, tc := range map[string]struct {
		change func(dir string)
		want   []string // path relative to the project, then how
	}{
		"edit":   {func(dir string) { os.WriteFile(filepath.Join(dir, "hooks/lib/l.sh"), []byte("evil"), 0o644) }, []string{"hooks/lib/l.sh edited"}},
		"add":    {func(dir string) { os.WriteFile(filepath.Join(dir, "hooks/new.sh"), nil, 0o644) }, []string{"hooks/new.sh added"}},
		"remove": {func(dir string) { os.Remove(filepath.Join(dir, "hooks/lib/l.sh")) }, []string{"hooks/lib/l.sh removed"}},
		"appear": {func(dir string) { os.MkdirAll(filepath.Join(dir, "later"), 0o755) }, []string{"later added"}},
		"config": {func(dir string) { os.WriteFile(filepath.Join(dir, config.FileName), []byte("{}"), 0o644) }, []string{config.FileName + " edited"}},
		"config and script": {func(dir string) {
			os.WriteFile(filepath.Join(dir, "hooks/h.sh"), []byte("exit 0"), 0o644)
			os.Remove(filepath.Join(dir, config.FileName))
		}, []string{config.FileName + " removed", "hooks/h.sh edited"}},
	} {
		t.Run(name, func(t *testing.T) {
			f := project(t, map[string]string{"hooks/h.sh": ". ./lib/l.sh", "hooks/lib/l.sh": "ok"}, "sh later/x.sh; cd hooks && sh h.sh")
			_, _, err := s.Allow(f)
			require.NoError(t, err)
			v, err := s.Verify(f.Path)
			require.NoError(t, err)
			require.Equal(t, Allowed, v.State)
			require.Equal(t, f.Content, v.Content)
			require.NotNil(t, v.Copy())
			tc.change(f.Dir)
			v, err = s.Verify(f.Path)
			require.NoError(t, err)
			require.Equal(t, Changed, v.State)
			require.Equal(t, f.Content, v.Content, "the allowed version runs")
			var got []string
			for _, c := range v.Changes {
				rel, _ := filepath.Rel(f.Dir, c.Path)
				got = append(got, rel+" "+c.How)
			}
			require.Equal(t, tc.want, got)
			changes, kept := s.Changes(f.Path)
			require.True(t, kept)
			require.Equal(t, v.Changes, changes)
		})
	}
}

// What tools and editors write beside the scripts is no change: Python's
// bytecode cache, swap, backup and lock files, .DS_Store.
func TestGeneratedFilesAreNoChange(t *testing.T) {
	s := store(t)
	f := project(t, map[string]string{"hooks/guard.py": "import helper\n", "hooks/helper.py": "X = 1\n"}, "python3 hooks/guard.py")
	_, _, err := s.Allow(f)
	require.NoError(t, err)
	for _, p := range []string{"hooks/__pycache__/helper.cpython-312.pyc", "hooks/helper.pyc", "hooks/.guard.py.swp", "hooks/.guard.py.swo",
		"hooks/guard.py~", "hooks/#guard.py#", "hooks/.DS_Store"} {
		full := filepath.Join(f.Dir, p)
		require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
		require.NoError(t, os.WriteFile(full, []byte("x"), 0o644))
	}
	require.NoError(t, os.Symlink("user@host.123", filepath.Join(f.Dir, "hooks/.#guard.py")))
	v, err := s.Verify(f.Path)
	require.NoError(t, err)
	require.Equal(t, Allowed, v.State)
	changes, _ := s.Changes(f.Path)
	require.Empty(t, changes)
}

// A config without an allowance is never read, whatever it holds.
func TestVerifyUnknownIsNotRead(t *testing.T) {
	s := store(t)
	path := filepath.Join(t.TempDir(), config.FileName)
	require.NoError(t, os.Mkdir(path, 0o755)) // a folder: any read would fail
	v, err := s.Verify(path)
	require.NoError(t, err)
	require.Equal(t, Unknown, v.State)
	require.Nil(t, v.Content)
}

// A config grown past the size bound after its allowance is a change:
// the allowed version runs.
func TestVerifyTooLarge(t *testing.T) {
	s := store(t)
	f := project(t, nil, "echo")
	_, _, err := s.Allow(f)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(f.Path, make([]byte, config.MaxFileSize+1), 0o644))
	v, err := s.Verify(f.Path)
	require.NoError(t, err)
	require.Equal(t, Changed, v.State)
	require.Equal(t, f.Content, v.Content)
}

// An allowance recorded by the previous layout allows nothing, and says so.
func TestOutdatedRecord(t *testing.T) {
	s := store(t)
	f := project(t, nil, "echo")
	allow := s.Allowance(f.Path)
	require.NoError(t, os.MkdirAll(filepath.Dir(allow), 0o700))
	require.NoError(t, os.WriteFile(allow, []byte(strings.Repeat("ab", 32)+"\n"+f.Path+"\n"), 0o600))
	v, err := s.Verify(f.Path)
	require.NoError(t, err)
	require.Equal(t, Outdated, v.State)
	require.Nil(t, v.Content, "no copy: nothing to run")
	require.Contains(t, v.State.String(), "changed since allowed")
}

// Beyond the bounds, allow refuses.
func TestAllowBound(t *testing.T) {
	files := map[string]string{}
	for i := 0; i <= MaxPinnedFiles; i++ {
		files[fmt.Sprintf("hooks/f%04d", i)] = ""
	}
	f := project(t, files, "sh hooks/f0000")
	_, _, err := store(t).Allow(f)
	var over *BoundError
	require.ErrorAs(t, err, &over)

	f = project(t, map[string]string{"big/a": strings.Repeat("x", MaxPinnedBytes/2+1), "big/b": strings.Repeat("x", MaxPinnedBytes/2+1)}, "sh big/a")
	_, _, err = store(t).Allow(f)
	require.ErrorAs(t, err, &over)
}
