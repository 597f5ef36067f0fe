// Package dedupe makes the handlers run once for one tool call that reaches
// hookshim several times, across processes.
//
// The same tool call can reach hookshim twice: Cursor runs its own
// hooks.json and the .claude/settings.json hooks it imports, and fires both
// preToolUse and beforeShellExecution for one shell command; Copilot and
// VS Code read Claude's file too; a user may install at user and project
// scope. A call is known by its Key: what it is about (the canonical event)
// and the policy that answers it (the matched handlers, the configs' content,
// the handlers' files and trust records), so that a change the user just
// made is never answered from before it. The first call to claim a key runs
// the handlers and publishes what they answered, with its call id; a
// duplicate waits for that and encodes the same answers for its own native
// event. The state is one small file per call in a per-user runtime
// directory, swept after a minute. The package may import the standard
// library, gjson, and the config and event packages; nothing that runs or
// answers a call.
package dedupe

import (
	"bytes"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/private"
	"github.com/tidwall/gjson"
)

// sweepAge is when leftover files are removed.
const sweepAge = time.Minute

// Dir is the per-user directory for claims: the runtime directory, or
// else a per-user directory in memory-backed or temporary storage.
func Dir(getenv func(string) string) string {
	if d := getenv("XDG_RUNTIME_DIR"); d != "" {
		return filepath.Join(d, "hookshim", "once")
	}
	base := getenv("TMPDIR")
	if base == "" {
		base = memDir()
	}
	if base == "" {
		base = os.TempDir()
	}
	return filepath.Join(base, "hookshim-"+strconv.Itoa(os.Getuid()), "once")
}

// memDir is a memory-backed directory anyone may create in, if the system
// has one: a claim is created on every call that runs a handler, at the
// cost of a journal entry on a disk-backed directory (see Claim), where
// XDG_RUNTIME_DIR, when set, is tmpfs.
func memDir() string {
	if runtime.GOOS != "linux" {
		return ""
	}
	// Shared like /tmp: world-writable and sticky, so that the per-user
	// directory in it is ours alone.
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() &&
		st.Mode().Perm() == 0o777 && st.Mode()&fs.ModeSticky != 0 {
		return "/dev/shm"
	}
	return ""
}

// Claim is a held or lost claim.
//
// A claim is one file, created exclusively by the winner and kept open
// until the winner writes its handlers' answers into it. One file, not a
// lock and an answer renamed into place: every file created costs a
// journal entry on a disk-backed directory (on ext4 here, a claim went
// from about 0.5 ms to 0.25 ms), and the answer needs no
// rename to be read whole: it is written with one write, and a reader
// takes it only once it is valid JSON, which no proper prefix of an array
// is.
type Claim struct {
	path string
	f    *os.File  // held by the winner until Publish
	at   time.Time // when the claim was taken
	Won  bool
}

// Take tries to claim key for window. When the claim is lost, Wait returns
// the winner's answer.
func Take(dir, key string, window time.Duration) (*Claim, error) {
	if err := claimsDir(dir); err != nil {
		return nil, err
	}
	c := &Claim{path: filepath.Join(dir, key+".claim")}
	for attempt := 0; attempt < 2; attempt++ {
		c.at = time.Now()
		f, err := os.OpenFile(c.path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			c.f, c.Won = f, true
			if rand.IntN(16) == 0 {
				// Leftovers are small and few: sweeping now and then is enough.
				sweep(dir)
			}
			return c, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		st, err := os.Stat(c.path)
		if err == nil && time.Since(st.ModTime()) > window {
			// A stale claim from an earlier call with the same key.
			os.Remove(c.path)
			continue
		}
		return c, nil
	}
	return c, nil
}

// claimsDir makes dir when it is missing and refuses it unless it is the
// user's alone: one stat when it exists, as on every call but the first
// (os.MkdirAll would stat it, and the check again).
func claimsDir(dir string) error {
	st, err := os.Lstat(dir)
	if os.IsNotExist(err) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
		st, err = os.Lstat(dir)
	}
	if err != nil {
		return err
	}
	return private.Dir(dir, st)
}

// Publish stores the winner's call id and what its handlers answered (a
// JSON array) in the claim, and gives the claim back its time of taking:
// the window runs from the call, not from its answer, so a call repeated
// on purpose after a slow handler is not taken for a duplicate.
//
// The file is the call id, a newline, and the answers, written at once.
func (c *Claim) Publish(call string, answers []byte) error {
	if c.f == nil {
		return errors.New("dedupe: publish without holding the claim")
	}
	if strings.Contains(call, "\n") {
		return errors.New("dedupe: a call id is one line")
	}
	f := c.f
	c.f = nil
	b := make([]byte, 0, len(call)+1+len(answers))
	b = append(append(append(b, call...), '\n'), answers...)
	_, err := f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Chtimes(c.path, c.at, c.at)
}

// Shared is what the winner of a claim published.
type Shared struct {
	Call    string // the winner's call id (the id its handlers saw in their envelope)
	Answers []byte // its handlers' answers, as published
}

// Wait polls for the winner's answers until the deadline.
func (c *Claim) Wait(deadline time.Time) (Shared, bool) {
	for {
		if b, err := os.ReadFile(c.path); err == nil {
			// A reader may see the file while it is being written: the
			// answers are taken only once they are valid JSON, which no
			// proper prefix of an array is.
			if call, answers, ok := bytes.Cut(b, []byte{'\n'}); ok && gjson.ValidBytes(answers) {
				return Shared{Call: string(call), Answers: answers}, true
			}
		}
		if time.Now().After(deadline) {
			return Shared{}, false
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
