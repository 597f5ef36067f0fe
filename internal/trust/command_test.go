package trust

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookshim/hookshim/internal/shellquote"
	"github.com/stretchr/testify/require"
)

// Each word that names a pinned file is pointed at the copy; nothing else
// of the line changes; what cannot be pointed there is said.
func TestCopyCommand(t *testing.T) {
	files := map[string]string{
		"hooks/h.sh": "", "hooks/g.py": "import helper\n", "hooks/helper.py": "", "lib/x.sh": "",
		"g.py": "from helper2 import f\n", "helper2.py": "", "Makefile": "", "sub/hooks/h.sh": "",
	}
	f := project(t, files, "sh hooks/h.sh", "sh < lib/x.sh", "python3 g.py", "cd sub/hooks\nsh h.sh", "make x", `sh "$CLAUDE_PROJECT_DIR/hooks/h.sh"`)
	s := store(t)
	_, _, err := s.Allow(f)
	require.NoError(t, err)
	v, err := s.Verify(f.Path)
	require.NoError(t, err)
	require.NotNil(t, v.Copy())
	cp := func(rel string) string { return shellquote.Word(v.Copy().Path(filepath.Join(f.Dir, rel))) }
	files["sub/hooks"] = "" // a folder, for {sub/hooks}
	for _, tc := range []struct {
		line, project string // the tool's project folder: f.Dir when ""
		want          string // {name} stands for the copy of name
		unsure        string // in the first unsure reason
		err           string
	}{
		{line: "sh hooks/h.sh", want: "sh {hooks/h.sh}"},
		{line: "sh hooks/h.sh  --flag   && echo 'x  y'", want: "sh {hooks/h.sh}  --flag   && echo 'x  y'"},
		{line: "./hooks/h.sh", want: "{hooks/h.sh}"},
		{line: "h.sh", want: "h.sh"}, // looked up in PATH
		{line: "sh < lib/x.sh", want: "sh < {lib/x.sh}"},
		{line: "python3 hooks/g.py", want: "python3 {hooks/g.py}"},
		{line: "python3 g.py", want: "python3 {g.py}"},
		{line: "cd sub/hooks\nsh h.sh", want: "cd {sub/hooks}\nsh {sub/hooks/h.sh}"},
		{line: "cd sub/hooks && sh ./h.sh", want: "cd {sub/hooks} && sh {sub/hooks/h.sh}"},
		{line: "cd sub && sh hooks/h.sh", want: "cd sub && sh {sub/hooks/h.sh}"}, // sub is not pinned
		{line: `sh -c "sh hooks/h.sh"`, want: "sh -c {-c}"},
		{line: `sh "$CLAUDE_PROJECT_DIR/hooks/h.sh"`, want: "sh {hooks/h.sh}"},
		{line: `sh "$CLAUDE_PROJECT_DIR"/hooks/h.sh`, want: "sh {hooks/h.sh}"},
		{line: `sh $CLAUDE_PROJECT_DIR/hooks/h.sh`, project: "sub", want: "sh {sub/hooks/h.sh}"},
		{line: `sh $CLAUDE_PROJECT_DIR/other.sh`, project: "sub", err: "$CLAUDE_PROJECT_DIR/other.sh is " + filepath.Join(f.Dir, "sub/other.sh")},
		{line: "sh hooks/h*.sh", want: "sh hooks/h*.sh", unsure: `"hooks/h*.sh" (known only when it runs)`},
		{line: `sh hooks/$X.sh`, want: `sh hooks/$X.sh`, unsure: `"hooks/$X.sh"`},
		{line: "make x", want: "make x", unsure: "make (reads its own files)"},
		{line: "sh 'unclosed", want: "sh 'unclosed", unsure: "does not parse"},
		{line: "echo hi", want: "echo hi"},
	} {
		t.Run(tc.line, func(t *testing.T) {
			project := f.Dir
			if tc.project != "" {
				project = filepath.Join(f.Dir, tc.project)
			}
			vars := func(name string) string {
				if name == "CLAUDE_PROJECT_DIR" {
					return project
				}
				return ""
			}
			got, unsure, err := v.Copy().Command(tc.line, f.Dir, vars)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			want := tc.want
			want = strings.ReplaceAll(want, "{-c}", shellquote.Word("sh "+cp("hooks/h.sh")))
			for rel := range files {
				want = strings.ReplaceAll(want, "{"+rel+"}", cp(rel))
			}
			require.Equal(t, want, got)
			if tc.unsure == "" {
				require.Empty(t, unsure)
			} else {
				require.NotEmpty(t, unsure)
				require.Contains(t, unsure[0], tc.unsure)
			}
		})
	}
}

// The copy holds what was hashed, read-only: editing the project after
// allow changes nothing in it.
func TestCopyIsWhatWasAllowed(t *testing.T) {
	f := project(t, map[string]string{"hooks/h.sh": "allowed\n"}, "sh hooks/h.sh")
	s := store(t)
	_, _, err := s.Allow(f)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(f.Dir, "hooks/h.sh"), []byte("evil\n"), 0o644))
	v, err := s.Verify(f.Path)
	require.NoError(t, err)
	require.Equal(t, Changed, v.State)
	copied := v.Copy().Path(filepath.Join(f.Dir, "hooks/h.sh"))
	b, err := os.ReadFile(copied)
	require.NoError(t, err)
	require.Equal(t, "allowed\n", string(b))
	st, err := os.Stat(copied)
	require.NoError(t, err)
	require.Zero(t, st.Mode().Perm()&0o222, "read-only")

	// Allowing the change replaces the copy; the old one goes.
	old := v.Copy().Root
	_, _, err = s.Allow(f)
	require.NoError(t, err)
	_, err = os.Stat(old)
	require.True(t, os.IsNotExist(err))
	v, err = s.Verify(f.Path)
	require.NoError(t, err)
	require.Equal(t, Allowed, v.State)
	b, err = os.ReadFile(v.Copy().Path(filepath.Join(f.Dir, "hooks/h.sh")))
	require.NoError(t, err)
	require.Equal(t, "evil\n", string(b))
}

// A script in the project root is pinned with the modules it imports from
// beside it; a redirection's file is pinned.
func TestPinsWhatRuns(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"sh < lib/x.sh", []string{"tree lib"}},
		{"bash -c 'sh < lib/x.sh'", []string{"tree lib"}},
		{"cd hooks\nsh h.sh", []string{"tree hooks"}},
		{"python3 g.py", []string{"file g.py", "file helper.py", "tree pkg"}},
		{"node x.js", []string{"file util.js", "file x.js"}},
	} {
		t.Run(tc.line, func(t *testing.T) {
			f := project(t, map[string]string{"lib/x.sh": "", "hooks/h.sh": "",
				"g.py": "import os, helper\nfrom pkg import a\n", "helper.py": "", "pkg/__init__.py": "",
				"x.js": "const u = require('./util')\n", "util.js": ""}, tc.line)
			var got []string
			for _, p := range Pins(f) {
				kind, path, _ := strings.Cut(p.line(), " ")
				rel, _ := filepath.Rel(f.Dir, path)
				got = append(got, kind+" "+rel)
			}
			require.Equal(t, tc.want, got)
		})
	}
}
