package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/tidwall/gjson"
)

// A small JSON text editor. Users' config files must survive an install
// byte for byte outside hookshim's own entries: key order, indentation,
// blank lines and unrelated entries stay. So the file is never decoded and
// re-encoded; values are located in the text and spliced in or out, and new
// values are written in the file's own indentation.

// jdoc is a JSON document being edited.
type jdoc struct {
	s     string
	unit  string // one level of indentation
	colon string // ": " or ":"
	// fresh: a file install creates, laid out on several lines even
	// while it is still "{}".
	fresh bool
	nl    string // "\n", or "\r\n" in a file that uses it
}

// newJDoc checks that s is a JSON object and learns its style.
func newJDoc(s string) (*jdoc, error) {
	if err := checkJSON(s); err != nil {
		return nil, err
	}
	if v := gjson.Parse(s); !v.IsObject() {
		return nil, fmt.Errorf("the file is JSON but not an object")
	}
	d := &jdoc{s: s, unit: "  ", colon: ": ", nl: "\n"}
	d.learnStyle()
	return d, nil
}

// checkJSON reports where a document stops being JSON.
func checkJSON(s string) error {
	if gjson.Valid(s) {
		return nil
	}
	var v any
	err := json.Unmarshal([]byte(s), &v)
	if se, ok := err.(*json.SyntaxError); ok {
		line, col := lineCol(s, int(se.Offset))
		return fmt.Errorf("line %d, column %d: %v", line, col, se)
	}
	if err != nil {
		return err
	}
	return fmt.Errorf("not valid JSON")
}

func lineCol(s string, off int) (int, int) {
	if off > len(s) {
		off = len(s)
	}
	line := 1 + strings.Count(s[:off], "\n")
	col := off - strings.LastIndex(s[:off], "\n")
	return line, col
}

// learnStyle finds the indentation unit (the first indented line's
// whitespace) and whether the file puts a space after colons.
func (d *jdoc) learnStyle() {
	if strings.Contains(d.s, "\r\n") {
		d.nl = "\r\n"
	}
	for _, line := range strings.Split(d.s, "\n")[1:] {
		line = strings.TrimSuffix(line, "\r")
		trimmed := strings.TrimLeft(line, " \t")
		if trimmed != "" && len(trimmed) < len(line) {
			d.unit = line[:len(line)-len(trimmed)]
			break
		}
	}
	if i := strings.Index(d.s, "\":"); i >= 0 {
		if i+2 < len(d.s) && d.s[i+2] != ' ' && d.s[i+2] != '\t' {
			d.colon = ":"
		}
	}
}

// multiline reports whether the file is laid out on several lines.
func (d *jdoc) multiline() bool { return d.fresh || strings.Contains(strings.TrimSpace(d.s), "\n") }

// A path is a list of object keys (string) and array indexes (int).
type path []any

func (p path) String() string {
	var b strings.Builder
	for i, e := range p {
		if i > 0 {
			b.WriteByte('.')
		}
		fmt.Fprint(&b, e)
	}
	return b.String()
}

// span is one member of a container: the key (objects) and the value.
type span struct {
	start    int // key start for objects, value start for arrays
	valStart int
	valEnd   int
	key      string
}

