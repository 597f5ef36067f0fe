package doctor

import (
	"path/filepath"
	"testing"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// What a hook call could not pull in is a problem, with its fix: a URL
// not in the cache (fetch it), a path that is not there (fix the entry),
// no cache at all.
func TestExtends(t *testing.T) {
	root := t.TempDir()
	hook := `{"name": "ok", "event": "before_tool_execute", "handler": {"type": "command", "command": "true"}}`
	pin := config.Integrity([]byte(`{"spec": "hooks/0.1", "hooks": [` + hook + `]}`))
	path := filepath.Join(root, ".openhook.json")
	for _, tc := range []struct {
		name, extends string
		vars          map[string]string
		want          []Problem
	}{{
		name:    "url not cached",
		extends: `{"url": "https://example.com/policy.json", "integrity": "` + pin + `"}`,
		vars:    map[string]string{"XDG_CACHE_HOME": filepath.Join(root, "cache")},
		want:    []Problem{{Area: "extends", Path: path, Fix: "hookshim fetch"}},
	}, {
		name:    "missing path",
		extends: `{"path": "nosuch.json"}`,
		vars:    map[string]string{"XDG_CACHE_HOME": filepath.Join(root, "cache")},
		want:    []Problem{{Area: "extends", Path: path, Fix: "fix the entry (docs/config.md, \"extends\"); until then every call answers as on_error says"}},
	}, {
		name:    "no cache",
		extends: `{"path": "nosuch.json"}`,
		vars:    map[string]string{},
		want:    []Problem{{Area: "extends", Fix: "set HOME or XDG_CACHE_HOME"}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(`{"spec": "hooks/0.1", "extends": [` + tc.extends + `], "hooks": [` + hook + `]}`)
			f, err := config.Parse(path, data)
			require.NoError(t, err)
			r := &Report{}
			Extends(func(k string) string { return tc.vars[k] })(r, []config.Found{{File: f}})
			require.Len(t, r.Problems, len(tc.want))
			for i, p := range r.Problems {
				assert.NotEmpty(t, p.Message)
				p.Message = ""
				assert.Equal(t, tc.want[i], p)
			}
		})
	}
	// A config extending nothing has nothing to pull in, and needs no cache.
	r := &Report{}
	f, err := config.Parse(path, []byte(`{"spec": "hooks/0.1", "hooks": [`+hook+`]}`))
	require.NoError(t, err)
	Extends(func(string) string { return "" })(r, []config.Found{{File: f}})
	assert.Empty(t, r.Problems)
}
