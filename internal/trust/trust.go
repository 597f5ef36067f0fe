// Package trust decides whether a project's .openhook.json may run, the
// way direnv decides for .envrc: the user allows a file, and the allowance
// holds for that path with exactly that content — and exactly the content
// of every file its commands can reach inside the project (see Pins). A
// deny beats an allow.
//
// A change does not switch the policy off: `hookshim allow` keeps a copy
// of what it allowed (Copy), and until the change is allowed, hook calls
// run that copy and say so. Where no copy can be had, the config does not
// run and the call answers as its failure mode says.
//
// Without this, cloning a repository would be enough to run its code on
// every tool call of every agent the user has.
package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/private"
)

// State is a config file's trust state.
type State int

const (
	Unknown  State = iota // never allowed
	Allowed               // allowed, unchanged since
	Changed               // allowed once, changed since: not allowed
	Denied                // denied: never runs until allowed again
	Outdated              // allowed by a hookshim that pinned fewer files: not allowed
)

func (s State) String() string {
	switch s {
	case Allowed:
		return "allowed"
	case Changed:
		return "changed since allowed"
	case Outdated:
		return "changed since allowed (the allowance was recorded by an older hookshim, which pinned fewer files)"
	case Denied:
		return "denied"
	}
	return "not allowed"
}

// Store keeps the records, one file per config path, under
// $XDG_STATE_HOME/hookshim/trust.
type Store struct {
	Dir string
}

// DefaultStore is the store for this user.
func DefaultStore(getenv func(string) string) (Store, error) {
	dir := private.StateDir(getenv)
	if dir == "" {
		return Store{}, errors.New("neither XDG_STATE_HOME nor HOME is set: nowhere to keep trust records")
	}
	return Store{Dir: filepath.Join(dir, "trust")}, nil
}

func key(path string) string {
	sum := sha256.Sum256([]byte(path))
	return hex.EncodeToString(sum[:])
}

// records are where a config's allow and deny records are kept (its path
// hashed once: the check runs on every hook call).
func (s Store) records(path string) (allow, deny string) {
	k := key(path)
	return filepath.Join(s.Dir, "allow", k), filepath.Join(s.Dir, "deny", k)
}

// Allowance is the file that records path's allowance. Each allow writes
// it anew, so its size and time tell one allowance from the next.
func (s Store) Allowance(path string) string {
	allow, _ := s.records(path)
	return allow
}

// header starts every allow record and every digest. A record without it
// was written by a hookshim that pinned only the files named by a
// command: it no longer allows anything (Outdated).
const header = "hookshim-trust 2"

// maxRecord bounds an allow record: a path and a list of pins.
const maxRecord = 1 << 20

// Verified is a project config's trust at one hook call.
type Verified struct {
	State State
	// Content is what to parse: the config as it is now when Allowed; the
	// allowed version's, from the copy, when Changed and a copy was kept;
	// nil when nothing of it may run.
	Content []byte
	// Changes are what differs from the allowed version, when Changed and
	// a copy says what was allowed.
	Changes []Change
	// FailsClosed says that the allowed version asked for on_error deny:
	// when it cannot be had, the call fails closed for it.
	FailsClosed bool

	kept *keptCopy // the allowance's copy, looked up by Copy
}

// Copy is what the handlers' scripts run from (see Copy); nil when no
// copy was kept (an allowance recorded by an older hookshim) or when it
// is not this user's alone. An unchanged config's copy is looked up on
// first use: only a call that runs one of its handlers needs it, and most
// calls run none.
func (v Verified) Copy() *Copy {
	k := v.kept
	if k == nil {
		return nil
	}
	k.once.Do(func() { k.copy = k.store.copyOf(k.sum, k.pins) })
	return k.copy
}

// keptCopy finds the copy of the allowance with digest sum once.
type keptCopy struct {
	once  sync.Once
	store Store
	sum   string
	pins  []Pin
	copy  *Copy
}

// closedMark is the line of an allow record that says the allowed config
// fails closed. Kept apart from the digest: hookshim writes it, from the
// content the digest covers.
const closedMark = "on_error deny"

