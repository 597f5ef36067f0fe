package importer

import "github.com/hookshim/hookshim/internal/wire"

// object writes a JSON object with its keys in the order given: an entry
// reads as people write one (event, matcher, handler), which a map would
// not keep. It is wire.Object, with the strings translate builds with;
// install's editor lays it out in the file's own style when it adds it.
type object struct{ o wire.Object }

// raw adds key with v, already JSON.
func (o *object) raw(key, v string) { o.o.Raw(key, []byte(v)) }

// str adds key with the string v.
func (o *object) str(key, v string) { o.o.Str(key, v) }

func (o *object) String() string { return string(o.o.Bytes()) }

// quote writes s as a JSON string as every JSON hookshim writes one: <, >
// and & (common in commands) left as they are.
func quote(s string) string { return string(wire.Quote(s)) }
