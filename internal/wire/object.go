// Package wire writes the small JSON documents hookshim emits: answers to
// tools and envelopes for handlers; finds the strings in the ones it reads
// without parsing them (StringEnd); and keeps a message to one line
// (OneLine) for the channels that show only one.
package wire

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// Quote encodes s as a JSON string, without HTML escaping, so that text
// reaches handlers and tools exactly as written. The bytes are those of
// encoding/json with SetEscapeHTML(false); it is written out here because
// the encoder's reflection costs more than the rest of a call's answer in
// a process that lives for one call.
func Quote(s string) []byte { return AppendQuote(make([]byte, 0, len(s)+2), s) }

const hex = "0123456789abcdef"

// plain are the bytes written as they are: printable ASCII but the quote
// and the backslash. A table, as encoding/json keeps one: most text is
// plain, and every byte of every answer and log record is looked up.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// AppendQuote appends s, quoted as Quote does, to dst.
func AppendQuote(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		for i < len(s) && plain[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
		if b := s[i]; b < utf8.RuneSelf {
			// Not plain: a control byte, the quote or the backslash.
			dst = append(dst, s[start:i]...)
			switch b {
			case '"', '\\':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			// Invalid UTF-8 becomes U+FFFD: the output is always valid JSON.
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			// Valid JSON, but line terminators in JavaScript source.
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// Object builds one JSON object with keys in the order they are added, so
// that answers are byte-stable (golden files) and carry no field the tool
// did not ask for (Codex rejects unknown output fields).
type Object struct {
	b    []byte
	base int // where this object starts in b: a nested object shares its parent's buffer
	refs *[]ref
}

// ref is a value kept by reference: it belongs at offset at of b.
type ref struct {
	at int
	v  []byte
}

// RefMin is the size from which KeepRefs keeps a raw value by reference.
const RefMin = 64 << 10

// KeepRefs makes Raw keep values of RefMin bytes or more by reference
// instead of copying them, in o and the objects nested in it; Segments
// then returns the object as the pieces between them. A message that
// carries a 10 MiB tool output twice is then sent without being copied
// into memory written for the first time, which is what it costs.
// Call it before adding fields.
func (o *Object) KeepRefs() { o.refs = new([]ref) }

// Grow makes room for n more bytes, so that an object of known size is
// written without copying what it holds as it grows.
func (o *Object) Grow(n int) {
	if cap(o.b)-len(o.b) < n {
		b := make([]byte, len(o.b), len(o.b)+n)
		copy(b, o.b)
		o.b = b
	}
}

// key starts a field.
func (o *Object) key(k string) {
	if len(o.b) == o.base {
		o.b = append(o.b, '{')
	} else {
		o.b = append(o.b, ',')
	}
	o.b = AppendQuote(o.b, k)
	o.b = append(o.b, ':')
}

// Str adds a string field.
func (o *Object) Str(k, v string) *Object {
	o.key(k)
	o.b = AppendQuote(o.b, v)
	return o
}

// Bool adds a boolean field.
func (o *Object) Bool(k string, v bool) *Object {
	if v {
		return o.Raw(k, []byte("true"))
	}
	return o.Raw(k, []byte("false"))
}

// Obj adds a nested object.
func (o *Object) Obj(k string, v *Object) *Object { return o.Raw(k, v.Bytes()) }

// Nest adds a nested object that fill writes in place, in this object's
// buffer: a large nested object is not copied. fill must not use o.
func (o *Object) Nest(k string, fill func(*Object)) *Object {
	o.key(k)
	inner := Object{b: o.b, base: len(o.b), refs: o.refs}
	fill(&inner)
	if len(inner.b) == inner.base {
		inner.b = append(inner.b, '{')
	}
	o.b = append(inner.b, '}')
	return o
}

// NestList adds an array of n objects that item writes in place, in this
// object's buffer, as Nest does one. item must not use o.
func (o *Object) NestList(k string, n int, item func(i int, o *Object)) *Object {
	o.key(k)
	o.b = append(o.b, '[')
	for i := 0; i < n; i++ {
		if i > 0 {
			o.b = append(o.b, ',')
		}
		inner := Object{b: o.b, base: len(o.b), refs: o.refs}
		item(i, &inner)
		if len(inner.b) == inner.base {
			inner.b = append(inner.b, '{')
		}
		o.b = append(inner.b, '}')
	}
	o.b = append(o.b, ']')
	return o
}

// Strs adds an array of strings.
func (o *Object) Strs(k string, v []string) *Object {
	o.key(k)
	o.b = AppendStrs(o.b, v)
	return o
}

// AppendStrs appends v as a JSON array of strings, each quoted as Quote
// does, to dst.
func AppendStrs(dst []byte, v []string) []byte {
	dst = append(dst, '[')
	for i, s := range v {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendQuote(dst, s)
	}
	return append(dst, ']')
}

// Raw adds a field whose value is already JSON.
func (o *Object) Raw(k string, v []byte) *Object {
	o.key(k)
	if o.refs != nil && len(v) >= RefMin {
		*o.refs = append(*o.refs, ref{at: len(o.b), v: v})
		return o
	}
	o.b = append(o.b, v...)
	return o
}

// Len is the number of bytes written so far (0 for an empty object).
func (o *Object) Len() int { return len(o.b) - o.base }

// Bytes returns the object; an object with no fields is {}. It is a copy:
// the object may be added to afterwards.
func (o *Object) Bytes() []byte {
	if len(o.b) == o.base {
		return []byte("{}")
	}
	if o.refs != nil && len(*o.refs) > 0 {
		c := Object{b: o.b[:len(o.b):len(o.b)], base: o.base, refs: o.refs}
		return c.Close()
	}
	return append(o.b[o.base:len(o.b):len(o.b)], '}')
}

// Close returns the object like Bytes, without copying it: nothing may be
// added to the object afterwards. Values kept by reference are copied in.
func (o *Object) Close() []byte {
	segs := o.Segments()
	if len(segs) == 1 {
		return segs[0]
	}
	return bytes.Join(segs, nil)
}

// Segments closes the object and returns it in pieces, the values kept by
// reference (see KeepRefs) standing alone; one piece without them. Nothing
// may be added to the object afterwards.
func (o *Object) Segments() [][]byte {
	if len(o.b) == o.base {
		return [][]byte{[]byte("{}")}
	}
	o.b = append(o.b, '}')
	if o.refs == nil || len(*o.refs) == 0 {
		return [][]byte{o.b[o.base:]}
	}
	segs := make([][]byte, 0, 2*len(*o.refs)+1)
	from := o.base
	for _, r := range *o.refs {
		if r.at < o.base {
			continue // the parent's, before this object
		}
		segs = append(segs, o.b[from:r.at], r.v)
		from = r.at
	}
	return append(segs, o.b[from:])
}

// StringEnd is the index just past the JSON string that starts with the
// quote at doc[i], or -1 when it is not closed. Quotes are found with
// bytes.IndexByte (a string may be megabytes long, a tool's output), and
// each is checked against the backslashes just before it: each backslash
// is looked at once.
func StringEnd(doc []byte, i int) int {
	for j := i + 1; ; {
		k := bytes.IndexByte(doc[j:], '"')
		if k < 0 {
			return -1
		}
		q := j + k
		escapes := 0
		for b := q - 1; b > i && doc[b] == '\\'; b-- {
			escapes++
		}
		if escapes%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
}

// OneLine keeps a message on one line: a tool that shows a reason, a
// status line or a log table shows one line, and a line break in a
// handler's or a server's text would cut it or start a record of its own.
func OneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
}
