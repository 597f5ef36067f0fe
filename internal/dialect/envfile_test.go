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

// The names of an env file's variables, for notes, are those
// EnvOfExports reads, including one set by a command; nothing of a file
// that is not shell.
func TestExportNames(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"export NODE_ENV=development\n", []string{"NODE_ENV"}},
		{"export A='x y' B=1\nC=3\n", []string{"A", "B", "C"}},
		{"export PATH=\"$PATH:/opt/bin\"\nexport PATH=\"/x:$PATH\"\n", []string{"PATH"}},
		{"export V=$(git rev-parse HEAD)\nexport OK=1\n", []string{"V", "OK"}},
		{"if true; then export IN=1; fi\necho hi\nexport ONLY\n", nil},
		{"  export\tSPACED=1 # said\n", []string{"SPACED"}},
		{"export A='unterminated\n", nil},
	} {
		require.Equal(t, tc.want, ExportNames([]byte(tc.file)), tc.file)
	}
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
