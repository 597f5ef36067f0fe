package dialect

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A hook's env file lines are read as sh would read them, without running
// anything; an env object is written back as lines sh reads the same.
func TestEnvOfExports(t *testing.T) {
	for _, tc := range []struct {
		file, want, skipped string
	}{
		{"export NODE_ENV=development\n", `{"NODE_ENV":"development"}`, ""},
		{"export A='x y' B=\"$HOME/bin\"\nC=3\n", `{"A":"x y","B":"/home/u/bin","C":"3"}`, ""},
		{"export PATH=\"$PATH:/opt/bin\"\nexport PATH=\"/x:$PATH\"\n", `{"PATH":"/x:/usr/bin:/opt/bin"}`, ""},
		{"export V=$(git rev-parse HEAD)\nexport OK=1\n", `{"OK":"1"}`, "V (set by a command, not run)"},
		{"echo hi\n", ``, "a command line"},
		{"export ONLY\n", ``, ""},
	} {
		got, skipped, err := EnvOfExports([]byte(tc.file), []string{"HOME=/home/u", "PATH=/usr/bin"})
		require.NoError(t, err, tc.file)
		if tc.want == "" {
			require.Nil(t, got, tc.file)
		} else {
			require.JSONEq(t, tc.want, string(got), tc.file)
		}
		if tc.skipped == "" {
			require.Empty(t, skipped, tc.file)
		} else {
			require.Equal(t, []string{tc.skipped}, skipped, tc.file)
		}
	}
	_, _, err := EnvOfExports([]byte("export A='unterminated\n"), nil)
	require.Error(t, err)
}

func TestExportsOfEnv(t *testing.T) {
	lines := ExportsOfEnv([]byte(`{"B":"it's","A":"1","bad name":"x"}`))
	require.Equal(t, "export A=1\nexport B='it'\\''s'\n", string(lines))
	back, skipped, err := EnvOfExports(lines, nil)
	require.NoError(t, err)
	require.Empty(t, skipped)
	require.JSONEq(t, `{"A":"1","B":"it's"}`, string(back))
	require.Nil(t, ExportsOfEnv([]byte(`{}`)))
}
