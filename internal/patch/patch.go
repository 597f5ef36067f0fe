// Package patch reads the edit formats agents send instead of a file's
// new text: the apply_patch envelope (Codex, and the tools that took its
// grammar: Copilot, VS Code, Factory Droid, Cline, OpenCode) and the
// SEARCH/REPLACE blocks of Cline's replace_in_file. A dialect handler
// written for a tool whose hooks read a file's content or the replaced
// strings gets them from here.
//
// Both parsers read their input once, line by line, and never panic: the
// text is the model's and may be anything.
package patch

import (
	"fmt"
	"strings"
)

// Op is what a patch does to one file.
type Op int

const (
	Add    Op = iota + 1 // a new file, its whole content given
	Update               // hunks of an existing file, maybe moved
	Delete               // the file removed
)

func (o Op) String() string {
	switch o {
	case Add:
		return "add"
	case Update:
		return "update"
	case Delete:
		return "delete"
	}
	return "unknown"
}

// File is one file's part of a patch.
type File struct {
	Op      Op
	Path    string // as the patch names it: relative paths stay relative
	MoveTo  string // Update: the new path, "" when the file stays
	Content string // Add: the new file's text, each line ending in "\n"
	Hunks   []Hunk // Update: the replacements, in order
}

// Hunk replaces Old with New: the context and removed lines, and the
// context and added lines, joined by "\n" (no final newline, as an edit
// tool's old_string and new_string are written).
type Hunk struct {
	Old, New string
}

// Patch is the files of one patch, in the order it names them.
type Patch struct {
	Files []File
}

// The apply_patch envelope's markers.
const (
	beginPatch = "*** Begin Patch"
	endPatch   = "*** End Patch"
	addFile    = "*** Add File: "
	deleteFile = "*** Delete File: "
	updateFile = "*** Update File: "
	moveTo     = "*** Move to: "
	endOfFile  = "*** End of File"
)

// IsEnvelope reports whether text is written in the apply_patch grammar:
// its first non-blank line begins the patch.
func IsEnvelope(text string) bool {
	return strings.HasPrefix(strings.TrimLeft(text, " \t\r\n"), beginPatch)
}

// Parse reads an apply_patch envelope. Unlike the tools that apply it,
// it forgives a missing "*** End Patch" (a hook sees the call before the
// tool checks it); anything else it cannot place is an error naming the
// line, and the files read up to there are returned with it.
func Parse(text string) (Patch, error) {
	var p Patch
	var cur *File
	var old, neu []string // the current hunk's two sides
	inHunk := false
	flush := func() {
		if cur != nil && cur.Op == Update && inHunk && (len(old) > 0 || len(neu) > 0) {
			cur.Hunks = append(cur.Hunks, Hunk{Old: strings.Join(old, "\n"), New: strings.Join(neu, "\n")})
		}
		old, neu, inHunk = old[:0], neu[:0], false
	}
	var content strings.Builder
	closeFile := func() {
		flush()
		if cur != nil {
			if cur.Op == Add {
				cur.Content = content.String()
			}
			p.Files = append(p.Files, *cur)
		}
		cur = nil
		content.Reset()
	}
	begun, ended := false, false
	n := 0
	for rest := text; rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		line = strings.TrimSuffix(line, "\r")
		n++
		if ended {
			if strings.TrimSpace(line) != "" {
				return p, fmt.Errorf("line %d: text after %q", n, endPatch)
			}
			continue
		}
		marker := strings.TrimRight(line, " \t")
		switch {
		case !begun:
			if marker == "" {
				continue
			}
			if strings.TrimSpace(line) != beginPatch {
				return p, fmt.Errorf("line %d: a patch begins with %q", n, beginPatch)
			}
			begun = true
			continue
		case marker == endPatch:
			closeFile()
			ended = true
			continue
		case strings.HasPrefix(line, addFile), strings.HasPrefix(line, deleteFile), strings.HasPrefix(line, updateFile):
			closeFile()
			f := File{}
			switch {
			case strings.HasPrefix(line, addFile):
				f.Op, f.Path = Add, strings.TrimSpace(line[len(addFile):])
			case strings.HasPrefix(line, deleteFile):
				f.Op, f.Path = Delete, strings.TrimSpace(line[len(deleteFile):])
			default:
				f.Op, f.Path = Update, strings.TrimSpace(line[len(updateFile):])
			}
			if f.Path == "" {
				return p, fmt.Errorf("line %d: a file marker without a path", n)
			}
			cur = &f
			continue
		case cur == nil:
			return p, fmt.Errorf("line %d: %q is outside any file", n, clip(line))
		}
		switch cur.Op {
		case Add:
			s, ok := strings.CutPrefix(line, "+")
			if !ok {
				return p, fmt.Errorf("line %d: a line of an added file begins with +", n)
			}
			content.WriteString(s)
			content.WriteByte('\n')
		case Delete:
			if strings.TrimSpace(line) != "" {
				return p, fmt.Errorf("line %d: a deleted file takes no lines", n)
			}
		case Update:
			switch {
			case strings.HasPrefix(line, moveTo):
				// Codex writes it before the hunks; VS Code's model has
				// been seen writing it after them.
				flush()
				cur.MoveTo = strings.TrimSpace(line[len(moveTo):])
			case strings.HasPrefix(line, "@@"):
				flush()
				inHunk = true
			case marker == endOfFile:
				flush()
			case line == "":
				// An empty context line, its leading space lost.
				old, neu, inHunk = append(old, ""), append(neu, ""), true
			case line[0] == ' ':
				old, neu, inHunk = append(old, line[1:]), append(neu, line[1:]), true
			case line[0] == '-':
				old, inHunk = append(old, line[1:]), true
			case line[0] == '+':
				neu, inHunk = append(neu, line[1:]), true
			default:
				return p, fmt.Errorf("line %d: a hunk line begins with a space, - or +", n)
			}
		}
	}
	if !begun {
		return p, fmt.Errorf("no patch: it begins with %q", beginPatch)
	}
	closeFile()
	if len(p.Files) == 0 {
		return p, fmt.Errorf("the patch names no file")
	}
	return p, nil
}

