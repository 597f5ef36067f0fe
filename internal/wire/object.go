// Package wire writes the small JSON documents hookshim emits: answers to
// tools and envelopes for handlers.
package wire

import (
	"bytes"
	"encoding/json"
)

// Quote encodes s as a JSON string, without HTML escaping, so that text
// reaches handlers and tools exactly as written.
func Quote(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// Object builds one JSON object with keys in the order they are added, so
// that answers are byte-stable (golden files) and carry no field the tool
// did not ask for (Codex rejects unknown output fields).
type Object struct {
	b []byte
}

// Str adds a string field.
func (o *Object) Str(k, v string) *Object { return o.Raw(k, Quote(v)) }

// Bool adds a boolean field.
func (o *Object) Bool(k string, v bool) *Object {
	if v {
		return o.Raw(k, []byte("true"))
	}
	return o.Raw(k, []byte("false"))
}

// Obj adds a nested object.
func (o *Object) Obj(k string, v *Object) *Object { return o.Raw(k, v.Bytes()) }

// Raw adds a field whose value is already JSON.
func (o *Object) Raw(k string, v []byte) *Object {
	if len(o.b) == 0 {
		o.b = append(o.b, '{')
	} else {
		o.b = append(o.b, ',')
	}
	o.b = append(o.b, Quote(k)...)
	o.b = append(o.b, ':')
	o.b = append(o.b, v...)
	return o
}

// Len is the number of bytes written so far (0 for an empty object).
func (o *Object) Len() int { return len(o.b) }

// Bytes returns the object; an object with no fields is {}.
func (o *Object) Bytes() []byte {
	if len(o.b) == 0 {
		return []byte("{}")
	}
	return append(o.b[:len(o.b):len(o.b)], '}')
}
