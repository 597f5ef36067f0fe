package provider

import (
	"sort"
	"strings"
	"unsafe"

	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
)

// Payload is a native payload with its environment. Raw is never modified
// once the payload is made: the fields read from it share its memory.
type Payload struct {
	Raw []byte
	Env func(string) string

	// top is where each top-level member's value lies in Raw, found in
	// one pass by NewPayload; nil for a payload made otherwise. Detection
	// and normalization read dozens of fields, most of them absent, and
	// gjson scans the whole payload for each: with a 10 MiB tool output
	// that made a call take seconds instead of milliseconds.
	top map[string]span
}

type span struct {
	start, end int
	twice      bool // a name the object has twice: gjson's own rules apply
}

// NewPayload is the payload raw with the environment env, indexed when
// raw is an object (see IsObject).
func NewPayload(raw []byte, env func(string) string) Payload {
	return Payload{Raw: raw, Env: env, top: members(raw)}
}

// Keys are the payload's top-level keys, sorted: what the decision log
// keeps for doctor's payload drift.
func (p Payload) Keys() []string {
	keys := make([]string, 0, len(p.top))
	for k := range p.top {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// IsObject reports whether the payload is one JSON object whose members
// could be delimited: the check every call makes. Whether the values
// inside are JSON throughout is checked only when a handler is about to
// see them (internal/pipeline): a call that runs nothing need not read a
// 10 MiB tool output twice.
func (p Payload) IsObject() bool { return p.top != nil }

// Get reads a field by gjson path.
func (p Payload) Get(path string) gjson.Result {
	if path == "" {
		return gjson.Result{}
	}
	first, rest, ok := p.member(path)
	if !ok {
		return gjson.Get(view(p.Raw), path)
	}
	if first.end == 0 {
		return gjson.Result{}
	}
	r := gjson.Parse(view(p.Raw[first.start:first.end]))
	r.Index = first.start
	if rest != "" {
		if r = r.Get(rest); !r.Exists() {
			return gjson.Result{}
		}
	}
	return r
}

// GetRaw is a field's raw JSON, nil when it is absent; for a plain path
// (see member) a slice of Raw rather than a copy.
func (p Payload) GetRaw(path string) []byte {
	first, rest, plain := p.member(path)
	switch {
	case plain && first.end == 0:
		return nil
	case plain && rest == "":
		// Not through gjson, which would unescape a string value: a tool
		// output may be megabytes of escaped text.
		return p.Raw[first.start:first.end:first.end]
	}
	r := p.Get(path)
	switch {
	case !r.Exists():
		return nil
	case plain:
		return p.Raw[r.Index : r.Index+len(r.Raw) : r.Index+len(r.Raw)]
	}
	return []byte(r.Raw)
}

// member finds the top-level member a path starts with, and the rest of
// the path. ok is false when the payload has no index, when the path is
// not plain names separated by dots (gjson's wildcards, escapes,
// modifiers and queries) and when its first name occurs twice: gjson
// answers those. A zero span means the payload has no such member.
func (p Payload) member(path string) (first span, rest string, ok bool) {
	if p.top == nil || path == "" || path[0] == '.' || path[len(path)-1] == '.' {
		return span{}, "", false
	}
	for i := 0; i < len(path); i++ {
		switch c := path[i]; {
		case c == '.' && path[i-1] != '.':
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '-':
		default:
			return span{}, "", false
		}
	}
	name, rest, _ := strings.Cut(path, ".")
	first = p.top[name]
	return first, rest, !first.twice
}

// view is b as a string without a copy; b never changes.
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// members maps each top-level member of the object doc to where its value
// lies; nil when doc is not an object.
func members(doc []byte) map[string]span {
	i := skipSpace(doc, 0)
	if i >= len(doc) || doc[i] != '{' {
		return nil
	}
	m := map[string]span{}
	i = skipSpace(doc, i+1)
	for i < len(doc) && doc[i] == '"' {
		kend := wire.StringEnd(doc, i)
		if kend < 0 {
			return nil
		}
		name := gjson.ParseBytes(doc[i:kend]).Str
		if i = skipSpace(doc, kend); i >= len(doc) || doc[i] != ':' {
			return nil
		}
		start := skipSpace(doc, i+1)
		end := valueEnd(doc, start)
		if end < 0 {
			return nil
		}
		if _, seen := m[name]; seen {
			m[name] = span{twice: true}
		} else {
			m[name] = span{start: start, end: end}
		}
		if i = skipSpace(doc, end); i < len(doc) && doc[i] == ',' {
			i = skipSpace(doc, i+1)
		}
	}
	if i >= len(doc) || doc[i] != '}' {
		return nil
	}
	return m
}

func skipSpace(doc []byte, i int) int {
	for i < len(doc) && (doc[i] == ' ' || doc[i] == '\t' || doc[i] == '\n' || doc[i] == '\r') {
		i++
	}
	return i
}

// valueEnd is the index just past the value that starts at doc[i], or -1.
func valueEnd(doc []byte, i int) int {
	if i >= len(doc) {
		return -1
	}
	if doc[i] == '"' {
		return wire.StringEnd(doc, i)
	}
	depth := 0
	for j := i; j < len(doc); j++ {
		switch doc[j] {
		case '"':
			if j = wire.StringEnd(doc, j); j < 0 {
				return -1
			}
			j--
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return j
			}
			if depth--; depth == 0 {
				return j + 1
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return j
			}
		}
	}
	if depth == 0 {
		return len(doc)
	}
	return -1
}
