package policy

import "testing"

func TestLongOption(t *testing.T) {
	rm := []string{"force", "interactive", "one-file-system", "no-preserve-root", "preserve-root", "recursive", "dir", "verbose", "help", "version"}
	push := []string{"all", "mirror", "delete", "tags", "follow-tags", "force", "force-with-lease", "force-if-includes", "dry-run", "repo"}
	for _, c := range []struct {
		arg   string
		known []string
		want  string
	}{
		{"--recursive", rm, "recursive"},
		{"--rec", rm, "recursive"},
		{"--r", rm, "recursive"},
		{"--no-pres", rm, "no-preserve-root"},
		{"--force", push, "force"}, // exact, though it prefixes two more
		{"--force-w", push, "force-with-lease"},
		{"--force-w=main", push, "force-with-lease"},
		{"--mirr", push, "mirror"},
		{"--f", push, ""},  // ambiguous: git refuses it
		{"--fo", push, ""}, // ambiguous
		{"--nope", push, ""},
		{"-r", rm, ""},
		{"--", rm, ""},
	} {
		got, ok := longOption(c.arg, c.known)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("longOption(%q) = %q, %v; want %q", c.arg, got, ok, c.want)
		}
	}
}
