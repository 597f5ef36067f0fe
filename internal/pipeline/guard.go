package pipeline

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/hookshim/hookshim/internal/private"
)

// The recursion guard. A handler that runs an agent makes that agent's
// hooks call hookshim again; answering the nested call from the same
// policy could loop forever, so a nested call runs no handler. Nested is
// known by a mark only a running hookshim can set: HOOKSHIM_GUARD, a
// random token handed to its handlers, named by a file in hookshim's
// private state folder for as long as the handlers run. HOOKSHIM_DEPTH=1
// is still set for handlers to read, but alone it proves nothing: a
// repository's .envrc or a wrapper script can set it, and it must not
// switch every policy off.
const guardVar = "HOOKSHIM_GUARD"

// guardDir is where the running calls' tokens are.
func guardDir(getenv func(string) string) string {
	dir := private.StateDir(getenv)
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "guard")
}

// nestedCall reports whether this call was made from inside a handler of a
// hookshim call that is running: HOOKSHIM_DEPTH set, and HOOKSHIM_GUARD
// naming a token file of this user's. stray is true when HOOKSHIM_DEPTH
// is set without such a mark.
func nestedCall(getenv func(string) string) (ok, stray bool) {
	if depth(getenv("HOOKSHIM_DEPTH")) <= 0 {
		return false, false
	}
	tok, dir := getenv(guardVar), guardDir(getenv)
	if !validToken(tok) || dir == "" {
		return false, true
	}
	path := filepath.Join(dir, tok)
	st, err := os.Lstat(path)
	if err != nil || private.File(path, st) != nil {
		return false, true
	}
	return true, false
}

func validToken(s string) bool {
	if len(s) != 32 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// guard marks this call's handlers: the environment to add and the
// function that lifts the mark once they have answered. An error leaves
// them unmarked (a nested call then runs its handlers, and says why).
func guard(getenv func(string) string) (env []string, done func(keep bool), err error) {
	dir := guardDir(getenv)
	if dir == "" {
		return nil, func(bool) {}, errors.New("neither XDG_STATE_HOME nor HOME is set: nowhere to mark hookshim's handlers")
	}
	if err := private.EnsureDir(dir); err != nil {
		return nil, func(bool) {}, err
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	tok := hex.EncodeToString(b[:])
	path := filepath.Join(dir, tok)
	f, err := private.Open(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600) // O_EXCL: never through a link
	if err != nil {
		return nil, func(bool) {}, err
	}
	f.Close()
	done = func(keep bool) {
		if !keep {
			os.Remove(path)
			return
		}
		// An async handler outlives the call and may start an agent
		// later: its mark stays, and marks a day old are swept.
		sweep(dir)
	}
	return []string{"HOOKSHIM_DEPTH=1", guardVar + "=" + tok}, done, nil
}

// sweep removes the marks left by async handlers more than a day ago.
func sweep(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > 24*time.Hour && validToken(e.Name()) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