// Verify is the check of a hook call, made before the config is parsed:
// the config's bytes (read once, at most config.MaxFileSize of them) and
// the pinned files against the allow record. When they are allowed, it
// returns the bytes it hashed, for the caller to parse; when they changed
// since, the allowed version's bytes from the copy, which the call keeps
// enforcing until the user allows the change. A config that has no
// allowance is not read at all.
func (s Store) Verify(path string) (Verified, error) {
	pins, want, state, err := s.record(path)
	if state != Allowed || err != nil {
		return Verified{State: state}, err
	}
	kept := &keptCopy{store: s, sum: want, pins: pins}
	content, err := config.ReadFileMax(path, config.MaxFileSize)
	ok := false
	if err == nil {
		// A file that cannot be read or has grown past the bounds is a
		// change like any other: the copy says what was allowed.
		ok, err = matches(path, content, pins, want)
	}
	if ok {
		return Verified{State: Allowed, Content: content, kept: kept}, nil
	}
	closed := s.failsClosed(path)
	v := Verified{State: Changed, FailsClosed: closed, kept: kept}
	cp := v.Copy()
	if cp == nil {
		var big *config.TooLargeError
		if errors.As(err, &big) || errors.Is(err, fs.ErrNotExist) {
			err = nil
		}
		return v, err
	}
	if v.Content, err = cp.Config(); err != nil {
		return Verified{State: Changed, FailsClosed: closed}, fmt.Errorf("the allowed version of %s: %w", path, err)
	}
	v.Changes = cp.changes(path)
	return v, nil
}

// Changes lists what differs between the allowed version of the config
// at path and the project now, for `hookshim trust` and doctor; kept is
// false when no copy of the allowed version was kept, and then nothing
// can be listed.
func (s Store) Changes(path string) (changes []Change, kept bool) {
	pins, want, state, err := s.record(path)
	if state != Allowed || err != nil {
		return nil, false
	}
	cp := s.copyOf(want, pins)
	if cp == nil {
		return nil, false
	}
	return cp.changes(path), true
}

// Check returns the trust state of a config already parsed (doctor,
// install, `hookshim trust`): the bytes parsed are the bytes hashed.
func (s Store) Check(f *config.File) (State, error) {
	pins, want, state, err := s.record(f.Path)
	if state != Allowed || err != nil {
		return state, err
	}
	content := f.Content
	if content == nil {
		if content, err = config.ReadFile(f.Path); err != nil {
			return Unknown, err
		}
	}
	if ok, err := matches(f.Path, content, pins, want); !ok || err != nil {
		return Changed, err
	}
	return Allowed, nil
}

// record reads path's records: the pins and digest of its allowance, and
// Allowed when they are to be checked, else the state they settle. An
// allow record that another user could have written is not read.
func (s Store) record(path string) ([]Pin, string, State, error) {
	allow, deny := s.records(path)
	if _, err := os.Lstat(deny); err == nil {
		return nil, "", Denied, nil // a deny is obeyed wherever it comes from
	}
	st, err := os.Lstat(allow)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", Unknown, nil
	}
	if err != nil {
		return nil, "", Unknown, err
	}
	if err := s.private(allow, st); err != nil {
		return nil, "", Unknown, fmt.Errorf("allowance ignored: %w", err)
	}
	rec, err := config.ReadFileMax(allow, maxRecord)
	if err != nil {
		return nil, "", Unknown, err
	}
	first, rest, _ := strings.Cut(string(rec), "\n")
	sum, ok := strings.CutPrefix(first, header+" ")
	if !ok {
		return nil, "", Outdated, nil
	}
	_, rest, _ = strings.Cut(rest, "\n") // the config's path, for people
	rest = strings.TrimPrefix(rest, closedMark+"\n")
	pins, err := parsePins(rest)
	if err != nil {
		return nil, "", Unknown, fmt.Errorf("%s: %w", allow, err)
	}
	return pins, sum, Allowed, nil
}

