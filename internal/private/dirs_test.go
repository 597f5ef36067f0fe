package private

import "testing"

func TestDirs(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, c := range []struct {
		vars         map[string]string
		state, cache string
	}{
		{map[string]string{"HOME": "/h"}, "/h/.local/state/hookshim", "/h/.cache/hookshim"},
		{map[string]string{"HOME": "/h", "XDG_STATE_HOME": "/s", "XDG_CACHE_HOME": "/c"}, "/s/hookshim", "/c/hookshim"},
		{map[string]string{}, "", ""},
	} {
		if got := StateDir(env(c.vars)); got != c.state {
			t.Errorf("StateDir(%v) = %q, want %q", c.vars, got, c.state)
		}
		if got := CacheDir(env(c.vars)); got != c.cache {
			t.Errorf("CacheDir(%v) = %q, want %q", c.vars, got, c.cache)
		}
	}
}
