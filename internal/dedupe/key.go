package dedupe

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"io"
	"os"
	"time"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/event"
)

// Windows: how long a claim stands; a call arriving later runs on its own.
// Duplicates are fired together, well inside them. A call identified only
// by its payload gets the short window, so that the same command run twice
// on purpose is not mistaken for one call.
const (
	Window       = 10 * time.Second
	DigestWindow = 3 * time.Second
)

// Call is one tool call as dedupe sees it: what the call is about, and the
// policy in force that answers it.
type Call struct {
	Provider string       // the tool's id
	Event    *event.Event // the canonical event
	// SplitEvents: the tool fires two events for one call, each with its
	// own call id (Cursor), so the id does not name the call.
	SplitEvents bool

	Hooks   []*config.Hook // the handlers that matched, in their order
	Configs []*config.File // the configs in force: their content, as read for this call
	// Files whose change is a change of policy: the handlers' programs
	// and scripts, the trust records that allowed the configs. Each is
	// known by its size, modification time and mode (a stat, not a read).
	Files []string
}

// Key identifies a call, and says for how long a claim on it stands.
//
// A call is known by what it is about — the canonical event, the session,
// the tool and its input (in one spelling, whatever its key order), the
// prompt — and by its tool call id where the tool gives one. The policy is
// part of the key: another set of matched handlers, a config edited since,
// a handler script edited since or a config allowed again is another call,
// so a duplicate is never answered by a policy the user has just changed.
//
// The work is linear in the size of the event and the configs.
func Key(c Call) (string, time.Duration) {
	k := keyHash{h: sha256.New()}
	ev := c.Event
	k.str(c.Provider)
	k.str(string(ev.Name))
	k.str(ev.SessionID)
	window := DigestWindow
	if t := ev.Tool; t != nil {
		k.flag(true)
		k.str(t.Name)
		k.str(t.Command)
		k.str(t.FilePath)
		writeCanonical(k.h, t.Input)
		byID := t.CallID != "" && !c.SplitEvents
		k.flag(byID)
		if byID {
			k.str(t.CallID)
			window = Window
		}
	} else {
		k.flag(false)
	}
	k.flag(ev.Prompt != nil)
	if ev.Prompt != nil {
		k.str(*ev.Prompt)
	}
	if ev.Tool == nil && ev.Prompt == nil {
		// Nothing but the payload says which call this is.
		k.bytes(ev.Raw)
	}
	for _, f := range ev.Fields {
		if f.Key == "turn_id" {
			k.flag(true)
			k.bytes(f.Value)
		}
	}
	k.flag(false)

	k.count(len(c.Hooks))
	for _, h := range c.Hooks {
		k.str(h.Pos)
		k.str(h.Command)
	}
	k.count(len(c.Configs))
	for _, f := range c.Configs {
		k.str(f.Path)
		k.bytes(f.Content)
	}
	k.count(len(c.Files))
	for _, p := range c.Files {
		k.str(p)
		var n [21]byte // absent: all zero
		if st, err := os.Stat(p); err == nil {
			n[0] = 1
			binary.LittleEndian.PutUint64(n[1:9], uint64(st.Size()))
			binary.LittleEndian.PutUint64(n[9:17], uint64(st.ModTime().UnixNano()))
			// chmod +x changes the mode, not the time.
			binary.LittleEndian.PutUint32(n[17:], uint32(st.Mode()))
		}
		k.h.Write(n[:])
	}
	var sum [sha256.Size]byte
	return hex.EncodeToString(k.h.Sum(sum[:0])[:16]), window
}

// keyHash writes the key's parts so that no two calls write the same
// bytes: strings with their length, optional parts behind a flag, lists
// behind their count.
type keyHash struct {
	h   hash.Hash
	buf [binary.MaxVarintLen64]byte
}

func (k *keyHash) str(s string) {
	k.count(len(s))
	io.WriteString(k.h, s)
}

func (k *keyHash) bytes(b []byte) {
	k.count(len(b))
	k.h.Write(b)
}

func (k *keyHash) count(n int) {
	k.h.Write(binary.AppendUvarint(k.buf[:0], uint64(n)))
}

func (k *keyHash) flag(on bool) {
	k.buf[0] = 0
	if on {
		k.buf[0] = 1
	}
	k.h.Write(k.buf[:1])
}
