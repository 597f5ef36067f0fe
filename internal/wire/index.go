package wire

import (
	"bytes"
	"unsafe"

	"github.com/tidwall/gjson"
)

// Index holds where each member of a JSON object starts and ends, found in
// one pass. A payload is read field by field: dozens of lookups for
// detection and normalization, most of them for fields it does not have.
// Each gjson lookup scans the document again up to the field (or to the end
// when it is absent), so a payload carrying a 10 MiB tool output would be
// scanned dozens of times; with the index each lookup is a short scan of
// the member list.
//
// The members live in the Index itself and their names point into doc:
// indexing a payload is one allocation. (A map cost a table and a string
// per name, each in a size class a fresh process has not used yet, and in
// a process that lives for one call every such class costs fresh pages.)
// Objects with more members than fit get a map, so that hostile payloads
// with thousands of names stay linear.
type Index struct {
	doc     []byte
	members []member
	byName  map[string]int // index into members; only past len(small)
	small   [24]member
}

type member struct {
	name     string
	off, end int
	twice    bool // the name occurs more than once: gjson's own rules apply
}

// NewIndex indexes doc, which must be valid JSON (hookshim validates a
// payload before it reads a field) and must not change afterwards: the
// results of Get, and the index's own names, share its memory. It is nil
// when doc is not an object.
func NewIndex(doc []byte) *Index {
	i := skipSpace(doc, 0)
	if i >= len(doc) || doc[i] != '{' {
		return nil
	}
	x := &Index{doc: doc}
	x.members = x.small[:0]
	i = skipSpace(doc, i+1)
	if i < len(doc) && doc[i] == '}' {
		return x
	}
	for {
		if i >= len(doc) || doc[i] != '"' {
			return nil
		}
		kend, esc := stringEnd(doc, i)
		if kend < 0 {
			return nil
		}
		name := doc[i+1 : kend-1]
		key := unsafe.String(unsafe.SliceData(name), len(name))
		if esc {
			key = gjson.ParseBytes(doc[i:kend]).Str
		}
		i = skipSpace(doc, kend)
		if i >= len(doc) || doc[i] != ':' {
			return nil
		}
		i = skipSpace(doc, i+1)
		vend := valueEnd(doc, i)
		if vend < 0 {
			return nil
		}
		x.add(key, i, vend)
		i = skipSpace(doc, vend)
		if i >= len(doc) {
			return nil
		}
		switch doc[i] {
		case ',':
			i = skipSpace(doc, i+1)
		case '}':
			return x
		default:
			return nil
		}
	}
}

func (x *Index) add(name string, off, end int) {
	if k := x.find(name); k >= 0 {
		x.members[k].twice = true
		return
	}
	x.members = append(x.members, member{name: name, off: off, end: end})
	switch n := len(x.members); {
	case x.byName != nil:
		x.byName[name] = n - 1
	case n > len(x.small):
		x.byName = make(map[string]int, 2*n)
		for k, m := range x.members {
			x.byName[m.name] = k
		}
	}
}

// find returns the position of the member called name, or -1.
func (x *Index) find(name string) int {
	if x.byName != nil {
		if k, ok := x.byName[name]; ok {
			return k
		}
		return -1
	}
	for k := range x.members {
		if x.members[k].name == name {
			return k
		}
	}
	return -1
}

// Get returns what gjson.GetBytes(doc, path) returns, for a path of plain
// names (ASCII letters, digits, '_' and '-') separated by dots. ok is false
// for any other path (wildcards, escapes, modifiers, queries...), for a
// first name the object has twice, and on a nil Index: the caller then asks
// gjson.
func (x *Index) Get(path string) (r gjson.Result, ok bool) {
	first, rest, ok := x.split(path)
	if !ok {
		return gjson.Result{}, false
	}
	k := x.find(first)
	if k < 0 {
		return gjson.Result{}, true
	}
	s := x.members[k]
	if s.twice {
		return gjson.Result{}, false
	}
	// Parsed in place, not copied as gjson.ParseBytes does: detection and
	// normalization look up dozens of fields, and a tool output may be
	// megabytes long.
	member := x.doc[s.off:s.end]
	r = gjson.Parse(unsafe.String(unsafe.SliceData(member), len(member)))
	r.Index = s.off
	if rest != "" {
		if r = r.Get(rest); !r.Exists() {
			return gjson.Result{}, true
		}
	}
	return r, true
}

// RawGet is Get's raw JSON, as a slice of doc rather than a copy; nil when
// the path is absent. The slice's capacity ends with it: appending to it
// never writes into doc.
func (x *Index) RawGet(path string) (raw []byte, ok bool) {
	first, rest, ok := x.split(path)
	if !ok {
		return nil, false
	}
	k := x.find(first)
	if k < 0 {
		return nil, true
	}
	s := x.members[k]
	if s.twice {
		return nil, false
	}
	member := x.doc[s.off:s.end:s.end]
	if rest == "" {
		return member, true
	}
	r := gjson.GetBytes(member, rest)
	switch {
	case !r.Exists():
		return nil, true
	case r.Index > 0 && r.Index+len(r.Raw) <= len(member):
		return member[r.Index : r.Index+len(r.Raw) : r.Index+len(r.Raw)], true
	}
	return []byte(r.Raw), true
}

// split checks that path is plain and cuts its first name.
func (x *Index) split(path string) (first, rest string, ok bool) {
	if x == nil || path == "" {
		return "", "", false
	}
	prev := byte('.')
	for i := 0; i < len(path); i++ {
		c := path[i]
		switch {
		case c == '.':
			if prev == '.' {
				return "", "", false // empty name
			}
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-':
		default:
			return "", "", false
		}
		prev = c
	}
	if prev == '.' {
		return "", "", false
	}
	first, rest, _ = cutByte(path, '.')
	return first, rest, true
}

func cutByte(s string, c byte) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

func skipSpace(doc []byte, i int) int {
	for i < len(doc) {
		switch doc[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// stringEnd returns the index just past the string starting at doc[i] (a
// quote), and whether it holds an escape; -1 when it does not end.
func stringEnd(doc []byte, i int) (int, bool) {
	esc := false
	j := i + 1
	for {
		k := bytes.IndexByte(doc[j:], '"')
		if k < 0 {
			return -1, false
		}
		q := j + k
		n := 0
		for p := q - 1; p > i && doc[p] == '\\'; p-- {
			n++
		}
		if n > 0 {
			esc = true
		} else if !esc && bytes.IndexByte(doc[j:q], '\\') >= 0 {
			esc = true
		}
		if n%2 == 0 {
			return q + 1, esc
		}
		j = q + 1
	}
}

// valueEnd returns the index just past the value starting at doc[i]; -1
// when it does not end.
func valueEnd(doc []byte, i int) int {
	if i >= len(doc) {
		return -1
	}
	switch doc[i] {
	case '"':
		end, _ := stringEnd(doc, i)
		return end
	case '{', '[':
		depth := 0
		for j := i; j < len(doc); j++ {
			switch doc[j] {
			case '"':
				end, _ := stringEnd(doc, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	for j := i; j < len(doc); j++ {
		switch doc[j] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return j
		}
	}
	return -1
}
