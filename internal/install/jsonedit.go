package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tailscale/hujson"
	"github.com/tidwall/gjson"
)

// Users' config files must survive an install byte for byte outside
// hookshim's own entries: key order, indentation, blank lines, comments
// and trailing commas stay (Gemini CLI, VS Code and Cursor read JSON with
// comments). So a file is parsed with hujson, whose syntax tree keeps every
// byte of the input, members are added and removed in that tree, and new
// values are written in the file's own indentation.

// jdoc is a JSON (or JSONC) document being edited.
type jdoc struct {
	root  hujson.Value // the syntax tree; offsets match s
	s     string       // the text the tree packs to
	unit  string       // one level of indentation
	colon string       // ": " or ":"
	// fresh: a file install creates, laid out on several lines even
	// while it is still "{}".
	fresh bool
	nl    string // "\n", or "\r\n" in a file that uses it
}

// newJDoc checks that s is a JSON object (comments and trailing commas
// allowed) and learns its style.
func newJDoc(s string) (*jdoc, error) {
	v, err := parseJSONC(s)
	if err != nil {
		return nil, err
	}
	if _, ok := v.Value.(*hujson.Object); !ok {
		return nil, errors.New("the file is JSON but not an object")
	}
	d := &jdoc{root: v, s: s, unit: "  ", colon: ": ", nl: "\n"}
	d.learnStyle()
	return d, nil
}

func parseJSONC(s string) (hujson.Value, error) {
	v, err := hujson.Parse([]byte(s))
	if err != nil {
		return v, errors.New(strings.TrimPrefix(err.Error(), "hujson: "))
	}
	return v, nil
}

// checkJSON reports where a document stops being JSON (with comments and
// trailing commas, which the tools hookshim installs into accept).
func checkJSON(s string) error {
	_, err := parseJSONC(s)
	return err
}

// standard is s as plain JSON: comments and trailing commas become
// spaces, so gjson and encoding/json can read it.
func standard(s string) string {
	b, err := hujson.Standardize([]byte(s))
	if err != nil {
		return s
	}
	return string(b)
}

