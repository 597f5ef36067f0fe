package rule

import (
	"testing"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEventFilePaths: every file of a multi-file call, as the canonical
// event lists it, is one of the call's paths, once.
func TestEventFilePaths(t *testing.T) {
	ev := &event.Event{Name: event.BeforeToolExecute, Provider: "codex", Cwd: "/home/u/proj",
		Tool: &event.Tool{Name: "file_edit", Native: "apply_patch", FilePath: "src/a.go",
			Input: []byte(`{"command":"*** Begin Patch\n*** Update File: src/a.go\n*** Add File: /home/u/proj/.env\n*** End Patch"}`)}}
	ev.Set("file_paths", []byte(`["src/a.go","/home/u/proj/.env"]`))
	env := NewEnv(ev)
	assert.Equal(t, []string{"src/a.go", ".env"}, env.Paths)
	r, err := Compile(`any(paths, base(#) == ".env")`)
	require.NoError(t, err)
	got, err := r.Match(env)
	require.NoError(t, err)
	assert.True(t, got)
}
