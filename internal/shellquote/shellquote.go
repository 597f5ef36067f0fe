// Package shellquote writes a string as one word of a command line, for
// the shell that runs it here: sh (and bash) on Unix; cmd.exe, PowerShell
// or Git Bash on Windows, which tools use there. A word that needs no
// quoting stays as it is, so that a command line reads as people write
// one (/usr/local/bin/hookshim, not '/usr/local/bin/hookshim').
package shellquote

import (
	"runtime"
	"strings"
)

// Word is s as one word of a command line for this system's shells.
func Word(s string) string { return word(runtime.GOOS, s) }

// posixPlain are the bytes a word may hold unquoted for sh: letters,
// digits and the punctuation that means nothing to it anywhere in a word
// (= and @ and % and : and , included, as in paths and flags).
const posixPlain = "/._-+:,=@%"

// windowsSpecial are the characters that make a word need quotes in one
// of the shells of Windows: blanks; cmd.exe's operators and escape (&|<>()^);
// PowerShell's ([]{};'`$#@,=+~); and ! and %, which cmd.exe expands.
// Inside double quotes cmd.exe still expands %VAR%, which no quoting
// prevents; a path holding % is left to its owner.
const windowsSpecial = " \t&|<>()^[]{}=;!'+,`~%$#@"

func word(goos, s string) string {
	if s == "" {
		if goos == "windows" {
			return `""`
		}
		return "''"
	}
	if goos == "windows" {
		// Every shell there takes a double-quoted word; backslashes are
		// path separators, not escapes, and a path holds no double quote.
		if strings.ContainsAny(s, windowsSpecial) {
			return `"` + s + `"`
		}
		return s
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune(posixPlain, c)) {
			// Single quotes keep every byte; a single quote itself is
			// closed, escaped and reopened.
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}