// Paths lists the files a patch touches, each once, in order: every
// path and every Move to. It reads what Parse would not accept too, so
// that a policy judging paths sees every file the text names.
func Paths(text string) []string {
	var out []string
	seen := map[string]bool{}
	for rest := text; rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		line = strings.TrimSpace(line)
		for _, m := range []string{updateFile, addFile, deleteFile, moveTo} {
			if path, ok := strings.CutPrefix(line, m); ok {
				if path = strings.TrimSpace(path); path != "" && !seen[path] {
					seen[path] = true
					out = append(out, path)
				}
			}
		}
	}
	return out
}

// The markers of a SEARCH/REPLACE block, in Cline's current spelling and
// the older merge-conflict one.
var (
	searchMarks  = []string{"------- SEARCH", "<<<<<<< SEARCH"}
	dividerMark  = "======="
	replaceMarks = []string{"+++++++ REPLACE", ">>>>>>> REPLACE"}
)

// SearchReplace reads SEARCH/REPLACE blocks (Cline's replace_in_file
// diff) into hunks, in order.
func SearchReplace(diff string) ([]Hunk, error) {
	var hunks []Hunk
	const (
		outside = iota
		search
		replace
	)
	state := outside
	var old, neu []string
	n := 0
	for rest := diff; rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		line = strings.TrimSuffix(line, "\r")
		n++
		mark := strings.TrimSpace(line)
		switch state {
		case outside:
			switch {
			case isOneOf(mark, searchMarks):
				state, old, neu = search, nil, nil
			case mark != "":
				return hunks, fmt.Errorf("line %d: %q is outside any SEARCH block", n, clip(line))
			}
		case search:
			if mark == dividerMark {
				state = replace
				continue
			}
			old = append(old, line)
		case replace:
			if isOneOf(mark, replaceMarks) {
				hunks = append(hunks, Hunk{Old: strings.Join(old, "\n"), New: strings.Join(neu, "\n")})
				state = outside
				continue
			}
			neu = append(neu, line)
		}
	}
	if state != outside {
		return hunks, fmt.Errorf("a SEARCH block is not closed by REPLACE")
	}
	if len(hunks) == 0 {
		return nil, fmt.Errorf("no SEARCH/REPLACE block")
	}
	return hunks, nil
}

// IsSearchReplace reports whether diff is written as SEARCH/REPLACE
// blocks: its first non-blank line opens one.
func IsSearchReplace(diff string) bool {
	first, _, _ := strings.Cut(strings.TrimLeft(diff, " \t\r\n"), "\n")
	return isOneOf(strings.TrimSpace(first), searchMarks)
}

func isOneOf(s string, list []string) bool {
	for _, l := range list {
		if s == l {
			return true
		}
	}
	return false
}

// clip shortens a line quoted in an error.
func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// Format writes p in the apply_patch grammar, for a hook that reads
// every write as a patch (Codex's). Parse reads it back, but for an added
// file's last line, which always ends in a newline there.
func Format(p Patch) string {
	var b strings.Builder
	b.WriteString(beginPatch + "\n")
	lines := func(prefix, s string) {
		if s == "" {
			return
		}
		for _, l := range strings.Split(s, "\n") {
			b.WriteString(prefix + l + "\n")
		}
	}
	for _, f := range p.Files {
		switch f.Op {
		case Add:
			b.WriteString(addFile + f.Path + "\n")
			lines("+", strings.TrimSuffix(f.Content, "\n"))
		case Delete:
			b.WriteString(deleteFile + f.Path + "\n")
		case Update:
			b.WriteString(updateFile + f.Path + "\n")
			if f.MoveTo != "" {
				b.WriteString(moveTo + f.MoveTo + "\n")
			}
			for _, h := range f.Hunks {
				b.WriteString("@@\n")
				lines("-", h.Old)
				lines("+", h.New)
			}
		}
	}
	b.WriteString(endPatch + "\n")
	return b.String()
}
