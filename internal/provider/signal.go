package provider

import (
	"strings"

	"github.com/tidwall/gjson"
)

// Signal is one piece of evidence for a provider. Weight may be negative:
// a field the tool never sends counts against it.
//
// Signals are plain data (a kind, a path, values) tested by one switch, and
// described only when --explain asks: the provider tables are built at the
// start of every hookshim process, so they must cost next to nothing.
type Signal struct {
	Weight int
	Env    bool // evidence from the environment, not the payload

	kind   signalKind
	path   string
	values []string
	typ    gjson.Type
	desc   string               // a custom test's description
	test   func(p Payload) bool // a custom test
}

type signalKind uint8

const (
	// sigWhen is the zero kind, so that a custom test is written as a
	// literal, {Weight: w, desc: "…", test: func…}: a call to a
	// constructor with a function literal would be start-up code, a
	// literal is data.
	sigWhen signalKind = iota
	sigHas
	sigLacks
	sigIs
	sigPrefixed
	sigOneOf
	sigTyped
	sigArray
	sigObject
	sigEnvSet
	sigEnvIs
)

// Has: the payload has the field.
func Has(path string, w int) Signal { return Signal{Weight: w, kind: sigHas, path: path} }

// Lacks: the payload does not have the field.
func Lacks(path string, w int) Signal { return Signal{Weight: w, kind: sigLacks, path: path} }

// Is: the field is the string value.
func Is(path, value string, w int) Signal {
	return Signal{Weight: w, kind: sigIs, path: path, values: []string{value}}
}

// Prefixed: the field is a string starting with prefix.
func Prefixed(path, prefix string, w int) Signal {
	return Signal{Weight: w, kind: sigPrefixed, path: path, values: []string{prefix}}
}

// OneOf: the field is one of the string values.
func OneOf(path string, w int, values ...string) Signal {
	return Signal{Weight: w, kind: sigOneOf, path: path, values: values}
}

// Typed: the field exists with the JSON type.
func Typed(path string, t gjson.Type, w int) Signal {
	return Signal{Weight: w, kind: sigTyped, path: path, typ: t}
}

// Array: the field is a JSON array.
func Array(path string, w int) Signal { return Signal{Weight: w, kind: sigArray, path: path} }

// Object: the field is a JSON object.
func Object(path string, w int) Signal { return Signal{Weight: w, kind: sigObject, path: path} }

// EnvSet: the environment variable is set (weaker evidence: it leaks).
func EnvSet(name string, w int) Signal {
	return Signal{Weight: w, Env: true, kind: sigEnvSet, path: name}
}

// EnvIs: the environment variable has the value.
func EnvIs(name, value string, w int) Signal {
	return Signal{Weight: w, Env: true, kind: sigEnvIs, path: name, values: []string{value}}
}

// Test reports whether the evidence is there.
func (s *Signal) Test(p Payload) bool {
	switch s.kind {
	case sigHas:
		return p.Get(s.path).Exists()
	case sigLacks:
		return !p.Get(s.path).Exists()
	case sigIs:
		r := p.Get(s.path)
		return r.Type == gjson.String && r.Str == s.values[0]
	case sigPrefixed:
		r := p.Get(s.path)
		return r.Type == gjson.String && strings.HasPrefix(r.Str, s.values[0])
	case sigOneOf:
		r := p.Get(s.path)
		if r.Type != gjson.String {
			return false
		}
		for _, v := range s.values {
			if r.Str == v {
				return true
			}
		}
		return false
	case sigTyped:
		r := p.Get(s.path)
		return r.Exists() && r.Type == s.typ && !(s.typ == gjson.JSON && r.Raw == "")
	case sigArray:
		return p.Get(s.path).IsArray()
	case sigObject:
		return p.Get(s.path).IsObject()
	case sigEnvSet:
		return p.Env != nil && p.Env(s.path) != ""
	case sigEnvIs:
		return p.Env != nil && p.Env(s.path) == s.values[0]
	case sigWhen:
		return s.test != nil && s.test(p)
	}
	return false
}

// Desc describes the evidence, for --explain: e.g. `payload has "cursor_version"`.
func (s Signal) Desc() string {
	switch s.kind {
	case sigHas:
		return `payload has "` + s.path + `"`
	case sigLacks:
		return `payload lacks "` + s.path + `"`
	case sigIs:
		return s.path + ` is "` + s.values[0] + `"`
	case sigPrefixed:
		return s.path + ` starts with "` + s.values[0] + `"`
	case sigOneOf:
		return s.path + " is one of " + summarize(s.values)
	case sigTyped:
		return s.path + " is a " + typeName(s.typ)
	case sigArray:
		return s.path + " is an array"
	case sigObject:
		return s.path + " is an object"
	case sigEnvSet:
		return "env " + s.path + " is set"
	case sigEnvIs:
		return "env " + s.path + "=" + s.values[0]
	}
	return s.desc
}

func summarize(v []string) string {
	if len(v) <= 4 {
		return "{" + strings.Join(v, ", ") + "}"
	}
	return "{" + strings.Join(v[:4], ", ") + ", …}"
}

func typeName(t gjson.Type) string {
	switch t {
	case gjson.String:
		return "string"
	case gjson.Number:
		return "number"
	case gjson.True, gjson.False:
		return "boolean"
	case gjson.Null:
		return "null"
	}
	return "JSON value"
}
