// Package once makes the handlers run once for a tool call that reaches
// hookshim several times.
//
// The same tool call can reach hookshim twice: Cursor runs its own
// hooks.json and the .claude/settings.json hooks it imports, and fires both
// preToolUse and beforeShellExecution for one shell command; Copilot and
// VS Code read Claude's file too; a user may install at user and project
// scope. The first call to claim a key runs the handlers and publishes
// what they answered; a duplicate waits for that and encodes the same
// answers for its own native event. The state is a few small files in a
// per-user runtime directory, swept after a minute.
package once

import (
	"encoding/hex"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/hookshim/hookshim/internal/digest"
	"github.com/tidwall/gjson"
)

// Windows: how long a claim stands; a call arriving later runs on its own.
// Duplicates are fired together, well inside them. A call identified only
// by its payload gets the short window, so that the same command run twice
// on purpose is not mistaken for one call.
const (
	Window       = 10 * time.Second
	DigestWindow = 3 * time.Second
)

// sweepAge is when leftover files are removed.
const sweepAge = time.Minute

// Dir is the per-user directory for claims.
func Dir(getenv func(string) string) string {
	if d := getenv("XDG_RUNTIME_DIR"); d != "" {
		return filepath.Join(d, "hookshim", "once")
	}
	return filepath.Join(os.TempDir(), "hookshim-"+strconv.Itoa(os.Getuid()), "once")
}

// Key identifies one tool call.
func Key(parts ...string) string {
	h := digest.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// Claim is a held or lost claim.
type Claim struct {
	dir, key string
	Won      bool
}

// Take tries to claim key for window. When the claim is lost, Wait returns
// the winner's answer.
func Take(dir, key string, window time.Duration) (*Claim, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	c := &Claim{dir: dir, key: key}
	lock := filepath.Join(dir, key+".lock")
	for attempt := 0; attempt < 2; attempt++ {
		f, err := os.OpenFile(lock, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			f.Close()
			c.Won = true
			if rand.IntN(16) == 0 {
				// Leftovers are small and few: sweeping now and then is enough.
				sweep(dir)
			}
			return c, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		st, err := os.Stat(lock)
		if err == nil && time.Since(st.ModTime()) > window {
			// A stale claim from an earlier call with the same key.
			os.Remove(lock)
			os.Remove(filepath.Join(dir, key+".answer"))
			continue
		}
		return c, nil
	}
	return c, nil
}

// Publish stores what the winner's handlers answered, as canonical JSON.
func (c *Claim) Publish(results []byte) error {
	tmp, err := os.CreateTemp(c.dir, ".answer-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(results); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	tmp.Close()
	return os.Rename(tmp.Name(), filepath.Join(c.dir, c.key+".answer"))
}

// Wait polls for the winner's results until the deadline.
func (c *Claim) Wait(deadline time.Time) ([]byte, bool) {
	path := filepath.Join(c.dir, c.key+".answer")
	for {
		if b, err := os.ReadFile(path); err == nil && gjson.ValidBytes(b) {
			return b, true
		}
		if time.Now().After(deadline) {
			return nil, false
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func sweep(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > sweepAge {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
