package dedupe

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"slices"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
)

// writeCanonical writes a JSON value to h in one spelling, whatever its
// key order, whitespace and string escapes, so that the same tool input
// sent by two registrations hashes alike. Numbers count as sent; of a
// repeated key the last one counts, as when the input is decoded. What is
// not JSON is written as it is.
//
// One pass over the bytes, with a stack instead of recursion: the work is
// linear in the input's size at any nesting depth (walking nested values
// with gjson rescans each value once per level above it, which took minutes
// for 200 KB nested 100,000 deep). An object's members cannot be written in
// order as they are read, so each member is hashed on its own and the
// object is written as its members' keys and sums, sorted by key: a member
// is never copied or read again.
func writeCanonical(h hash.Hash, b []byte) {
	if !gjson.ValidBytes(b) {
		h.Write([]byte{'r'})
		h.Write(binary.AppendUvarint(nil, uint64(len(b))))
		h.Write(b)
		return
	}
	c := canon{out: h}
	c.value(b)
}

type canon struct {
	out    hash.Hash
	frames []frame // the open containers, innermost last
	buf    [1 + binary.MaxVarintLen64]byte
}

// frame is an open array or object.
type frame struct {
	object bool
	w      hash.Hash // where the values inside are written: the member's hash for an object, the enclosing writer for an array
	h      hash.Hash // object: its current member's hash (kept for reuse at this depth)
	key    []byte    // object: the current member's key, once read
	keyed  bool      // object: the current member's key has been read
	ms     []member  // object: the members so far
}

type member struct {
	key []byte
	sum [sha256.Size]byte
}

// writer is where the next value goes.
func (c *canon) writer() hash.Hash {
	if n := len(c.frames); n > 0 {
		return c.frames[n-1].w
	}
	return c.out
}

func (c *canon) value(b []byte) {
	for i := 0; i < len(b); {
		switch b[i] {
		case ' ', '\t', '\n', '\r', ',', ':':
			// Separators carry nothing once the structure is known.
			i++
		case '{':
			c.push(true)
			i++
		case '[':
			c.writer().Write([]byte{'['})
			c.push(false)
			i++
		case '}':
			c.closeObject()
			i++
		case ']':
			c.frames = c.frames[:len(c.frames)-1]
			c.writer().Write([]byte{']'})
			c.done()
			i++
		case '"':
			end := wire.StringEnd(b, i)
			if end < 0 {
				end = len(b) // valid JSON closes it
			}
			q := b[i+1 : end-1]
			i = end
			if f := c.top(); f != nil && f.object && !f.keyed {
				f.key, f.keyed = unquote(q), true
				f.h.Reset()
				continue
			}
			c.str(q)
		default: // a number, true, false or null
			j := i
			for j < len(b) && !delimiter(b[j]) {
				j++
			}
			c.scalar('n', b[i:j])
			i = j
		}
	}
}

func (c *canon) top() *frame {
	if n := len(c.frames); n > 0 {
		return &c.frames[n-1]
	}
	return nil
}

// push opens a container. Frames are reused by depth, with their hash and
// member list.
func (c *canon) push(object bool) {
	w := c.writer()
	if len(c.frames) < cap(c.frames) {
		c.frames = c.frames[:len(c.frames)+1]
	} else {
		c.frames = append(c.frames, frame{})
	}
	f := &c.frames[len(c.frames)-1]
	f.object, f.keyed, f.key, f.ms = object, false, nil, f.ms[:0]
	f.w = w
	if object {
		if f.h == nil {
			f.h = sha256.New()
		}
		f.w = f.h
	}
}

// done ends a value: in an object, the member it was the value of.
func (c *canon) done() {
	f := c.top()
	if f == nil || !f.object {
		return
	}
	m := member{key: f.key}
	f.h.Sum(m.sum[:0])
	f.ms = append(f.ms, m)
	f.keyed = false
}

func (c *canon) scalar(kind byte, s []byte) {
	w := c.writer()
	c.buf[0] = kind
	w.Write(binary.AppendUvarint(c.buf[:1], uint64(len(s))))
	w.Write(s)
	c.done()
}

