package config

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The gate decides on the project file before it is parsed: a skipped
// file, however broken, leaves the user's config in force; a file the
// gate lets through is parsed from the bytes it returned, and its parse
// error is discovery's.
func TestDiscoverGate(t *testing.T) {
	home := t.TempDir()
	proj := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".config", "hookshim"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(home, ".config", "hookshim", "openhook.json"), []byte(`{"openhook":"0.1","hooks":[{"command":"user"}]}`), 0o644))
	path := filepath.Join(proj, FileName)
	require.NoError(t, os.WriteFile(path, []byte("{ nope"), 0o644))
	getenv := func(k string) string { return map[string]string{"HOME": home}[k] }

	var asked []string
	skip := func(p string) ([]byte, error) { asked = append(asked, p); return nil, ErrSkip }
	found, err := Discover(Sources{Getenv: getenv, StartDirs: []string{proj}, Gate: skip})
	require.NoError(t, err)
	require.Len(t, found, 1)
	require.Equal(t, "user", found[0].Hooks[0].Command)
	require.Equal(t, []string{path}, asked)

	// Let through: the gate's bytes are parsed, not the file's.
	pass := func(string) ([]byte, error) { return []byte(`{"openhook":"0.1","hooks":[{"command":"checked"}]}`), nil }
	found, err = Discover(Sources{Getenv: getenv, StartDirs: []string{proj}, Gate: pass})
	require.NoError(t, err)
	require.Len(t, found, 2)
	require.Equal(t, "checked", found[1].Hooks[0].Command)
	require.True(t, found[1].Discovered)

	broken := func(p string) ([]byte, error) { return ReadFile(p) }
	_, err = Discover(Sources{Getenv: getenv, StartDirs: []string{proj}, Gate: broken})
	require.ErrorContains(t, err, FileName, "a trusted file's parse error still fails")

	failing := func(string) ([]byte, error) { return nil, errors.New("boom") }
	_, err = Discover(Sources{Getenv: getenv, StartDirs: []string{proj}, Gate: failing})
	require.ErrorContains(t, err, "boom")

	// Without a gate (doctor, simulate) the file is read and parsed.
	_, err = Discover(Sources{Getenv: getenv, StartDirs: []string{proj}})
	require.Error(t, err)
}

func TestReadFileMax(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(p, []byte("12345"), 0o644))
	b, err := ReadFileMax(p, 5)
	require.NoError(t, err)
	require.Equal(t, "12345", string(b))

	_, err = ReadFileMax(p, 4)
	var big *TooLargeError
	require.ErrorAs(t, err, &big)
	require.Equal(t, int64(5), big.Size)
	require.ErrorContains(t, err, "larger than 4 bytes")

	b, err = ReadFileMax(p, -1)
	require.NoError(t, err)
	require.Equal(t, "12345", string(b))
}

// Start folders that repeat one another are searched once, and a later
// start in another tree still finds its config.
func TestDiscoverStartsSearchedOnce(t *testing.T) {
	a := t.TempDir()
	b := t.TempDir()
	sub := filepath.Join(a, "sub")
	require.NoError(t, os.MkdirAll(sub, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(b, FileName), []byte(`{"openhook":"0.1","hooks":[{"command":"b"}]}`), 0o644))
	getenv := func(string) string { return "" }
	found, err := Discover(Sources{Getenv: getenv, StartDirs: []string{sub, a, sub, b}})
	require.NoError(t, err)
	require.Len(t, found, 1)
	require.Equal(t, "b", found[0].Hooks[0].Command)

	var searched []string
	require.Empty(t, findUp(sub, &searched))
	n := len(searched)
	require.Empty(t, findUp(a, &searched))
	require.Len(t, searched, n, "a was searched with sub")
}

// The longest timeout is the longest of the handlers a call waits for, in
// the user's config and the project's: an async handler is not waited for.
func TestLongestTimeout(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	getenv := func(k string) string { return map[string]string{"HOME": home}[k] }
	require.Zero(t, LongestTimeout(getenv, proj), "no config")
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".config", "hookshim"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(home, ".config", "hookshim", "openhook.json"), []byte(`{"spec": "hooks/0.1", "hooks": [
  {"name": "user", "event": "before_tool_execute", "handler": {"type": "command", "command": "true", "timeout": 20}}]}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(proj, FileName), []byte(`{"spec": "hooks/0.1", "hooks": [
  {"name": "short", "event": "before_tool_execute", "handler": {"type": "command", "command": "true", "timeout": 5}},
  {"name": "late", "event": "before_tool_execute", "handler": {"type": "command", "command": "true", "timeout": 90, "async": true}}]}`), 0o644))
	require.Equal(t, 20*time.Second, LongestTimeout(getenv, proj))
	require.NoError(t, os.WriteFile(filepath.Join(proj, FileName), []byte(`{`), 0o644))
	require.Zero(t, LongestTimeout(getenv, proj), "a config that cannot be read")
}
