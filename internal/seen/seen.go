// Package seen keeps, per tool and native event, when that tool last
// called hookshim: one empty file per pair whose modification time is the
// stamp, $XDG_STATE_HOME/hookshim/seen/<provider>/<event>. `hookshim
// doctor` reads them to tell "registered but never called" from "called,
// and the handlers did not do what you expected".
//
// Marking is on every hook call's path, so it costs one system call when
// the stamp exists (it only has its time set) and never fails the call:
// its error is for the log, nothing else.
package seen

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/private"
)

// Dir is where the stamps are kept for this user: $XDG_STATE_HOME (else
// ~/.local/state) /hookshim/seen; "" when neither variable is set.
func Dir(getenv func(string) string) string {
	dir := private.StateDir(getenv)
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "seen")
}

// maxName bounds a provider id or event name: a native event comes from a
// payload, and no tool's event name is anywhere near this long.
const maxName = 100

// Mark records that providerID called hookshim for nativeEvent now. The
// error, if any, is for a log line: the call goes on either way.
func Mark(dir, providerID, nativeEvent string) error {
	if dir == "" {
		return errors.New("seen: no state folder")
	}
	if len(providerID) > maxName || len(nativeEvent) > maxName || providerID == "" {
		return errors.New("seen: provider or event name out of bounds")
	}
	path := dir + string(filepath.Separator) + escape(providerID) + string(filepath.Separator) + escape(nativeEvent)
	now := time.Now()
	err := os.Chtimes(path, now, now)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	return f.Close()
}

// Stamp is one tool and event's last call.
type Stamp struct {
	Provider string
	Event    string
	Time     time.Time
}

// Last is when providerID last called hookshim for nativeEvent; false when
// it never did (or the stamp cannot be read).
func Last(dir, providerID, nativeEvent string) (time.Time, bool) {
	if dir == "" {
		return time.Time{}, false
	}
	st, err := os.Stat(filepath.Join(dir, escape(providerID), escape(nativeEvent)))
	if err != nil {
		return time.Time{}, false
	}
	return st.ModTime(), true
}

// All lists every stamp, by provider then event. A folder that does not
// exist holds none.
func All(dir string) ([]Stamp, error) {
	if dir == "" {
		return nil, nil
	}
	provs, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Stamp
	for _, p := range provs {
		if !p.IsDir() {
			continue
		}
		events, err := os.ReadDir(filepath.Join(dir, p.Name()))
		if err != nil {
			return nil, err
		}
		for _, e := range events {
			if !e.Type().IsRegular() {
				continue
			}
			info, err := e.Info()
			if err != nil {
				continue // removed meanwhile
			}
			out = append(out, Stamp{Provider: unescape(p.Name()), Event: unescape(e.Name()), Time: info.ModTime()})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Provider != out[j].Provider {
			return out[i].Provider < out[j].Provider
		}
		return out[i].Event < out[j].Event
	})
	return out, nil
}

// escape makes a name a safe file name on every system: letters, digits,
// '-' and '_' stay, '.' too but first; every other byte becomes %XX
// (event names such as Amplifier's tool:pre, or anything a payload says).
func escape(s string) string {
	plain := s != ""
	for i := 0; i < len(s) && plain; i++ {
		plain = safe(s[i], i)
	}
	if plain {
		return s // every real tool and event name: no allocation
	}
	if s == "" {
		return "%"
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if safe(c, i) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteString(strings.ToUpper(strconv.FormatUint(uint64(c)>>4, 16) + strconv.FormatUint(uint64(c)&15, 16)))
	}
	return b.String()
}

func safe(c byte, i int) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || (c == '.' && i > 0)
}

func unescape(s string) string {
	if s == "%" {
		return ""
	}
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(v))
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