// skipWS returns the first index at or after i that is not whitespace.
func skipWS(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// valueEnd returns the index just past the value that starts at i. The
// document is known to be valid.
func valueEnd(s string, i int) int {
	switch s[i] {
	case '"':
		return stringEnd(s, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(s); j++ {
			switch s[j] {
			case '"':
				j = stringEnd(s, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(s)
	default:
		j := i
		for j < len(s) && !strings.ContainsRune(",]} \t\r\n", rune(s[j])) {
			j++
		}
		return j
	}
}

func stringEnd(s string, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(s)
}

// members lists the members of the container starting at cs and returns
// the index of its closing bracket.
func members(s string, cs int) ([]span, int) {
	var out []span
	obj := s[cs] == '{'
	i := skipWS(s, cs+1)
	for i < len(s) && s[i] != '}' && s[i] != ']' {
		sp := span{start: i}
		if obj {
			ke := stringEnd(s, i)
			var key string
			_ = json.Unmarshal([]byte(s[i:ke]), &key)
			sp.key = key
			i = skipWS(s, ke)
			i = skipWS(s, i+1) // the colon
		}
		sp.valStart = i
		sp.valEnd = valueEnd(s, i)
		out = append(out, sp)
		i = skipWS(s, sp.valEnd)
		if i < len(s) && s[i] == ',' {
			i = skipWS(s, i+1)
		}
	}
	return out, i
}

// locate returns the value span at p, or ok false.
func (d *jdoc) locate(p path) (start, end int, ok bool) {
	start = skipWS(d.s, 0)
	end = valueEnd(d.s, start)
	for _, e := range p {
		if start >= len(d.s) {
			return 0, 0, false
		}
		c := d.s[start]
		mems, _ := func() ([]span, int) {
			if c != '{' && c != '[' {
				return nil, 0
			}
			return members(d.s, start)
		}()
		found := false
		switch k := e.(type) {
		case string:
			if c != '{' {
				return 0, 0, false
			}
			// JSON allows duplicate keys; like most readers, the last wins.
			for i := len(mems) - 1; i >= 0; i-- {
				if mems[i].key == k {
					start, end, found = mems[i].valStart, mems[i].valEnd, true
					break
				}
			}
		case int:
			if c != '[' || k < 0 || k >= len(mems) {
				return 0, 0, false
			}
			start, end, found = mems[k].valStart, mems[k].valEnd, true
		}
		if !found {
			return 0, 0, false
		}
	}
	return start, end, true
}

// get returns the raw value at p.
func (d *jdoc) get(p path) (gjson.Result, bool) {
	s, e, ok := d.locate(p)
	if !ok {
		return gjson.Result{}, false
	}
	return gjson.Parse(d.s[s:e]), true
}

// lineIndent is the whitespace that starts the line holding position i.
func (d *jdoc) lineIndent(i int) string {
	ls := strings.LastIndex(d.s[:i], "\n") + 1
	j := ls
	for j < len(d.s) && (d.s[j] == ' ' || d.s[j] == '\t') {
		j++
	}
	return d.s[ls:j]
}

// render writes a value in the file's style, for a place whose line is
// indented by indent.
func (d *jdoc) render(raw, indent string, multiline bool) string {
	v := gjson.Parse(raw)
	if !multiline {
		return compact(v, d.colon == ": ")
	}
	var b strings.Builder
	d.pretty(&b, v, indent)
	return b.String()
}

func (d *jdoc) pretty(b *strings.Builder, v gjson.Result, indent string) {
	switch {
	case v.IsObject() || v.IsArray():
		open, closeB := "[", "]"
		if v.IsObject() {
			open, closeB = "{", "}"
		}
		n := 0
		v.ForEach(func(k, val gjson.Result) bool {
			if n == 0 {
				b.WriteString(open)
			} else {
				b.WriteString(",")
			}
			n++
			b.WriteString(d.nl + indent + d.unit)
			if v.IsObject() {
				b.WriteString(quoteJSON(k.String()) + d.colon)
			}
			d.pretty(b, val, indent+d.unit)
			return true
		})
		if n == 0 {
			b.WriteString(open + closeB)
			return
		}
		b.WriteString(d.nl + indent + closeB)
	default:
		b.WriteString(strings.TrimSpace(v.Raw))
	}
}

// compact writes v on one line.
func compact(v gjson.Result, spaced bool) string {
	var b strings.Builder
	var walk func(v gjson.Result)
	walk = func(v gjson.Result) {
		switch {
		case v.IsObject() || v.IsArray():
			open, closeB := "[", "]"
			if v.IsObject() {
				open, closeB = "{", "}"
			}
			b.WriteString(open)
			n := 0
			v.ForEach(func(k, val gjson.Result) bool {
				if n > 0 {
					b.WriteString(",")
					if spaced {
						b.WriteString(" ")
					}
				}
				n++
				if v.IsObject() {
					b.WriteString(quoteJSON(k.String()) + ":")
					if spaced {
						b.WriteString(" ")
					}
				}
				walk(val)
				return true
			})
			b.WriteString(closeB)
		default:
			b.WriteString(strings.TrimSpace(v.Raw))
		}
	}
	walk(v)
	return b.String()
}

// quoteJSON quotes a string as JSON without escaping <, > and &, which
// are common in commands and mean nothing special in a config file.
func quoteJSON(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(buf.String(), "\n")
}

// set puts raw at p: it replaces an existing value, or adds the member to
// the object at p's parent, which must exist.
func (d *jdoc) set(p path, raw string) error {
	if s, e, ok := d.locate(p); ok {
		d.s = d.s[:s] + d.render(raw, d.lineIndent(s), d.multiline()) + d.s[e:]
		return nil
	}
	parent, last := p[:len(p)-1], p[len(p)-1]
	key, ok := last.(string)
	if !ok {
		return fmt.Errorf("no element %v", p)
	}
	cs, _, ok := d.locate(parent)
	if !ok || d.s[cs] != '{' {
		return fmt.Errorf("%v is not an object", parent)
	}
	d.insert(cs, key, raw)
	return nil
}

// appendTo adds raw at the end of the array at p.
func (d *jdoc) appendTo(p path, raw string) error {
	cs, _, ok := d.locate(p)
	if !ok || d.s[cs] != '[' {
		return fmt.Errorf("%v is not an array", p)
	}
	d.insert(cs, "", raw)
	return nil
}

// insert adds a member (key "" for arrays) at the end of the container
// that starts at cs.
func (d *jdoc) insert(cs int, key, raw string) {
	mems, ce := members(d.s, cs)
	base := d.lineIndent(cs)
	multi := d.multiline()
	child := base + d.unit
	if len(mems) > 0 {
		multi = strings.Contains(d.s[cs:mems[0].start], "\n")
		if multi {
			child = d.lineIndent(mems[0].start)
		}
	}
	text := d.render(raw, child, multi)
	if d.s[cs] == '{' {
		colon := d.colon
		if !multi && d.colon == ": " && len(mems) > 0 && !strings.Contains(d.s[cs:ce], ": ") {
			colon = ":"
		}
		text = quoteJSON(key) + colon + text
	}
	if len(mems) == 0 {
		if multi {
			text = d.nl + child + text + d.nl + base
		}
		d.s = d.s[:cs+1] + text + d.s[ce:]
		return
	}
	sep := ","
	if multi {
		sep = "," + d.nl + child
	} else if inner := d.s[cs:ce]; strings.Contains(inner, ", ") || (!strings.Contains(inner, ",") && d.colon == ": ") {
		sep = ", "
	}
	end := mems[len(mems)-1].valEnd
	d.s = d.s[:end] + sep + text + d.s[end:]
}

// remove deletes the member at p, with the separator that went with it.
func (d *jdoc) remove(p path) error {
	parent, last := p[:len(p)-1], p[len(p)-1]
	cs, _, ok := d.locate(parent)
	if !ok {
		return fmt.Errorf("no %v", parent)
	}
	mems, ce := members(d.s, cs)
	k := -1
	switch e := last.(type) {
	case string:
		for i := len(mems) - 1; i >= 0; i-- {
			if mems[i].key == e {
				k = i
				break
			}
		}
	case int:
		k = e
	}
	if k < 0 || k >= len(mems) {
		return fmt.Errorf("no %v", p)
	}
	switch {
	case len(mems) == 1:
		d.s = d.s[:cs+1] + d.s[ce:]
	case k < len(mems)-1:
		d.s = d.s[:mems[k].start] + d.s[mems[k+1].start:]
	default:
		d.s = d.s[:mems[k-1].valEnd] + d.s[mems[k].valEnd:]
	}
	return nil
}

// length is the number of members of the container at p (-1: none there).
func (d *jdoc) length(p path) int {
	s, _, ok := d.locate(p)
	if !ok || (d.s[s] != '{' && d.s[s] != '[') {
		return -1
	}
	mems, _ := members(d.s, s)
	return len(mems)
}

// jsonEqual compares two JSON values by meaning.
func jsonEqual(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