// str writes a string's value: its length, then its bytes, decoded from
// the quoted text q in pieces as they are written. A tool's output can
// be a 10 MiB string full of escapes; decoded into a buffer of its own,
// each copy was 10 MiB of memory never touched before, a page fault per
// 4 KiB, for every string and every copy.
func (c *canon) str(q []byte) {
	if bytes.IndexByte(q, '\\') < 0 {
		c.scalar('s', q)
		return
	}
	n := 0
	decode(q, func(p []byte) { n += len(p) })
	w := c.writer()
	c.buf[0] = 's'
	w.Write(binary.AppendUvarint(c.buf[:1], uint64(n)))
	decode(q, func(p []byte) { w.Write(p) })
	c.done()
}

// closeObject writes the object to its enclosing writer: '{', the count of
// its members, then each member's key and sum in key order.
func (c *canon) closeObject() {
	f := c.top()
	ms := f.ms
	if !slices.IsSortedFunc(ms, compareKeys) {
		slices.SortStableFunc(ms, compareKeys)
	}
	// Of a repeated key the last one counts (the sort is stable).
	kept := ms[:0]
	for i, m := range ms {
		if i+1 < len(ms) && bytes.Equal(ms[i+1].key, m.key) {
			continue
		}
		kept = append(kept, m)
	}
	f.ms = kept
	c.frames = c.frames[:len(c.frames)-1]
	w := c.writer()
	c.buf[0] = '{'
	w.Write(binary.AppendUvarint(c.buf[:1], uint64(len(kept))))
	for i := range kept {
		w.Write(binary.AppendUvarint(c.buf[:0], uint64(len(kept[i].key))))
		w.Write(kept[i].key)
		w.Write(kept[i].sum[:])
	}
	c.done()
}

func compareKeys(a, b member) int { return bytes.Compare(a.key, b.key) }

// unquote is the value of a string's quoted text q (an object's key).
// Strings without escapes, the common case, are their bytes as sent.
func unquote(q []byte) []byte {
	if bytes.IndexByte(q, '\\') < 0 {
		return q
	}
	var v []byte
	decode(q, func(p []byte) { v = append(v, p...) })
	return v
}

// decode hands f the value of a valid JSON string's quoted text q, in
// pieces: each run without escapes as it is in q, each escape decoded
// (RFC 8259, section 7). A \u escape of half a UTF-16 surrogate pair
// that has no other half is U+FFFD, as encoding/json decodes it (gjson
// also drops the escape after it); what matters here is only that one
// value has one spelling.
func decode(q []byte, f func([]byte)) {
	var r [utf8.UTFMax]byte
	for len(q) > 0 {
		k := bytes.IndexByte(q, '\\')
		if k < 0 {
			f(q)
			return
		}
		if k > 0 {
			f(q[:k])
		}
		if k+1 >= len(q) {
			return // not valid JSON; the caller checked
		}
		c, n := q[k+1], 2
		switch c {
		case 'b':
			c = '\b'
		case 'f':
			c = '\f'
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 't':
			c = '\t'
		case 'u':
			ch, used := decodeU(q[k:])
			f(utf8.AppendRune(r[:0], ch))
			q = q[k+used:]
			continue
		}
		// '"', '\\', '/' stand for themselves.
		r[0] = c
		f(r[:1])
		q = q[k+n:]
	}
}

// decodeU decodes the \uXXXX escape at the start of q, with the second
// half of a surrogate pair when one follows, and says how many bytes it
// used.
func decodeU(q []byte) (rune, int) {
	hi, ok := hex4(q)
	if !ok {
		return utf8.RuneError, min(len(q), 6)
	}
	if !utf16.IsSurrogate(hi) {
		return hi, 6
	}
	if lo, ok := hex4(q[6:]); ok {
		if r := utf16.DecodeRune(hi, lo); r != utf8.RuneError {
			return r, 12
		}
	}
	return utf8.RuneError, 6
}

// hex4 reads the four hex digits of a \uXXXX escape at the start of q.
func hex4(q []byte) (rune, bool) {
	if len(q) < 6 || q[0] != '\\' || q[1] != 'u' {
		return 0, false
	}
	var v [2]byte
	if _, err := hex.Decode(v[:], q[2:6]); err != nil {
		return 0, false
	}
	return rune(v[0])<<8 | rune(v[1]), true
}

func delimiter(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\n', '\r', ':':
		return true
	}
	return false
}