// sync packs the tree after an edit and brings its offsets up to date.
func (d *jdoc) sync() {
	d.s = string(d.root.Pack())
	d.root.UpdateOffsets()
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

// find returns the value at p, or nil.
func (d *jdoc) find(p path) *hujson.Value {
	v := &d.root
	for _, e := range p {
		switch k := e.(type) {
		case string:
			obj, ok := v.Value.(*hujson.Object)
			if !ok {
				return nil
			}
			i := memberIndex(obj, k)
			if i < 0 {
				return nil
			}
			v = &obj.Members[i].Value
		case int:
			arr, ok := v.Value.(*hujson.Array)
			if !ok || k < 0 || k >= len(arr.Elements) {
				return nil
			}
			v = &arr.Elements[k]
		}
	}
	return v
}

// memberIndex is the index of key in obj, -1 when absent. JSON allows
// duplicate keys; like most readers, the last wins.
func memberIndex(obj *hujson.Object, key string) int {
	for i := len(obj.Members) - 1; i >= 0; i-- {
		if lit, ok := obj.Members[i].Name.Value.(hujson.Literal); ok && lit.String() == key {
			return i
		}
	}
	return -1
}

// get returns the value at p as plain JSON.
func (d *jdoc) get(p path) (gjson.Result, bool) {
	v := d.find(p)
	if v == nil {
		return gjson.Result{}, false
	}
	raw := d.s[v.StartOffset:v.EndOffset]
	if !v.IsStandard() {
		c := hujson.Value{Value: v.Clone().Value}
		c.Standardize()
		raw = string(c.Pack())
	}
	return gjson.Parse(raw), true
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

// quoteJSON quotes a string as JSON as wire.Quote does: <, > and & are
// common in commands and mean nothing special in a config file.
func quoteJSON(s string) string { return string(wire.Quote(s)) }

// valueOf parses text install rendered.
func valueOf(text string) hujson.ValueTrimmed {
	v, err := hujson.Parse([]byte(text))
	if err != nil {
		panic("hookshim rendered invalid JSON: " + err.Error())
	}
	return v.Value
}

// set puts raw at p: it replaces an existing value, or adds the member to
// the object at p's parent, which must exist.
func (d *jdoc) set(p path, raw string) error {
	if v := d.find(p); v != nil {
		v.Value = valueOf(d.render(raw, d.lineIndent(v.StartOffset), d.multiline()))
		d.sync()
		return nil
	}
	parent, last := p[:len(p)-1], p[len(p)-1]
	key, ok := last.(string)
	if !ok {
		return fmt.Errorf("no element %v", p)
	}
	c := d.find(parent)
	if c == nil || c.Value.Kind() != '{' {
		return fmt.Errorf("%v is not an object", parent)
	}
	d.insert(c, key, raw)
	return nil
}

// appendTo adds raw at the end of the array at p.
func (d *jdoc) appendTo(p path, raw string) error {
	c := d.find(p)
	if c == nil || c.Value.Kind() != '[' {
		return fmt.Errorf("%v is not an array", p)
	}
	d.insert(c, "", raw)
	return nil
}

// container is what objects and arrays share for editing: the slots of
// their members, in order, and the extra before the closing bracket.
type container struct {
	obj *hujson.Object
	arr *hujson.Array
}

func containerOf(v *hujson.Value) container {
	switch c := v.Value.(type) {
	case *hujson.Object:
		return container{obj: c}
	case *hujson.Array:
		return container{arr: c}
	}
	return container{}
}

func (c container) len() int {
	if c.obj != nil {
		return len(c.obj.Members)
	}
	return len(c.arr.Elements)
}

// lead is the extra before member i: after the opening bracket or the
// comma that precedes it.
func (c container) lead(i int) *hujson.Extra {
	if c.obj != nil {
		return &c.obj.Members[i].Name.BeforeExtra
	}
	return &c.arr.Elements[i].BeforeExtra
}

// value is member i's value.
func (c container) value(i int) *hujson.Value {
	if c.obj != nil {
		return &c.obj.Members[i].Value
	}
	return &c.arr.Elements[i]
}

// start is where member i starts in the text: its key, or the element.
func (c container) start(i int) int {
	if c.obj != nil {
		return c.obj.Members[i].Name.StartOffset
	}
	return c.arr.Elements[i].StartOffset
}

// tail is the extra before the closing bracket.
func (c container) tail() *hujson.Extra {
	if c.obj != nil {
		return &c.obj.AfterExtra
	}
	return &c.arr.AfterExtra
}

func (c container) removeAt(i int) {
	if c.obj != nil {
		c.obj.Members = append(c.obj.Members[:i:i], c.obj.Members[i+1:]...)
		return
	}
	c.arr.Elements = append(c.arr.Elements[:i:i], c.arr.Elements[i+1:]...)
}

// insert adds a member (key "" for arrays) at the end of the container v.
// The new member takes the indentation and separators of those before it,
// or of the file when it is the first.
func (d *jdoc) insert(v *hujson.Value, key, raw string) {
	c := containerOf(v)
	cs := v.StartOffset
	ce := v.EndOffset - 1 // the closing bracket
	n := c.len()
	base := d.lineIndent(cs)
	multi := d.multiline()
	child := base + d.unit
	if n > 0 {
		multi = strings.Contains(d.s[cs:c.start(0)], "\n")
		if multi {
			child = d.lineIndent(c.start(0))
		}
	}
	m := hujson.Value{Value: valueOf(d.render(raw, child, multi))}
	var name hujson.Value
	if c.obj != nil {
		name.Value = hujson.Literal(quoteJSON(key))
		colon := d.colon
		if !multi && d.colon == ": " && n > 0 && !strings.Contains(d.s[cs:ce], ": ") {
			colon = ":"
		}
		if colon == ": " {
			m.BeforeExtra = hujson.Extra(" ")
		}
	}
	var lead string
	tail := c.tail()
	if n == 0 {
		// The first member replaces the blank between the brackets; a
		// comment there stays, before it.
		kept := string(withComments(*tail))
		*tail = nil
		if multi {
			lead = strings.TrimSuffix(kept, "\n") + d.nl + child
			*tail = hujson.Extra(d.nl + base)
		} else if kept != "" {
			lead = kept + " "
		}
	} else {
		switch {
		case multi:
			lead = d.nl + child
		case strings.Contains(d.s[cs:ce], ", ") || (!strings.Contains(d.s[cs:ce], ",") && d.colon == ": "):
			lead = " "
		}
		// The new member takes the last one's place before the closing
		// bracket (and its trailing comma, if the file has them); a
		// comment on the last member's line stays on that line.
		last := c.value(n - 1)
		m.AfterExtra, last.AfterExtra = last.AfterExtra, nil
		if multi {
			same, rest := splitSameLine(*tail)
			if hasComment(same) {
				lead = string(same) + lead
				*tail = rest
			}
		}
	}
	if c.obj != nil {
		name.BeforeExtra = hujson.Extra(lead)
		c.obj.Members = append(c.obj.Members, hujson.ObjectMember{Name: name, Value: m})
	} else {
		m.BeforeExtra = hujson.Extra(lead)
		c.arr.Elements = append(c.arr.Elements, m)
	}
	d.sync()
}

// insertBefore adds the member key: raw to obj before its member i, in
// that member's layout: on a line of its own when it is on one. A comment
// after the separator that leads to member i stays on that line; comment
// lines above member i stay with it.
func (d *jdoc) insertBefore(obj *hujson.Object, i int, key, raw string) {
	next := &obj.Members[i]
	lead := next.Name.BeforeExtra
	multi := bytes.IndexByte(lead, '\n') >= 0
	indent := d.lineIndent(next.Name.StartOffset)
	m := hujson.ObjectMember{Value: hujson.Value{Value: valueOf(d.render(raw, indent, multi))}}
	m.Name.Value = hujson.Literal(quoteJSON(key))
	if d.colon == ": " {
		m.Value.BeforeExtra = hujson.Extra(" ")
	}
	if multi {
		same, rest := splitSameLine(lead)
		m.Name.BeforeExtra = hujson.Extra(string(same) + d.nl + indent)
		next.Name.BeforeExtra = append(hujson.Extra{}, rest...)
	} else {
		m.Name.BeforeExtra = append(hujson.Extra{}, lead...)
		next.Name.BeforeExtra = nil
		if len(lead) > 0 || d.colon == ": " {
			next.Name.BeforeExtra = hujson.Extra(" ")
		}
	}
	obj.Members = slices.Insert(obj.Members, i, m)
	d.sync()
}

// remove deletes the member at p, with the separator that went with it.
// Comments around it that belong to its neighbours stay.
func (d *jdoc) remove(p path) error {
	parent, last := p[:len(p)-1], p[len(p)-1]
	pv := d.find(parent)
	if pv == nil {
		return fmt.Errorf("no %v", parent)
	}
	c := containerOf(pv)
	if c.obj == nil && c.arr == nil {
		return fmt.Errorf("no %v", p)
	}
	k := -1
	switch e := last.(type) {
	case string:
		if c.obj != nil {
			k = memberIndex(c.obj, e)
		}
	case int:
		k = e
	}
	n := c.len()
	if k < 0 || k >= n {
		return fmt.Errorf("no %v", p)
	}
	lead := *c.lead(k)
	tail := c.tail()
	switch {
	case n == 1:
		// {} again, but for comments.
		kept := withComments(lead)
		if !hasComment(lead) && !hasComment(*tail) {
			*tail = nil
		} else if len(kept) > 0 {
			rest := *tail
			if bytes.HasSuffix(kept, []byte("\n")) {
				rest = trimFirstLineBreak(rest)
			}
			*tail = append(append(hujson.Extra{}, kept...), rest...)
		}
	case k < n-1:
		// The next member takes this one's place after the separator; a
		// comment after this member's comma goes with it, comment lines
		// before the next member stay.
		next := c.lead(k + 1)
		same, _ := splitSameLine(lead)
		_, rest := splitSameLine(*next)
		if hasComment(same) || hasComment(rest) {
			if !hasComment(same) {
				same = nil
			}
			*next = joinExtra(same, rest)
		} else {
			*next = lead
		}
	default:
		// The previous member becomes the last: it takes this one's
		// trailing comma, if any; a comment that was on its line stays.
		c.value(k - 1).AfterExtra = c.value(k).AfterExtra
		if same, _ := splitSameLine(lead); hasComment(same) {
			*tail = joinExtra(same, *tail)
		}
	}
	c.removeAt(k)
	d.sync()
	return nil
}

// length is the number of members of the container at p (-1: none there).
func (d *jdoc) length(p path) int {
	v := d.find(p)
	if v == nil {
		return -1
	}
	c := containerOf(v)
	if c.obj == nil && c.arr == nil {
		return -1
	}
	return c.len()
}

// Comments in an extra: hujson's whitespace and comments between tokens.

func hasComment(e []byte) bool { return !hujson.Extra(e).IsStandard() }

// withComments is e up to the end of its last comment (a line comment
// with its line break); empty without one.
func withComments(e []byte) []byte {
	t := bytes.TrimRight(e, " \t\r\n")
	if len(t) == 0 || hujson.Extra(t).IsValid() {
		return t
	}
	// It ends in a line comment, which owns its line break.
	return e[:len(t)+bytes.IndexByte(e[len(t):], '\n')+1]
}

// splitSameLine cuts e before its first line break: what stays on the
// line of the value before it, and the rest. A block comment that goes on
// past that line break is all rest.
func splitSameLine(e []byte) (same, rest []byte) {
	i := bytes.IndexByte(e, '\n')
	if i < 0 {
		return e, nil
	}
	if !hujson.Extra(e[:i+1]).IsValid() {
		return nil, e
	}
	if i > 0 && e[i-1] == '\r' {
		i--
	}
	return e[:i], e[i:]
}

// joinExtra is a then b; a line comment at the end of a keeps its line
// break, so that what follows is not commented out.
func joinExtra(a, b []byte) hujson.Extra {
	out := append(hujson.Extra{}, a...)
	if !hujson.Extra(a).IsValid() && len(trimFirstLineBreak(b)) == len(b) {
		out = append(out, '\n')
	}
	return append(out, b...)
}

// trimFirstLineBreak drops the blanks up to and including e's first line
// break, when e starts with them.
func trimFirstLineBreak(e []byte) []byte {
	i := 0
	for i < len(e) && (e[i] == ' ' || e[i] == '\t' || e[i] == '\r') {
		i++
	}
	if i < len(e) && e[i] == '\n' {
		return e[i+1:]
	}
	return e
}

// jsonEqual compares two JSON values by meaning.
func jsonEqual(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(standard(a)), &x) != nil || json.Unmarshal([]byte(standard(b)), &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
