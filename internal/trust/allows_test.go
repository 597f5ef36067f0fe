package trust

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestAllows(t *testing.T) {
	f := project(t, nil, "true")
	state := t.TempDir()
	getenv := func(k string) string { return map[string]string{"XDG_STATE_HOME": state}[k] }
	ok, err := Allows(f.Path, getenv)
	require.NoError(t, err)
	require.False(t, ok, "not allowed yet")
	store, err := DefaultStore(getenv)
	require.NoError(t, err)
	_, _, err = store.Allow(f)
	require.NoError(t, err)
	ok, err = Allows(f.Path, getenv)
	require.NoError(t, err)
	require.True(t, ok)
	_, err = Allows(filepath.Join(f.Dir, "nosuch.json"), getenv)
	require.Error(t, err)
	_, err = Allows(f.Path, func(string) string { return "" })
	require.Error(t, err, "no state folder")
}
