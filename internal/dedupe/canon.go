package dedupe

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash"
)

// writeCanonical writes a JSON value to h in one spelling, whatever its
// key order, whitespace and string escapes, so that the same tool input
// sent by two registrations hashes alike: decoded and encoded again by
// encoding/json, which sorts object keys. Numbers count as sent
// (json.Number); of a repeated key the last one counts, as when the input
// is decoded. What is not JSON, or nests deeper than encoding/json reads
// (10,000 levels), is written as it is: linear in its size either way.
func writeCanonical(h hash.Hash, b []byte) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err == nil && !dec.More() {
		enc := json.NewEncoder(h)
		enc.SetEscapeHTML(false)
		h.Write([]byte{'j'})
		if enc.Encode(v) == nil {
			return
		}
	}
	h.Write([]byte{'r'})
	h.Write(binary.AppendUvarint(nil, uint64(len(b))))
	h.Write(b)
}
