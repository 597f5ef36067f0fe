package install

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/toml"
)

// The TOML layout: [[hooks]] tables (Kimi Code's config.toml). As with
// JSON, the file is edited as text, never re-encoded: comments, key order
// and the user's other tables stay. internal/toml validates the file
// before and after every edit, and reads the tables hookshim looks at.

// Compiled on first use (see destructive in internal/cli).
var (
	tomlHooksHeader = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*\[\[\s*hooks\s*\]\]\s*(#.*)?$`)
	})
	tomlAnyHeader = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*\[`)
	})
)

// checkTOML reports where a document stops being TOML, as
// "line L, column C: message".
func checkTOML(s string) error {
	if _, err := toml.Parse(s); err != nil {
		return err
	}
	return nil
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
	v, err := toml.Parse(text)
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

func (e *tomlEditor) blocks() []block {
	lines := e.lines()
	var out []block
	for i := 0; i < len(lines); i++ {
		if !tomlHooksHeader().MatchString(strings.TrimRight(lines[i], "\r\n")) {
			continue
		}
		b := block{first: i, last: i}
		for j := i + 1; j < len(lines); j++ {
			t := strings.TrimSpace(lines[j])
			if tomlAnyHeader().MatchString(lines[j]) {
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
		m, err := toml.Parse(body)
		if err != nil {
			return nil, fmt.Errorf("a [[hooks]] table at line %d: %v", b.first+1, err)
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
	m, err := toml.Parse(entry)
	if err != nil {
		return ""
	}
	raw, _ := json.Marshal(m)
	return string(raw)
}

func tableText(entry string) string {
	return "[[hooks]]\n" + strings.TrimRight(entry, "\n") + "\n"
}

// add appends a table at the end, after a blank line.
func (e *tomlEditor) add(_ string, entry string) error {
	switch {
	case strings.TrimSpace(e.s) == "":
		e.s = ""
	case strings.HasSuffix(e.s, "\n"):
		e.s += "\n"
	default:
		e.s += "\n\n"
	}
	e.s += tableText(entry)
	return e.valid()
}

func (e *tomlEditor) replace(it item, entry string) error {
	lines := e.lines()
	b := it.loc.(block)
	e.s = strings.Join(lines[:b.first], "") + tableText(entry) + strings.Join(lines[b.last+1:], "")
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