// failsClosed reports whether the allow record of path says the allowed
// config fails closed (read again only on the rare call whose allowance
// has changed: the record is small, and private, as record checked).
func (s Store) failsClosed(path string) bool {
	allow, _ := s.records(path)
	rec, err := config.ReadFileMax(allow, maxRecord)
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(rec), "\n")
	_, rest, _ = strings.Cut(rest, "\n")
	return strings.HasPrefix(rest, closedMark+"\n")
}

// private checks the allow record and the directories above it, up to
// the store's own (see package private).
func (s Store) private(record string, st fs.FileInfo) error {
	if err := private.File(record, st); err != nil {
		return err
	}
	for _, d := range []string{filepath.Dir(record), s.Dir} {
		st, err := os.Lstat(d)
		if err != nil {
			return err
		}
		if err := private.Dir(d, st); err != nil {
			return err
		}
	}
	return nil
}

func matches(path string, content []byte, pins []Pin, want string) (bool, error) {
	sum, _, err := digest(path, content, pins)
	var over *BoundError
	if errors.As(err, &over) {
		return false, nil // allow refuses as many files: some were added since
	}
	return err == nil && sum == want, err
}

// Allow records the file as allowed with its current content and that of
// every file it pins, and lifts a deny. It returns the pins and the files
// they hold; a *BoundError when they hold too much to pin.
func (s Store) Allow(f *config.File) ([]Pin, []string, error) {
	content := f.Content
	if content == nil {
		var err error
		if content, err = config.ReadFileMax(f.Path, config.MaxFileSize); err != nil {
			return nil, nil, err
		}
	}
	if int64(len(content)) > config.MaxFileSize {
		return nil, nil, &config.TooLargeError{Path: f.Path, Size: int64(len(content)), Max: config.MaxFileSize}
	}
	pins := Pins(f)
	var entries []entry
	sum, files, err := walkPins(f.Path, content, pins, func(e entry) { entries = append(entries, e) })
	if err != nil {
		return nil, nil, err
	}
	_, old, _, _ := s.record(f.Path)
	// The copy first: a record never names an allowance whose copy is
	// not there whole.
	if err := s.keep(sum, content, entries); err != nil {
		return nil, nil, fmt.Errorf("keeping a copy of what is allowed: %w", err)
	}
	var b strings.Builder
	b.WriteString(header + " " + sum + "\n" + f.Path + "\n")
	if f.OnError == "deny" {
		b.WriteString(closedMark + "\n")
	}
	for _, p := range pins {
		b.WriteString(p.line() + "\n")
	}
	allow, deny := s.records(f.Path)
	if err := s.save(allow, []byte(b.String())); err != nil {
		return nil, nil, err
	}
	if err := os.Remove(deny); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, err
	}
	if old != "" && old != sum {
		// The copy of the allowance this one replaces. A call that
		// started before may be running a script from it: it finds it
		// gone and fails as its hook's on_error says, as it would have
		// with the script edited in place.
		_ = os.RemoveAll(s.copyDir(old))
	}
	return pins, files, nil
}

// Deny records the path as denied (whatever its content) and drops an
// allowance.
func (s Store) Deny(path string) error {
	_, old, _, _ := s.record(path)
	allow, deny := s.records(path)
	if err := s.save(deny, []byte(path+"\n")); err != nil {
		return err
	}
	if err := os.Remove(allow); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if old != "" {
		_ = os.RemoveAll(s.copyDir(old))
	}
	return nil
}

// save writes a record into directories only this user can write in (an
// allowance kept where others can write would not be read back), with
// private.WriteFile: hookshim processes running in parallel never read
// half a record.
func (s Store) save(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	for _, d := range []string{dir, s.Dir} {
		st, err := os.Lstat(d)
		if err != nil {
			return err
		}
		if err := private.Dir(d, st); err != nil {
			return err
		}
	}
	return private.WriteFile(path, data, 0o600)
}

// writeEntry hashes one entry as "<kind> <path>\n<length>\n<content>\n".
func writeEntry(h hash.Hash, kind, path string, content []byte) {
	fmt.Fprintf(h, "%s %s\n%d\n", kind, path, len(content))
	h.Write(content)
	h.Write([]byte{'\n'})
}
