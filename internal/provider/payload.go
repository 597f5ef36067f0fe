package provider

import (
	"bytes"
	"encoding/json"
	"slices"
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
//
// A member name an object has twice is read as the tools read it: the last
// one wins (JavaScript's JSON.parse, Python's json, serde_json's maps),
// where gjson would answer the first. A payload with such a name is
// rewritten once, here, so that every field read afterwards, by any path,
// agrees with what the tool will run; one that cannot be rewritten (nested
// deeper than encoding/json reads) is not an object.
func NewPayload(raw []byte, env func(string) string) Payload {
	if duplicateNames(raw) {
		raw = LastWins(raw)
		if raw == nil {
			return Payload{Env: env}
		}
	}
	return Payload{Raw: raw, Env: env, top: members(raw)}
}

// LastWins is the JSON value doc with every object keeping only the last
// member of each name, as JSON.parse would read it: doc itself when no
// name occurs twice, nil when doc cannot be decoded. Tool inputs that
// arrive as a JSON string inside the payload (Copilot's toolArgs) go
// through it after decoding.
func LastWins(doc []byte) []byte {
	if !duplicateNames(doc) {
		return doc
	}
	// Rare (a tool that parsed a tool call's arguments writes each name
	// once): encoding/json decodes the last member of a name over the
	// earlier ones. UseNumber keeps numbers
	// as written; members come out sorted, which no reader depends on.
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil
	}
	return bytes.TrimSuffix(out.Bytes(), []byte("\n"))
}

// InputObject is a tool input as a JSON object: an object as sent, a
// JSON string that holds an object decoded (Copilot's toolArgs, Cursor's
// MCP input; its repeated names resolved by LastWins), anything else {}
// rather than an error.
func InputObject(raw []byte) []byte {
	if len(raw) > 0 && raw[0] == '{' {
		return raw
	}
	if len(raw) > 0 && raw[0] == '"' {
		if s := strings.TrimSpace(gjson.ParseBytes(raw).Str); gjson.Valid(s) {
			if inner := LastWins([]byte(s)); len(inner) > 0 && inner[0] == '{' {
				return inner
			}
		}
	}
	return []byte("{}")
}

// manyNames is how many names of one object duplicateNames compares one by
// one before it puts them in a map: a comparison of strings of other
// lengths costs less than hashing, and the scan stays linear in doc.
const manyNames = 32

// duplicateNames reports whether an object anywhere in doc has a member
// name twice, in one pass over doc (strings are skipped with
// bytes.IndexByte). Names are compared unescaped: "comm\u0061nd" is
// "command". doc is assumed to be JSON; what is not ends the scan.
func duplicateNames(doc []byte) bool {
	// One small level per open object or array: a payload may nest
	// hundreds of thousands deep. The names of the objects open are kept
	// in one slice, each object's from its start on (a nested object's
	// are dropped when it closes); an object with many names gets a map.
	// Both slices start on the goroutine's stack, sized for a payload's
	// usual depth and a tool's usual dozen names: growing them and the
	// map of the top-level object was most of what reading a payload
	// allocated on every call.
	type level struct {
		object, wantName bool
		start            int                 // where its names begin in names
		set              map[string]struct{} // its names, once there are many
	}
	var stackBuf [16]level
	var nameBuf [64]string
	stack, names := stackBuf[:0], nameBuf[:0]
	for i := 0; i < len(doc); i++ {
		switch doc[i] {
		case '"':
			end := wire.StringEnd(doc, i)
			if end < 0 {
				return false
			}
			if n := len(stack) - 1; n >= 0 && stack[n].object && stack[n].wantName {
				top := &stack[n]
				top.wantName = false
				name := view(doc[i+1 : end-1])
				if bytes.IndexByte(doc[i:end], '\\') >= 0 {
					name = gjson.ParseBytes(doc[i:end]).Str
				}
				switch own := names[top.start:]; {
				case top.set != nil:
					if _, dup := top.set[name]; dup {
						return true
					}
					top.set[name] = struct{}{}
				case slices.Contains(own, name):
					return true
				case len(own) < manyNames:
					names = append(names, name)
				default:
					top.set = make(map[string]struct{}, 2*len(own))
					for _, o := range own {
						top.set[o] = struct{}{}
					}
					top.set[name] = struct{}{}
				}
			}
			i = end - 1
		case '{':
			stack = append(stack, level{object: true, wantName: true, start: len(names)})
		case '[':
			stack = append(stack, level{start: len(names)})
		case '}', ']':
			if n := len(stack) - 1; n >= 0 {
				names = names[:stack[n].start]
				stack = stack[:n]
			}
		case ',':
			if n := len(stack) - 1; n >= 0 && stack[n].object {
				stack[n].wantName = true
			}
		}
	}
	return false
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
		// A name without escapes is read in place, as duplicateNames
		// reads it: doc never changes.
		name := view(doc[i+1 : kend-1])
		if bytes.IndexByte(doc[i:kend], '\\') >= 0 {
			name = gjson.ParseBytes(doc[i:kend]).Str
		}
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
