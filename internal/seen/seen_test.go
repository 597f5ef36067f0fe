package seen

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestMarkAndLast(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "seen")
	_, ok := Last(dir, "claude-code", "PreToolUse")
	require.False(t, ok)

	before := time.Now().Add(-time.Second)
	require.NoError(t, Mark(dir, "claude-code", "PreToolUse"))
	at, ok := Last(dir, "claude-code", "PreToolUse")
	require.True(t, ok)
	require.True(t, at.After(before), "%v", at)

	// A second call only moves the time.
	old := time.Now().Add(-time.Hour)
	p := filepath.Join(dir, "claude-code", "PreToolUse")
	require.NoError(t, os.Chtimes(p, old, old))
	require.NoError(t, Mark(dir, "claude-code", "PreToolUse"))
	at, _ = Last(dir, "claude-code", "PreToolUse")
	require.True(t, at.After(before))
}

// Once the stamp exists, marking writes nothing but its time: it works in
// a folder nothing can be created in any more.
func TestMarkExistingNeedsNoCreate(t *testing.T) {
	if runtime.GOOS == "windows" || os.Getuid() == 0 {
		t.Skip("needs a folder the user cannot write")
	}
	dir := t.TempDir()
	require.NoError(t, Mark(dir, "codex", "Stop"))
	require.NoError(t, os.Chmod(filepath.Join(dir, "codex"), 0o500))
	t.Cleanup(func() { os.Chmod(filepath.Join(dir, "codex"), 0o700) })
	require.NoError(t, Mark(dir, "codex", "Stop"))
	require.Error(t, Mark(dir, "codex", "Start"))
}

// Marking never panics and says why it could not mark.
func TestMarkFailures(t *testing.T) {
	require.Error(t, Mark("", "codex", "Stop"))
	require.Error(t, Mark(t.TempDir(), "", "Stop"))
	require.Error(t, Mark(t.TempDir(), "codex", string(make([]byte, 200))))
	file := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	require.Error(t, Mark(file, "codex", "Stop"))
}

// Any name is kept inside the folder and read back as it was written.
func TestNamesRoundTrip(t *testing.T) {
	dir := t.TempDir()
	names := []string{"tool:pre", "../../etc/passwd", ".hidden", "a/b", "", "Pre Tool", "100%", "é"}
	for _, n := range names {
		require.NoError(t, Mark(dir, "amplifier", n))
	}
	stamps, err := All(dir)
	require.NoError(t, err)
	var got []string
	for _, s := range stamps {
		require.Equal(t, "amplifier", s.Provider)
		got = append(got, s.Event)
		_, ok := Last(dir, "amplifier", s.Event)
		require.True(t, ok, s.Event)
	}
	require.ElementsMatch(t, names, got)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "nothing escaped the provider folder")
	require.Equal(t, "tool%3Apre", escape("tool:pre"))
	require.Equal(t, "PreToolUse", escape("PreToolUse"))
}

func TestAll(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "seen")
	stamps, err := All(dir)
	require.NoError(t, err)
	require.Empty(t, stamps)
	require.NoError(t, Mark(dir, "gemini-cli", "BeforeTool"))
	require.NoError(t, Mark(dir, "claude-code", "Stop"))
	require.NoError(t, Mark(dir, "claude-code", "PreToolUse"))
	stamps, err = All(dir)
	require.NoError(t, err)
	var got []string
	for _, s := range stamps {
		got = append(got, s.Provider+"/"+s.Event)
		require.False(t, s.Time.IsZero())
	}
	require.Equal(t, []string{"claude-code/PreToolUse", "claude-code/Stop", "gemini-cli/BeforeTool"}, got)
}

func TestDir(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	require.Equal(t, filepath.Join("/s", "hookshim", "seen"), Dir(env(map[string]string{"XDG_STATE_HOME": "/s", "HOME": "/h"})))
	require.Equal(t, filepath.Join("/h", ".local", "state", "hookshim", "seen"), Dir(env(map[string]string{"HOME": "/h"})))
	require.Equal(t, "", Dir(env(nil)))
}

func BenchmarkMark(b *testing.B) {
	dir := b.TempDir()
	require.NoError(b, Mark(dir, "claude-code", "PreToolUse"))
	b.ReportAllocs()
	for b.Loop() {
		if err := Mark(dir, "claude-code", "PreToolUse"); err != nil {
			b.Fatal(err)
		}
	}
}
