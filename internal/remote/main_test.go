package remote

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// hookshim-remote run by hand says what it is, and its version, without
// reading stdin or its variable; an unknown argument is an error.
func TestMainHelpVersion(t *testing.T) {
	noEnv := func(k string) string { t.Fatalf("read %s", k); return "" }
	for _, tc := range []struct {
		args []string
		code int
		out  string
		err  string
	}{
		{[]string{"--help"}, 0, "Usage:\n  hookshim-remote version", ""},
		{[]string{"-h"}, 0, "Usage:\n  hookshim-remote version", ""},
		{[]string{"help"}, 0, "Usage:\n  hookshim-remote version", ""},
		{[]string{"version"}, 0, "hookshim-remote ", ""},
		{[]string{"--version"}, 0, "\n  commit: ", ""},
		{[]string{"post"}, 2, "", "hookshim-remote: error: unknown command \"post\"\nhookshim-remote: hint: run 'hookshim-remote --help'"},
	} {
		var stdout, stderr bytes.Buffer
		code := Main(tc.args, failingReader{t}, &stdout, &stderr, noEnv)
		require.Equal(t, tc.code, code, strings.Join(tc.args, " "))
		if tc.out == "" {
			require.Empty(t, stdout.String())
		} else {
			require.Contains(t, stdout.String(), tc.out)
		}
		if tc.err == "" {
			require.Empty(t, stderr.String())
		} else {
			require.Contains(t, stderr.String(), tc.err)
		}
	}
}
