package dedupe

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"slices"

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
			s := unquote(b[i:end])
			i = end
			if f := c.top(); f != nil && f.object && !f.keyed {
				f.key, f.keyed = s, true
				f.h.Reset()
				continue
			}
			c.scalar('s', s)
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

// unquote is a JSON string's value. Strings without escapes, the common
// case, are their bytes as sent.
func unquote(q []byte) []byte {
	s := q[1 : len(q)-1]
	if bytes.IndexByte(s, '\\') < 0 {
		return s
	}
	return []byte(gjson.ParseBytes(q).Str)
}

func delimiter(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\n', '\r', ':':
		return true
	}
	return false
}
