package policy

import "strings"

// longOption resolves a long option the way the program reading it does:
// GNU getopt_long and git's parse-options both take the option's full
// name or any prefix of it that no other option of the program shares, so
// `rm --rec` is `rm --recursive` and `git push --force-w` is
// `--force-with-lease`. arg is the word as written ("--rec", "--force-w=x");
// known lists the program's long options, without dashes. It returns the
// full name, or false for an unknown or ambiguous option (which the program
// refuses to run with).
func longOption(arg string, known []string) (string, bool) {
	name, ok := strings.CutPrefix(arg, "--")
	if !ok || name == "" {
		return "", false
	}
	name, _, _ = strings.Cut(name, "=")
	found := ""
	for _, k := range known {
		switch {
		case k == name:
			return k, true // an exact name wins over the options it prefixes
		case strings.HasPrefix(k, name):
			if found != "" {
				return "", false
			}
			found = k
		}
	}
	return found, found != ""
}
