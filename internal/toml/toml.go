// Package toml decodes TOML v1.1.0 documents (https://toml.io/en/v1.1.0)
// into plain Go values: string, int64, float64, bool, []any,
// map[string]any and DateTime.
//
// 1.1 rather than 1.0, because the files read are other tools' own
// configuration, and those tools read 1.1 (Codex reads config.toml with
// Rust's toml crate, which took 1.1 in its 1.0 release): a file its tool
// accepts must not be refused here. 1.1 is a superset of 1.0 that decodes
// every 1.0 document to the same values; it adds line endings, comments
// and a trailing comma inside inline tables, the \e and \xHH escapes, and
// times without seconds.
//
// The decoder is strict: everything the specification calls invalid is an
// error, reported as an *Error with the line and column of the offending
// character. It does not recurse deeper than MaxDepth nested arrays and
// inline tables, and reads a document in time linear in its length, so a
// hostile file can neither crash nor stall it. It allocates nothing at
// package initialization: it is linked into a binary started on every hook
// call.
package toml

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxDepth is how deeply arrays and inline tables may nest.
const MaxDepth = 1000

// Error is where and why a document is not valid TOML.
type Error struct {
	Line int // 1-based
	Col  int // 1-based, in characters
	Msg  string
}

func (e *Error) Error() string {
	return "line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Col) + ": " + e.Msg
}

// failure carries an error from deep inside the parser to Parse.
type failure struct {
	at  int
	msg string
}

// Parse decodes a TOML document into its root table.
func Parse(doc string) (root map[string]any, err error) {
	p := &parser{s: doc}
	if strings.HasPrefix(doc, "\uFEFF") {
		// A byte order mark may start a UTF-8 document; it is not part of
		// the first line.
		p.i, p.base = 3, 3
	}
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(failure)
			if !ok {
				panic(r)
			}
			line, col := p.position(f.at)
			root, err = nil, &Error{Line: line, Col: col, Msg: f.msg}
		}
	}()
	if !utf8.ValidString(doc) {
		for i := 0; i < len(doc); {
			r, n := utf8.DecodeRuneInString(doc[i:])
			if r == utf8.RuneError && n <= 1 {
				p.fail(i, "invalid utf-8")
			}
			i += n
		}
	}
	p.root = &node{kind: headerTable, m: map[string]any{}}
	p.document()
	return p.root.m, nil
}

type parser struct {
	s    string
	i    int
	base int // where the document starts, after a byte order mark
	root *node
}

func (p *parser) fail(at int, msg string) {
	panic(failure{at: at, msg: msg})
}

