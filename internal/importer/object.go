package importer

import (
	"strings"

	"github.com/hookshim/hookshim/internal/install"
)

// object writes a JSON object with its keys in the order given: an entry
// reads as people write one (event, matcher, handler), which a map would
// not keep.
type object struct {
	b strings.Builder
	n int
}

// raw adds key with v, already JSON.
func (o *object) raw(key, v string) {
	if o.n > 0 {
		o.b.WriteString(", ")
	}
	o.n++
	o.b.WriteString(quote(key))
	o.b.WriteString(": ")
	o.b.WriteString(v)
}

// str adds key with the string v.
func (o *object) str(key, v string) { o.raw(key, quote(v)) }

func (o *object) String() string { return "{" + o.b.String() + "}" }

// quote writes s as a JSON string the way install writes one into a
// tool's config: <, > and & (common in commands) left as they are.
func quote(s string) string { return install.QuoteJSON(s) }
