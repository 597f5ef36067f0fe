package provider

import (
	"strings"

	"github.com/tidwall/gjson"
)

// Signal is one piece of evidence for a provider. Weight may be negative:
// a field the tool never sends counts against it.
type Signal struct {
	Desc   string // shown by --explain, e.g. `payload has "cursor_version"`
	Weight int
	Env    bool // evidence from the environment, not the payload
	Test   func(p Payload) bool
}

// Has: the payload has the field.
func Has(path string, w int) Signal {
	return Signal{Desc: `payload has "` + path + `"`, Weight: w, Test: func(p Payload) bool { return p.Get(path).Exists() }}
}

// Lacks: the payload does not have the field.
func Lacks(path string, w int) Signal {
	return Signal{Desc: `payload lacks "` + path + `"`, Weight: w, Test: func(p Payload) bool { return !p.Get(path).Exists() }}
}

// Is: the field is the string value.
func Is(path, value string, w int) Signal {
	return Signal{Desc: path + ` is "` + value + `"`, Weight: w, Test: func(p Payload) bool {
		r := p.Get(path)
		return r.Type == gjson.String && r.Str == value
	}}
}

// Prefixed: the field is a string starting with prefix.
func Prefixed(path, prefix string, w int) Signal {
	return Signal{Desc: path + ` starts with "` + prefix + `"`, Weight: w, Test: func(p Payload) bool {
		r := p.Get(path)
		return r.Type == gjson.String && strings.HasPrefix(r.Str, prefix)
	}}
}

// OneOf: the field is one of the string values.
func OneOf(path string, w int, values ...string) Signal {
	set := make(map[string]bool, len(values))
	for _, v := range values {
		set[v] = true
	}
	desc := path + " is one of " + summarize(values)
	return Signal{Desc: desc, Weight: w, Test: func(p Payload) bool {
		r := p.Get(path)
		return r.Type == gjson.String && set[r.Str]
	}}
}

// Typed: the field exists with the JSON type.
func Typed(path string, t gjson.Type, w int) Signal {
	return Signal{Desc: path + " is a " + typeName(t), Weight: w, Test: func(p Payload) bool {
		r := p.Get(path)
		return r.Exists() && r.Type == t && !(t == gjson.JSON && r.Raw == "")
	}}
}

// Array: the field is a JSON array.
func Array(path string, w int) Signal {
	return Signal{Desc: path + " is an array", Weight: w, Test: func(p Payload) bool { return p.Get(path).IsArray() }}
}

// Object: the field is a JSON object.
func Object(path string, w int) Signal {
	return Signal{Desc: path + " is an object", Weight: w, Test: func(p Payload) bool { return p.Get(path).IsObject() }}
}

// EnvSet: the environment variable is set (weaker evidence: it leaks).
func EnvSet(name string, w int) Signal {
	return Signal{Desc: "env " + name + " is set", Weight: w, Env: true, Test: func(p Payload) bool {
		return p.Env != nil && p.Env(name) != ""
	}}
}

// EnvIs: the environment variable has the value.
func EnvIs(name, value string, w int) Signal {
	return Signal{Desc: "env " + name + "=" + value, Weight: w, Env: true, Test: func(p Payload) bool {
		return p.Env != nil && p.Env(name) == value
	}}
}

// When: a custom test.
func When(desc string, w int, test func(p Payload) bool) Signal {
	return Signal{Desc: desc, Weight: w, Test: test}
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
