package patch

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want []File
		err  string
	}{
		{
			name: "update and add (Codex)",
			in:   "*** Begin Patch\n*** Update File: cmd/root.go\n@@\n-var verbose bool\n+var verbose = true\n*** Add File: docs/v.md\n+# v\n+\n+Prints.\n*** End Patch\n",
			want: []File{
				{Op: Update, Path: "cmd/root.go", Hunks: []Hunk{{Old: "var verbose bool", New: "var verbose = true"}}},
				{Op: Add, Path: "docs/v.md", Content: "# v\n\nPrints.\n"},
			},
		},
		{
			name: "context, two hunks, end of file",
			in:   "*** Begin Patch\n*** Update File: a.txt\n@@ func f\n a\n-b\n+B\n c\n@@\n-y\n+Y\n*** End of File\n*** End Patch",
			want: []File{{Op: Update, Path: "a.txt", Hunks: []Hunk{{Old: "a\nb\nc", New: "a\nB\nc"}, {Old: "y", New: "Y"}}}},
		},
		{
			name: "move, delete, CRLF",
			in:   "*** Begin Patch\r\n*** Update File: /p/a.ts\r\n*** Move to: /p/b.ts\r\n@@\r\n-x\r\n+z\r\n*** Delete File: /p/u.ts\r\n*** End Patch\r\n",
			want: []File{
				{Op: Update, Path: "/p/a.ts", MoveTo: "/p/b.ts", Hunks: []Hunk{{Old: "x", New: "z"}}},
				{Op: Delete, Path: "/p/u.ts"},
			},
		},
		{
			name: "empty context line, no end marker",
			in:   "\n*** Begin Patch\n*** Update File: a\n@@\n x\n\n-y\n",
			want: []File{{Op: Update, Path: "a", Hunks: []Hunk{{Old: "x\n\ny", New: "x\n"}}}},
		},
		{name: "not a patch", in: "echo hi", err: "a patch begins"},
		{name: "empty", in: "", err: "no patch"},
		{name: "no file", in: "*** Begin Patch\n*** End Patch", err: "names no file"},
		{name: "added line without plus", in: "*** Begin Patch\n*** Add File: a\nx\n*** End Patch", err: "line 3"},
		{name: "stray line", in: "*** Begin Patch\nhello\n", err: "outside any file"},
		{name: "marker without path", in: "*** Begin Patch\n*** Add File: \n", err: "without a path"},
		{name: "bad hunk line", in: "*** Begin Patch\n*** Update File: a\n@@\n?x\n", err: "hunk line"},
		{name: "after end", in: "*** Begin Patch\n*** Delete File: a\n*** End Patch\nmore", err: "after"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Parse(tc.in)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, p.Files)
		})
	}
}

func TestPaths(t *testing.T) {
	in := "*** Begin Patch\n*** Update File: a\n*** Move to: b\n@@\n-x\n+y\n*** Add File: c\n+z\n*** Update File: a\n*** Delete File: d\n"
	require.Equal(t, []string{"a", "b", "c", "d"}, Paths(in))
	require.Empty(t, Paths("rm -rf /"))
}

func TestSearchReplace(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want []Hunk
		err  string
	}{
		{
			name: "two blocks",
			in:   "------- SEARCH\nreturn total;\n=======\nreturn round(total);\n+++++++ REPLACE\n\n------- SEARCH\na\nb\n=======\n+++++++ REPLACE\n",
			want: []Hunk{{Old: "return total;", New: "return round(total);"}, {Old: "a\nb", New: ""}},
		},
		{
			name: "older markers",
			in:   "<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE",
			want: []Hunk{{Old: "x", New: "y"}},
		},
		{name: "unclosed", in: "------- SEARCH\nx\n=======\ny\n", err: "not closed"},
		{name: "stray", in: "hello\n", err: "outside"},
		{name: "none", in: "\n", err: "no SEARCH"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := SearchReplace(tc.in)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, h)
			require.True(t, IsSearchReplace(tc.in))
		})
	}
}

// FuzzParse: the parsers accept any text without panicking, every file
// Parse returns has a path, and every path it returns is one Paths finds.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** End Patch",
		"*** Begin Patch\n*** Add File: b\n+z\n*** Delete File: c\n*** End Patch\n",
		"*** Begin Patch\r\n*** Update File: a\r\n*** Move to: b\r\n@@ ctx\r\n a\r\n*** End of File\r\n",
		"------- SEARCH\nx\n=======\ny\n+++++++ REPLACE\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, _ := Parse(s)
		paths := Paths(s)
		for _, file := range p.Files {
			if file.Path == "" {
				t.Fatalf("a file without a path: %q", s)
			}
			found := false
			for _, q := range paths {
				found = found || q == file.Path
			}
			if !found && !strings.ContainsAny(file.Path, "\n") {
				t.Fatalf("Paths misses %q in %q", file.Path, s)
			}
		}
		_, _ = SearchReplace(s)
		_ = IsEnvelope(s) && IsSearchReplace(s)
	})
}

func TestFormat(t *testing.T) {
	p := Patch{Files: []File{
		{Op: Add, Path: "/p/.env", Content: "TOKEN=x\n\nB=1\n"},
		{Op: Update, Path: "/p/a.go", MoveTo: "/p/b.go", Hunks: []Hunk{{Old: "x\ny", New: "z"}, {Old: "", New: "w"}}},
		{Op: Delete, Path: "/p/c"},
	}}
	text := Format(p)
	require.Equal(t, "*** Begin Patch\n*** Add File: /p/.env\n+TOKEN=x\n+\n+B=1\n*** Update File: /p/a.go\n*** Move to: /p/b.go\n@@\n-x\n-y\n+z\n@@\n+w\n*** Delete File: /p/c\n*** End Patch\n", text)
	back, err := Parse(text)
	require.NoError(t, err)
	require.Equal(t, p, back)
}