// position turns a byte offset into a 1-based line and column.
func (p *parser) position(at int) (line, col int) {
	line, col = 1, 1
	if at > len(p.s) {
		at = len(p.s)
	}
	for _, r := range p.s[p.base:at] {
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

func (p *parser) eof() bool { return p.i >= len(p.s) }

// peek is the byte at the cursor, 0 at the end.
func (p *parser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

// found names the character at the cursor for a message.
func (p *parser) found() string {
	if p.eof() {
		return "the end of the document"
	}
	r, _ := utf8.DecodeRuneInString(p.s[p.i:])
	switch r {
	case '\n':
		return "the end of the line"
	case '\r':
		if strings.HasPrefix(p.s[p.i:], "\r\n") {
			return "the end of the line"
		}
	}
	return strconv.QuoteRune(r)
}

// ws skips spaces and tabs.
func (p *parser) ws() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

// comment skips a comment, if there is one, up to the end of its line.
func (p *parser) comment() {
	if p.peek() != '#' {
		return
	}
	for p.i++; p.i < len(p.s); p.i++ {
		c := p.s[p.i]
		if c == '\n' || c == '\r' && strings.HasPrefix(p.s[p.i:], "\r\n") {
			return
		}
		if isControl(c) {
			p.fail(p.i, "control character "+strconv.QuoteRune(rune(c))+" in a comment")
		}
	}
}

// newline consumes a line ending, reporting whether there was one.
func (p *parser) newline() bool {
	switch {
	case strings.HasPrefix(p.s[p.i:], "\n"):
		p.i++
	case strings.HasPrefix(p.s[p.i:], "\r\n"):
		p.i += 2
	default:
		return false
	}
	return true
}

// isControl reports the control characters TOML allows in no string or
// comment: all but tab. Line endings are dealt with before this is asked.
func isControl(c byte) bool {
	return c < 0x20 && c != '\t' || c == 0x7f
}

// blank skips whitespace, comments and line endings, as between the
// elements of an array.
func (p *parser) blank() {
	for {
		p.ws()
		p.comment()
		if !p.newline() {
			return
		}
	}
}

func (p *parser) document() {
	cur := p.root
	for {
		p.ws()
		switch p.peek() {
		case '[':
			cur = p.header()
		case '#', '\n', '\r', 0:
		default:
			p.keyValue(cur, 0)
		}
		p.ws()
		p.comment()
		if p.eof() {
			return
		}
		if !p.newline() {
			if p.peek() == '\r' {
				p.fail(p.i, "carriage return not followed by a line feed")
			}
			p.fail(p.i, "expected the end of the line, found "+p.found())
		}
	}
}

// keyPart is one part of a dotted key, with where it starts.
type keyPart struct {
	name string
	at   int
}

// keyName writes the first n parts of a key as TOML would.
func keyName(ks []keyPart, n int) string {
	var b strings.Builder
	for i, k := range ks[:n] {
		if i > 0 {
			b.WriteByte('.')
		}
		bare := k.name != ""
		for j := 0; j < len(k.name); j++ {
			if !isBare(k.name[j]) {
				bare = false
				break
			}
		}
		if bare {
			b.WriteString(k.name)
		} else {
			b.WriteString(strconv.Quote(k.name))
		}
	}
	return b.String()
}

func isBare(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// key reads a possibly dotted key and the whitespace after it.
func (p *parser) key() []keyPart {
	var ks []keyPart
	for {
		p.ws()
		ks = append(ks, p.simpleKey())
		p.ws()
		if p.peek() != '.' {
			return ks
		}
		p.i++
	}
}

func (p *parser) simpleKey() keyPart {
	at := p.i
	switch c := p.peek(); {
	case c == '"':
		if strings.HasPrefix(p.s[p.i:], `"""`) {
			p.fail(at, "a key cannot be a multi-line string")
		}
		return keyPart{p.basicString(), at}
	case c == '\'':
		if strings.HasPrefix(p.s[p.i:], `'''`) {
			p.fail(at, "a key cannot be a multi-line string")
		}
		return keyPart{p.literalString(), at}
	case isBare(c):
		for p.i < len(p.s) && isBare(p.s[p.i]) {
			p.i++
		}
		return keyPart{p.s[at:p.i], at}
	}
	p.fail(at, "expected a key, found "+p.found())
	return keyPart{}
}

// kind is how a table came to be, which decides what may still add to it.
type kind uint8

const (
	implicitTable kind = iota // made as the parent of a header's table; a header may still define it
	headerTable               // defined by a [header], an [[header]] element, or the root
	dottedTable               // made by dotted keys; headers may add sub-tables, not define it
	tableArray                // an array of tables, made by [[header]]
	inlineTable               // an inline table being read
)

// node is a table (or an array of tables) with what is needed to check
// later additions to it. m is the decoded table itself; kids holds the
// tables and arrays of tables under it. A key in m but not in kids holds
// a value: a scalar, a static array or an inline table, all closed.
type node struct {
	kind kind
	m    map[string]any
	kids map[string]*node
	last *node // the current element of a tableArray
}

func (t *node) add(name string, k kind) *node {
	n := &node{kind: k, m: map[string]any{}}
	if t.kids == nil {
		t.kids = map[string]*node{}
	}
	t.kids[name] = n
	t.m[name] = n.m
	return n
}

// closed fails for a key that holds a value where a table is needed.
func (p *parser) closed(v any, ks []keyPart, n int) {
	name := keyName(ks, n)
	switch v.(type) {
	case map[string]any:
		p.fail(ks[n-1].at, "cannot add to "+name+": an inline table is complete as written")
	case []any:
		p.fail(ks[n-1].at, "cannot add to "+name+": it is a static array, not an array of tables")
	}
	p.fail(ks[n-1].at, "key "+name+" already has a value that is not a table")
}

// header reads a [table] or [[array of tables]] line and returns the
// table that the following key/value pairs go into.
func (p *parser) header() *node {
	p.i++
	array := p.peek() == '['
	if array {
		p.i++
	}
	ks := p.key()
	if p.peek() != ']' {
		p.fail(p.i, "expected ] after a table name, found "+p.found())
	}
	p.i++
	if array {
		if p.peek() != ']' {
			p.fail(p.i, "expected ]] after an array of tables name, found "+p.found())
		}
		p.i++
	}

	t := p.root
	for n, k := range ks[:len(ks)-1] {
		if c, ok := t.kids[k.name]; ok {
			if c.kind == tableArray {
				c = c.last
			}
			t = c
			continue
		}
		if v, ok := t.m[k.name]; ok {
			p.closed(v, ks, n+1)
		}
		t = t.add(k.name, implicitTable)
	}

	k := ks[len(ks)-1]
	name := keyName(ks, len(ks))
	if c, ok := t.kids[k.name]; ok {
		switch {
		case array && c.kind == tableArray:
			e := &node{kind: headerTable, m: map[string]any{}}
			t.m[k.name] = append(t.m[k.name].([]any), e.m)
			c.last = e
			return e
		case array:
			p.fail(k.at, "cannot define "+name+" as an array of tables: it is already a table")
		case c.kind == implicitTable:
			c.kind = headerTable
			return c
		case c.kind == headerTable:
			p.fail(k.at, "table "+name+" is defined twice")
		case c.kind == dottedTable:
			p.fail(k.at, "table "+name+" is already defined by dotted keys")
		default:
			p.fail(k.at, "cannot define "+name+" as a table: it is already an array of tables")
		}
	}
	if v, ok := t.m[k.name]; ok {
		if _, static := v.([]any); static && array {
			p.fail(k.at, "cannot append to "+name+": it is a static array, not an array of tables")
		}
		if _, inline := v.(map[string]any); inline {
			p.fail(k.at, "table "+name+" is already defined as an inline table")
		}
		p.fail(k.at, "key "+name+" already has a value")
	}
	if array {
		a := &node{kind: tableArray}
		if t.kids == nil {
			t.kids = map[string]*node{}
		}
		t.kids[k.name] = a
		a.last = &node{kind: headerTable, m: map[string]any{}}
		t.m[k.name] = []any{a.last.m}
		return a.last
	}
	return t.add(k.name, headerTable)
}

// keyValue reads key = value into table t; depth is how deeply t is
// nested in arrays and inline tables.
func (p *parser) keyValue(t *node, depth int) {
	ks := p.key()
	if p.peek() != '=' {
		p.fail(p.i, "expected = after a key, found "+p.found())
	}
	p.i++
	p.ws()
	for n, k := range ks[:len(ks)-1] {
		if c, ok := t.kids[k.name]; ok {
			if c.kind != dottedTable {
				what := "table " + keyName(ks, n+1) + " is defined by a header"
				if c.kind == tableArray {
					what = keyName(ks, n+1) + " is an array of tables"
				}
				p.fail(k.at, "cannot add to "+keyName(ks, n+1)+" with dotted keys: "+what)
			}
			t = c
			continue
		}
		if v, ok := t.m[k.name]; ok {
			p.closed(v, ks, n+1)
		}
		t = t.add(k.name, dottedTable)
	}
	k := ks[len(ks)-1]
	if _, ok := t.m[k.name]; ok {
		p.fail(k.at, "key "+keyName(ks, len(ks))+" is defined twice")
	}
	t.m[k.name] = p.value(depth)
}

// value reads a value of any type.
func (p *parser) value(depth int) any {
	switch c := p.peek(); c {
	case '"':
		if strings.HasPrefix(p.s[p.i:], `"""`) {
			return p.multiBasicString()
		}
		return p.basicString()
	case '\'':
		if strings.HasPrefix(p.s[p.i:], `'''`) {
			return p.multiLiteralString()
		}
		return p.literalString()
	case '[':
		return p.array(depth + 1)
	case '{':
		return p.inline(depth + 1)
	case 't':
		if strings.HasPrefix(p.s[p.i:], "true") {
			p.i += 4
			return true
		}
	case 'f':
		if strings.HasPrefix(p.s[p.i:], "false") {
			p.i += 5
			return false
		}
	case 'i', 'n', '+', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return p.numberOrDate()
	}
	p.fail(p.i, "expected a value, found "+p.found())
	return nil
}

func (p *parser) array(depth int) []any {
	if depth > MaxDepth {
		p.fail(p.i, "arrays and inline tables nest more than "+strconv.Itoa(MaxDepth)+" deep")
	}
	p.i++
	out := []any{}
	for {
		p.blank()
		if p.peek() == ']' {
			p.i++
			return out
		}
		out = append(out, p.value(depth))
		p.blank()
		switch p.peek() {
		case ',':
			p.i++
		case ']':
			p.i++
			return out
		default:
			p.fail(p.i, "expected , or ] in an array, found "+p.found())
		}
	}
}

func (p *parser) inline(depth int) map[string]any {
	if depth > MaxDepth {
		p.fail(p.i, "arrays and inline tables nest more than "+strconv.Itoa(MaxDepth)+" deep")
	}
	p.i++
	t := &node{kind: inlineTable, m: map[string]any{}}
	for {
		// Between pairs, as between an array's elements, line endings and
		// comments may stand, and a comma may follow the last pair. A pair
		// itself stays on one line: keyValue skips only spaces and tabs.
		p.blank()
		if p.peek() == '}' {
			p.i++
			return t.m
		}
		p.keyValue(t, depth)
		p.blank()
		switch p.peek() {
		case '}':
			p.i++
			return t.m
		case ',':
			p.i++
		default:
			p.fail(p.i, "expected , or } in an inline table, found "+p.found())
		}
	}
}

// ---- strings ----

// basicString reads "...".
func (p *parser) basicString() string {
	p.i++
	var b strings.Builder
	from := p.i
	for {
		if p.eof() {
			p.fail(p.i, "unterminated string")
		}
		switch c := p.s[p.i]; {
		case c == '"':
			b.WriteString(p.s[from:p.i])
			p.i++
			return b.String()
		case c == '\\':
			b.WriteString(p.s[from:p.i])
			p.escape(&b)
			from = p.i
		default:
			p.stringByte(c, false)
		}
	}
}

// stringByte steps over a byte of a string that is not a quote or an
// escape: line endings belong only in a multi-line string, and control
// characters in none.
func (p *parser) stringByte(c byte, multiLine bool) {
	switch {
	case c == '\n' && multiLine:
		p.i++
	case c == '\r' && multiLine:
		if !strings.HasPrefix(p.s[p.i:], "\r\n") {
			p.fail(p.i, "carriage return not followed by a line feed")
		}
		p.i += 2
	case c == '\n' || c == '\r':
		p.fail(p.i, "line ending in a single-line string")
	case isControl(c):
		p.fail(p.i, "control character "+strconv.QuoteRune(rune(c))+" in a string")
	default:
		p.i++
	}
}

// multiBasicString reads """...""".
func (p *parser) multiBasicString() string {
	p.i += 3
	p.newline() // a line ending right after the quotes is not part of the string
	var b strings.Builder
	from := p.i
	for {
		if p.eof() {
			p.fail(p.i, "unterminated multi-line string")
		}
		switch c := p.s[p.i]; {
		case c == '"':
			if n := p.quotes('"'); n >= 3 {
				b.WriteString(p.s[from : p.i-3])
				return b.String()
			}
		case c == '\\':
			b.WriteString(p.s[from:p.i])
			if p.lineEndingBackslash() {
				from = p.i
				continue
			}
			p.escape(&b)
			from = p.i
		default:
			p.stringByte(c, true)
		}
	}
}

// quotes consumes a run of quote characters inside a multi-line string
// and returns how many close it: the last three of a run of three to five
// end the string, the ones before them belong to it.
func (p *parser) quotes(q byte) int {
	start := p.i
	for p.i < len(p.s) && p.s[p.i] == q {
		p.i++
	}
	n := p.i - start
	if n > 5 {
		p.fail(start+5, "too many quotes at the end of a multi-line string")
	}
	return n
}

// lineEndingBackslash consumes a backslash that ends a line, with all the
// whitespace and line endings after it.
func (p *parser) lineEndingBackslash() bool {
	j := p.i + 1
	for j < len(p.s) && (p.s[j] == ' ' || p.s[j] == '\t') {
		j++
	}
	if !strings.HasPrefix(p.s[j:], "\n") && !strings.HasPrefix(p.s[j:], "\r\n") {
		return false
	}
	p.i = j
	for {
		p.ws()
		if !p.newline() {
			return true
		}
	}
}

// escape reads one escape sequence.
func (p *parser) escape(b *strings.Builder) {
	at := p.i
	p.i++
	if p.eof() {
		p.fail(at, "unterminated string")
	}
	c := p.s[p.i]
	p.i++
	switch c {
	case 'b':
		b.WriteByte('\b')
	case 't':
		b.WriteByte('\t')
	case 'n':
		b.WriteByte('\n')
	case 'f':
		b.WriteByte('\f')
	case 'r':
		b.WriteByte('\r')
	case '"':
		b.WriteByte('"')
	case '\\':
		b.WriteByte('\\')
	case 'u', 'U':
		n := 4
		if c == 'U' {
			n = 8
		}
		if len(p.s)-p.i < n {
			p.fail(at, "invalid unicode escape")
		}
		v, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
		if err != nil || strings.ContainsAny(p.s[p.i:p.i+n], "+-_") {
			p.fail(at, "invalid unicode escape")
		}
		r := rune(v)
		if v > utf8.MaxRune || r >= 0xD800 && r <= 0xDFFF {
			p.fail(at, "unicode escape "+p.s[at:p.i+n]+" is not a unicode scalar value")
		}
		p.i += n
		b.WriteRune(r)
	case 'e':
		b.WriteByte(0x1b)
	case 'x':
		// \xHH is the code point U+00HH, written as UTF-8 like any other.
		if len(p.s)-p.i < 2 {
			p.fail(at, "invalid \\x escape: expected two hexadecimal digits")
		}
		v, err := strconv.ParseUint(p.s[p.i:p.i+2], 16, 8)
		if err != nil || strings.ContainsAny(p.s[p.i:p.i+2], "+-_") {
			p.fail(at, "invalid \\x escape: expected two hexadecimal digits")
		}
		p.i += 2
		b.WriteRune(rune(v))
	case ' ', '\t':
		p.fail(at, "invalid escape: a backslash followed by whitespace must end a line of a multi-line string")
	case '\n', '\r':
		p.fail(at, "invalid escape: only a multi-line string may have a backslash at the end of a line")
	default:
		r, _ := utf8.DecodeRuneInString(p.s[p.i-1:])
		if !strconv.IsPrint(r) {
			p.fail(at, "invalid escape: a backslash followed by "+strconv.QuoteRune(r))
		}
		p.fail(at, "invalid escape \\"+string(r))
	}
}

// literalString reads '...'.
func (p *parser) literalString() string {
	p.i++
	from := p.i
	for {
		if p.eof() {
			p.fail(p.i, "unterminated string")
		}
		switch c := p.s[p.i]; {
		case c == '\'':
			p.i++
			return p.s[from : p.i-1]
		default:
			p.stringByte(c, false)
		}
	}
}

// multiLiteralString reads a multi-line literal string.
func (p *parser) multiLiteralString() string {
	p.i += 3
	p.newline()
	from := p.i
	for {
		if p.eof() {
			p.fail(p.i, "unterminated multi-line string")
		}
		switch c := p.s[p.i]; {
		case c == '\'':
			if n := p.quotes('\''); n >= 3 {
				return p.s[from : p.i-3]
			}
		default:
			p.stringByte(c, true)
		}
	}
}

// ---- numbers ----

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// digitsAt reports whether s[i:i+n] are n decimal digits.
func digitsAt(s string, i, n int) bool {
	if i+n > len(s) {
		return false
	}
	for _, c := range []byte(s[i : i+n]) {
		if !isDigit(c) {
			return false
		}
	}
	return true
}

func (p *parser) numberOrDate() any {
	s, i := p.s, p.i
	if digitsAt(s, i, 2) && i+2 < len(s) && s[i+2] == ':' {
		return p.localTime()
	}
	if digitsAt(s, i, 4) && i+4 < len(s) && s[i+4] == '-' {
		return p.date()
	}
	j := i
	for j < len(s) && (isBare(s[j]) || s[j] == '+' || s[j] == '.') {
		j++
	}
	v := p.number(s[i:j], i)
	p.i = j
	return v
}

// digitRun reads digits of a base, with single underscores between them,
// from the start of s (at offset at in the document). It returns the
// digits without underscores and how many bytes it read.
func (p *parser) digitRun(s string, at, base int) (string, int) {
	n := 0
	var b []byte
	for n < len(s) {
		c := s[n]
		if c == '_' {
			if n == 0 || s[n-1] == '_' {
				p.fail(at+n, "an underscore must be between two digits")
			}
			n++
			continue
		}
		if !isBaseDigit(c, base) {
			break
		}
		b = append(b, c)
		n++
	}
	if n > 0 && s[n-1] == '_' {
		p.fail(at+n-1, "an underscore must be between two digits")
	}
	return string(b), n
}

func isBaseDigit(c byte, base int) bool {
	switch base {
	case 2:
		return c == '0' || c == '1'
	case 8:
		return c >= '0' && c <= '7'
	case 16:
		return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
	}
	return isDigit(c)
}

// number decodes an integer or float token that starts at offset at.
func (p *parser) number(tok string, at int) any {
	body, sign := tok, ""
	if body != "" && (body[0] == '+' || body[0] == '-') {
		sign, body = body[:1], body[1:]
	}
	switch body {
	case "inf":
		if sign == "-" {
			return math.Inf(-1)
		}
		return math.Inf(1)
	case "nan":
		return math.NaN()
	}
	if len(body) >= 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'o' || body[1] == 'b') {
		if sign != "" {
			p.fail(at, "a hexadecimal, octal or binary integer cannot have a sign")
		}
		base := 16
		switch body[1] {
		case 'o':
			base = 8
		case 'b':
			base = 2
		}
		digits, n := p.digitRun(body[2:], at+2, base)
		if digits == "" {
			p.fail(at+2, "expected a digit after "+body[:2])
		}
		if 2+n < len(body) {
			p.fail(at+2+n, "invalid character "+strconv.QuoteRune(rune(body[2+n]))+" in a number")
		}
		v, err := strconv.ParseInt(digits, base, 64)
		if err != nil {
			p.fail(at, "integer out of range")
		}
		return v
	}

	off := at + len(sign)
	whole, n := p.digitRun(body, off, 10)
	if whole == "" {
		if len(tok) > 40 {
			tok = tok[:40] + "..."
		}
		p.fail(at, "invalid value "+strconv.Quote(tok))
	}
	if len(whole) > 1 && whole[0] == '0' {
		p.fail(off, "a number cannot have leading zeros")
	}
	clean := sign + whole
	float := false
	if n < len(body) && body[n] == '.' {
		frac, m := p.digitRun(body[n+1:], off+n+1, 10)
		if frac == "" {
			p.fail(off+n+1, "expected a digit after the decimal point")
		}
		clean += "." + frac
		n += 1 + m
		float = true
	}
	if n < len(body) && (body[n] == 'e' || body[n] == 'E') {
		clean += "e"
		n++
		if n < len(body) && (body[n] == '+' || body[n] == '-') {
			clean += body[n : n+1]
			n++
		}
		exp, m := p.digitRun(body[n:], off+n, 10)
		if exp == "" {
			p.fail(off+n, "expected a digit in the exponent")
		}
		clean += exp
		n += m
		float = true
	}
	if n < len(body) {
		p.fail(off+n, "invalid character "+strconv.QuoteRune(rune(body[n]))+" in a number")
	}
	if !float {
		v, err := strconv.ParseInt(clean, 10, 64)
		if err != nil {
			p.fail(at, "integer out of range")
		}
		return v
	}
	v, err := strconv.ParseFloat(clean, 64)
	if err != nil {
		p.fail(at, "float out of range")
	}
	return v
}
