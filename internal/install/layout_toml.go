package install

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/hookshim/hookshim/internal/provider"
	"github.com/pelletier/go-toml/v2"
)

// The TOML layout: [[hooks]] tables (Kimi Code's config.toml). As with
// JSON, the file is edited as text, never re-encoded: comments, key order
// and the user's other tables stay. Edits are whole lines: hookshim adds,
// replaces and removes only its own [[hooks]] tables. go-toml checks the
// file before and after every edit, and reads the tables hookshim looks
// at; it reads TOML 1.1 (newlines, comments and a trailing comma in
// inline tables), as Codex's and Kimi Code's own parsers do.
//
// A file go-toml refuses is never edited: the error names its line, and
// the file stays as it was. That includes the few TOML 1.1 documents
// go-toml departs from (a leap second, 23:59:60). A [[hooks]] table runs
// from its header to the next line that starts with "[": a table with a
// value over lines that start so is cut short, fails to parse, and the
// file is refused the same way (Kimi Code's hooks have four one-line
// keys).

// tomlError is where a document stops being TOML.
type tomlError struct {
	line, col int
	msg       string
}

func (e *tomlError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.line, e.col, e.msg)
}

// parseTOML decodes a document, or says where it stops being TOML (a
// *tomlError).
func parseTOML(s string) (map[string]any, error) {
	// A byte order mark may start a UTF-8 document (TOML asks only for
	// valid UTF-8) but go-toml refuses one: it reads what follows. The
	// mark stays in the file, which is edited as text.
	s = strings.TrimPrefix(s, "\uFEFF")
	var m map[string]any
	if err := toml.Unmarshal([]byte(s), &m); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return nil, &tomlError{line, col, strings.TrimPrefix(de.Error(), "toml: ")}
		}
		return nil, err
	}
	return m, nil
}

// checkTOML reports where a document stops being TOML.
func checkTOML(s string) error {
	_, err := parseTOML(s)
	return err
}

// quoteTOML writes s as a TOML basic string.
func quoteTOML(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

type tomlEditor struct {
	s string
	f *provider.Format
}

func newTOMLEditor(text string, f *provider.Format) (*tomlEditor, error) {
	v, err := parseTOML(text)
	if err != nil {
		return nil, err
	}
	if h, ok := v["hooks"]; ok {
		if _, isArr := h.([]any); !isArr {
			return nil, fmt.Errorf("its hooks key is not an array of [[hooks]] tables")
		}
	}
	return &tomlEditor{s: text, f: f}, nil
}

func (e *tomlEditor) text() string { return e.s }

// block is the line range [first, last] of one [[hooks]] table: from its
// header to its last key line; comments and blank lines after it belong
// to whatever follows.
type block struct{ first, last int }

func (e *tomlEditor) lines() []string { return strings.SplitAfter(e.s, "\n") }

// A [[hooks]] header, and the start of any header. Compiled on use:
// install is rare, hook calls are not.
const (
	tomlHooksHeader = `^\s*\[\[\s*hooks\s*\]\]\s*(#.*)?$`
	tomlAnyHeader   = `^\s*\[`
)

func (e *tomlEditor) blocks() []block {
	hooksHeader, anyHeader := regexp.MustCompile(tomlHooksHeader), regexp.MustCompile(tomlAnyHeader)
	lines := e.lines()
	var out []block
	for i := 0; i < len(lines); i++ {
		if !hooksHeader.MatchString(strings.TrimRight(lines[i], "\r\n")) {
			continue
		}
		b := block{first: i, last: i}
		for j := i + 1; j < len(lines); j++ {
			t := strings.TrimSpace(lines[j])
			if anyHeader.MatchString(lines[j]) {
				break
			}
			if t != "" && !strings.HasPrefix(t, "#") {
				b.last = j
			}
		}
		out = append(out, b)
		i = b.last
	}
	return out
}

func (e *tomlEditor) items() ([]item, error) {
	lines := e.lines()
	var out []item
	for _, b := range e.blocks() {
		body := strings.Join(lines[b.first+1:b.last+1], "")
		m, err := parseTOML(body)
		if err != nil {
			var te *tomlError
			if errors.As(err, &te) {
				te.line += b.first + 1 // the body starts after the header
			}
			return nil, fmt.Errorf("the [[hooks]] table at line %d: %v", b.first+1, err)
		}
		raw, _ := json.Marshal(m)
		it := item{raw: string(raw), loc: b}
		if ev, ok := m[e.f.EventKey].(string); ok {
			it.event = ev
		}
		for _, k := range commandKeys(e.f) {
			if c, ok := m[k].(string); ok {
				it.cmds = append(it.cmds, c)
			}
		}
		out = append(out, it)
	}
	return out, nil
}

// tableJSON is an entry's TOML key lines as JSON, to compare with what a
// file holds.
func tableJSON(entry string) string {
	m, err := parseTOML(entry)
	if err != nil {
		return ""
	}
	raw, _ := json.Marshal(m)
	return string(raw)
}

// eol is the file's line break: a file written on Windows keeps CRLF.
func (e *tomlEditor) eol() string {
	if i := strings.IndexByte(e.s, '\n'); i > 0 && e.s[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

func (e *tomlEditor) tableText(entry string) string {
	t := "[[hooks]]\n" + strings.TrimRight(entry, "\n") + "\n"
	return strings.ReplaceAll(t, "\n", e.eol())
}

// add appends a table at the end, after a blank line.
func (e *tomlEditor) add(_ string, entry string) error {
	switch {
	case strings.TrimSpace(e.s) == "":
		e.s = ""
	case strings.HasSuffix(e.s, "\n"):
		e.s += e.eol()
	default:
		e.s += e.eol() + e.eol()
	}
	e.s += e.tableText(entry)
	return e.valid()
}

func (e *tomlEditor) replace(it item, entry string) error {
	lines := e.lines()
	b := it.loc.(block)
	e.s = strings.Join(lines[:b.first], "") + e.tableText(entry) + strings.Join(lines[b.last+1:], "")
	return e.valid()
}

// remove deletes a table and the blank line that add put before it.
func (e *tomlEditor) remove(it item) error {
	lines := e.lines()
	b := it.loc.(block)
	first := b.first
	if first > 0 && strings.TrimSpace(lines[first-1]) == "" {
		first--
	}
	e.s = strings.Join(lines[:first], "") + strings.Join(lines[b.last+1:], "")
	return e.valid()
}

func (e *tomlEditor) valid() error {
	if err := checkTOML(e.s); err != nil {
		return fmt.Errorf("the edit would not be valid TOML (%v)", err)
	}
	return nil
}
