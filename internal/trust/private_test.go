//go:build unix

package trust

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// An allowance in a folder others can write in, or a record that is a
// link (to a file others can write), is not honoured.
func TestAllowanceMustBePrivate(t *testing.T) {
	for name, spoil := range map[string]func(s Store, record string){
		"world-writable store":  func(s Store, _ string) { require.NoError(t, os.Chmod(s.Dir, 0o777)) },
		"world-writable allow":  func(_ Store, record string) { require.NoError(t, os.Chmod(filepath.Dir(record), 0o757)) },
		"group-writable record": func(_ Store, record string) { require.NoError(t, os.Chmod(record, 0o620)) },
		"record is a link": func(_ Store, record string) {
			other := filepath.Join(t.TempDir(), "rec")
			b, err := os.ReadFile(record)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(other, b, 0o666))
			require.NoError(t, os.Chmod(other, 0o666))
			require.NoError(t, os.Remove(record))
			require.NoError(t, os.Symlink(other, record))
		},
	} {
		t.Run(name, func(t *testing.T) {
			s := store(t)
			f := project(t, nil, "echo")
			_, _, err := s.Allow(f)
			require.NoError(t, err)
			v, err := s.Verify(f.Path)
			require.NoError(t, err)
			require.Equal(t, Allowed, v.State)

			spoil(s, s.Allowance(f.Path))
			v, err = s.Verify(f.Path)
			require.ErrorContains(t, err, "only this user can write")
			require.Equal(t, Unknown, v.State)
			require.Nil(t, v.Content)
			st, err := s.Check(f)
			require.Error(t, err)
			require.NotEqual(t, Allowed, st)
		})
	}
}

// allow refuses to record into a store others can write in.
func TestAllowRefusesSharedStore(t *testing.T) {
	s := store(t)
	require.NoError(t, os.Chmod(s.Dir, 0o777))
	_, _, err := s.Allow(project(t, nil, "echo"))
	require.ErrorContains(t, err, "only this user can write")
}
