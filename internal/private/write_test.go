package private

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// WriteThrough: a new file gets perm, an existing one keeps its mode, a
// link stays a link and the file it names is replaced, and nothing is left
// beside the file.
func TestWriteThrough(t *testing.T) {
	dir := t.TempDir()
	fresh := filepath.Join(dir, "fresh.json")
	require.NoError(t, WriteThrough(fresh, []byte("one"), 0o640))
	require.Equal(t, "one", read(t, fresh))
	if runtime.GOOS != "windows" {
		require.Equal(t, fs.FileMode(0o640), mode(t, fresh))
		require.NoError(t, os.Chmod(fresh, 0o604))
		require.NoError(t, WriteThrough(fresh, []byte("two"), 0o600))
		require.Equal(t, fs.FileMode(0o604), mode(t, fresh), "the file's own mode is kept")
		require.Equal(t, "two", read(t, fresh))
	}

	if runtime.GOOS == "windows" {
		return // symbolic links need a privilege there
	}
	// A chain of links, relative and absolute: the last file is written.
	dots := filepath.Join(dir, "dotfiles")
	require.NoError(t, os.Mkdir(dots, 0o755))
	real := filepath.Join(dots, "config.json")
	require.NoError(t, os.WriteFile(real, []byte("old"), 0o644))
	require.NoError(t, os.Symlink("dotfiles/config.json", filepath.Join(dir, "mid.json")))
	link := filepath.Join(dir, "link.json")
	require.NoError(t, os.Symlink(filepath.Join(dir, "mid.json"), link))
	got, err := LinkTarget(link)
	require.NoError(t, err)
	require.Equal(t, real, got)
	require.NoError(t, WriteThrough(link, []byte("new"), 0o600))
	for _, l := range []string{link, filepath.Join(dir, "mid.json")} {
		requireLink(t, l)
	}
	require.Equal(t, "new", read(t, real))
	require.Equal(t, fs.FileMode(0o644), mode(t, real))

	// A dangling link: the file is made where it points.
	dangling := filepath.Join(dir, "dangling.json")
	require.NoError(t, os.Symlink("dotfiles/later.json", dangling))
	require.NoError(t, WriteThrough(dangling, []byte("later"), 0o600))
	require.Equal(t, "later", read(t, filepath.Join(dots, "later.json")))
	requireLink(t, dangling)

	// A loop is an error, and nothing is written.
	loop := filepath.Join(dir, "loop")
	require.NoError(t, os.Symlink("loop", loop))
	require.ErrorContains(t, WriteThrough(loop, []byte("x"), 0o600), "too many symbolic links")

	// No temporary file is left behind.
	for _, d := range []string{dir, dots} {
		entries, err := os.ReadDir(d)
		require.NoError(t, err)
		for _, e := range entries {
			require.NotContains(t, e.Name(), ".hookshim-", "left in %s", d)
		}
	}
}

// WriteFile, for hookshim's own state: the file gets perm whatever it
// had, and a link at the path is replaced, the file it named untouched.
func TestWriteFileState(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("modes and symbolic links are not those of Unix there")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "record")
	require.NoError(t, os.WriteFile(p, []byte("old"), 0o666))
	require.NoError(t, os.Chmod(p, 0o666))
	require.NoError(t, WriteFile(p, []byte("new"), 0o600))
	require.Equal(t, "new", read(t, p))
	require.Equal(t, fs.FileMode(0o600), mode(t, p))

	other := filepath.Join(dir, "bashrc")
	require.NoError(t, os.WriteFile(other, []byte("mine"), 0o644))
	planted := filepath.Join(dir, "planted")
	require.NoError(t, os.Symlink(other, planted))
	require.NoError(t, WriteFile(planted, []byte("state"), 0o600))
	require.Equal(t, "mine", read(t, other))
	st, err := os.Lstat(planted)
	require.NoError(t, err)
	require.True(t, st.Mode().IsRegular(), "the link is replaced by the file")
	require.Equal(t, "state", read(t, planted))
}

func mode(t *testing.T, p string) fs.FileMode {
	t.Helper()
	st, err := os.Stat(p)
	require.NoError(t, err)
	return st.Mode().Perm()
}

func requireLink(t *testing.T, p string) {
	t.Helper()
	st, err := os.Lstat(p)
	require.NoError(t, err)
	require.NotZero(t, st.Mode()&fs.ModeSymlink, "%s is still a link", p)
}

// A file that cannot be written is left as it was, with no temporary file
// beside it.
func TestWriteFileFailure(t *testing.T) {
	if runtime.GOOS == "windows" || os.Getuid() == 0 {
		t.Skip("needs a folder this user cannot write in")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "c.json")
	require.NoError(t, os.WriteFile(p, []byte("old"), 0o644))
	require.NoError(t, os.Chmod(dir, 0o555))
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	require.Error(t, WriteFile(p, []byte("new"), 0o600))
	require.Error(t, WriteThrough(p, []byte("new"), 0o600))
	require.Equal(t, "old", read(t, p))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1)
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	return string(b)
}
