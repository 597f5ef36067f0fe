//go:build unix

package private

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func lstat(t *testing.T, p string) os.FileInfo {
	st, err := os.Lstat(p)
	require.NoError(t, err)
	return st
}

func TestDir(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o700))
	require.NoError(t, Dir(dir, lstat(t, dir)))
	for _, mode := range []os.FileMode{0o777, 0o770, 0o702} {
		require.NoError(t, os.Chmod(dir, mode))
		require.Error(t, Dir(dir, lstat(t, dir)), "mode %o", mode)
	}
	require.NoError(t, os.Chmod(dir, 0o755))
	require.NoError(t, Dir(dir, lstat(t, dir)), "readable by others is fine")

	link := filepath.Join(t.TempDir(), "link")
	require.NoError(t, os.Symlink(dir, link))
	require.Error(t, Dir(link, lstat(t, link)), "a link is refused, not followed")
	f := filepath.Join(dir, "f")
	require.NoError(t, os.WriteFile(f, nil, 0o600))
	require.Error(t, Dir(f, lstat(t, f)))
}

func TestFile(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "f")
	require.NoError(t, os.WriteFile(f, nil, 0o600))
	require.NoError(t, File(f, lstat(t, f)))
	require.NoError(t, os.Chmod(f, 0o666))
	require.Error(t, File(f, lstat(t, f)))
	require.NoError(t, os.Chmod(f, 0o600))
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(f, link))
	require.Error(t, File(link, lstat(t, link)), "a link is refused, even to a private file")
	require.Error(t, File(dir, lstat(t, dir)))
}

// EnsureDir makes a missing folder this user's alone, and refuses one
// that is there and that others can write in.
func TestEnsureDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	require.NoError(t, EnsureDir(dir))
	require.Equal(t, os.FileMode(0o700), lstat(t, dir).Mode().Perm())
	require.NoError(t, EnsureDir(dir))
	require.NoError(t, os.Chmod(dir, 0o777))
	require.Error(t, EnsureDir(dir))
}
