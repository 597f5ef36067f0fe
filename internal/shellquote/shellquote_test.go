package shellquote

import (
	"testing"

	"github.com/mattn/go-shellwords"
	"github.com/stretchr/testify/require"
)

func TestWord(t *testing.T) {
	for _, c := range []struct{ goos, in, want string }{
		{"linux", "/usr/local/bin/hookshim", "/usr/local/bin/hookshim"},
		{"linux", "PreToolUse", "PreToolUse"},
		{"darwin", "/Users/Jane Doe/bin/hookshim", "'/Users/Jane Doe/bin/hookshim'"},
		{"linux", "/opt/it's/hookshim", `'/opt/it'\''s/hookshim'`},
		{"linux", "/a/$HOME/b", "'/a/$HOME/b'"},
		{"linux", "/a/`x`;b", "'/a/`x`;b'"},
		{"linux", "a\nb", "'a\nb'"},
		{"linux", "", "''"},
		{"linux", "/a/b=c@d%e:f,g+h", "/a/b=c@d%e:f,g+h"},
		{"windows", `C:\Tools\hookshim.exe`, `C:\Tools\hookshim.exe`},
		{"windows", `C:\Program Files\hookshim\hookshim-remote.exe`, `"C:\Program Files\hookshim\hookshim-remote.exe"`},
		{"windows", `C:\Tools (x86)\hookshim.exe`, `"C:\Tools (x86)\hookshim.exe"`},
		{"windows", `C:\R&D\hookshim.exe`, `"C:\R&D\hookshim.exe"`},
		{"windows", `C:\a|b\hookshim.exe`, `"C:\a|b\hookshim.exe"`},
		{"windows", `C:\it's\hookshim.exe`, `"C:\it's\hookshim.exe"`},
		{"windows", `C:\x^y\hookshim.exe`, `"C:\x^y\hookshim.exe"`},
		{"windows", "", `""`},
	} {
		require.Equal(t, c.want, word(c.goos, c.in), "%s %q", c.goos, c.in)
	}
}

// A POSIX word reads back, through sh's rules, as the string it quotes.
func TestWordReadsBack(t *testing.T) {
	for _, s := range []string{"/usr/bin/x", "/Users/Jane Doe/x", "it's", `a"b`, "$HOME", "a\\b", "é ü", "a\tb", ""} {
		words, err := shellwords.Parse(word("linux", s))
		require.NoError(t, err, s)
		require.Equal(t, []string{s}, words, s)
	}
}
