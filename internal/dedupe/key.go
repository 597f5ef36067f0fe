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
// A call is known by everything it is about — the canonical event and the
// native one, the session, the folders it runs in, the model, the tool
// with its whole input (in one spelling, whatever its key order), its
// output or error, the prompt and every other field — and, where the tool
// gives one, by its tool call id. Without a call id the whole payload, in
// one spelling, is part of the key too: two calls that differ in anything
// the tool sent (a force push run in another folder, on another branch)
// are never answered by each other's run, whatever hookshim reads of them.
// A call id does not replace the rest: a tool that reuses an id for
// another input gets two keys. A tool that fires two native events for one
// action (SplitEvents: Cursor's preToolUse and beforeShellExecution) is
// known by all that both events carry: every canonical field, but not the
// native event's name or the payload's shape.
//
// The policy is part of the key: another set of matched handlers, a config
// edited since, a handler script edited since or a config allowed again is
// another call, so a duplicate is never answered by a policy the user has
// just changed.
//
// The work is linear in the size of the event and the configs.
func Key(c Call) (string, time.Duration) {
	k := keyHash{h: sha256.New()}
	ev := c.Event
	k.str(c.Provider)
	k.str(string(ev.Name))
	if !c.SplitEvents {
		// A tool that splits one action into two native events sends
		// both for the same call (SplitEvents).
		k.str(ev.Native)
	}
	k.str(ev.SessionID)
	k.str(ev.Cwd)
	k.str(ev.ProjectDir)
	k.str(ev.TranscriptPath)
	k.str(ev.Model)
	window := DigestWindow
	byID := false
	if t := ev.Tool; t != nil {
		k.flag(true)
		k.str(t.Name)
		k.str(t.Native)
		k.flag(t.MCP != nil)
		if t.MCP != nil {
			k.str(t.MCP.Server)
			k.str(t.MCP.Tool)
		}
		k.str(t.Command)
		k.str(t.FilePath)
		writeCanonical(k.h, t.Input)
		writeCanonical(k.h, t.Output)
		writeCanonical(k.h, t.Error)
		byID = t.CallID != "" && !c.SplitEvents
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
	k.count(len(ev.Fields))
	for _, f := range ev.Fields {
		k.str(f.Key)
		writeCanonical(k.h, f.Value)
	}
	whole := !byID && !c.SplitEvents
	k.flag(whole)
	if whole {
		// Nothing but the payload says which call this is: all of it,
		// also what hookshim does not read. (The two payloads of a split
		// action differ in shape; what both carry is read above.)
		writeCanonical(k.h, ev.Raw)
	}

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
