package dialect

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
)

// filled is ev with what the dialect's hooks rely on and the caller did
// not send filled in where it can be found (each noted in c.Gaps): the
// working folder and a session id for a caller that sends neither
// (Amplifier), the project folder as the dialect's tool finds it, the
// Stop loop guard, the last assistant message, and the transcript in the
// dialect's format.
func filled(d, caller *provider.Provider, ev *event.Event, o Options, c *Call) *event.Event {
	e := *ev
	e.Fields = slices.Clone(ev.Fields)
	f := d.Fields
	if e.Cwd == "" && e.ProjectDir == "" && o.Wd != "" && f.Cwd != "" {
		// A tool that says nowhere where it works runs its hooks there.
		e.Cwd, e.ProjectDir = o.Wd, o.Wd
		c.Gaps = append(c.Gaps, f.Cwd+" (hookshim's working folder given instead)")
	}
	if e.SessionID == "" && o.Session != "" && f.SessionID != "" {
		e.SessionID = o.Session
		c.Gaps = append(c.Gaps, f.SessionID+" (one made up for "+caller.Name+"'s process)")
	}
	if e.ProjectDir != "" && e.ProjectDir == e.Cwd {
		// The caller named no project folder (its variable, its
		// workspace roots), only the folder it or a command runs in.
		if root := projectRoot(e.ProjectDir, o.Home, d.Dialect.ProjectMarkers); root != "" {
			e.ProjectDir = root
		}
	}
	stop := e.Name == event.AgentStop || e.Name == event.SubagentStop
	if stop {
		loopGuard(d, &e, c)
	}
	wantLast := stop && e.Get("last_assistant_message") == nil && keeps(d, "last_assistant_message")
	wantTranscript := f.Transcript != "" && e.TranscriptPath != "" && d.Dialect.Transcript != ""
	if !wantLast && !wantTranscript {
		return &e
	}
	switch {
	case e.TranscriptPath == "":
		if wantLast {
			c.Gaps = append(c.Gaps, "last_assistant_message")
		}
		return &e
	case o.TempDir == "":
		// No process to read files for (the table of docs/dialects.md).
		if wantLast {
			c.Gaps = append(c.Gaps, "last_assistant_message (read from the transcript)")
		}
		return &e
	}
	unread := func(err error) *event.Event {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		if wantTranscript {
			c.Gaps = append(c.Gaps, fmt.Sprintf("%s (%s's transcript could not be read: %v; given as it is)", f.Transcript, caller.Name, err))
		}
		if wantLast {
			c.Gaps = append(c.Gaps, "last_assistant_message (the transcript could not be read)")
		}
		return &e
	}
	w, ok := transcriptWriter(d.Dialect.Transcript)
	if !wantLast {
		if !ok {
			return &e
		}
		// Only its format matters: one the dialect reads is given as it
		// is, without reading a long session whole on every call.
		format, err := sniffTranscript(e.TranscriptPath)
		if err != nil {
			return unread(err)
		}
		if format == w.format {
			return &e
		}
	}
	turns, format, err := readTranscript(e.TranscriptPath)
	if err != nil {
		return unread(err)
	}
	if wantLast {
		if text, ok := lastAssistant(turns); ok {
			e.Set("last_assistant_message", wire.Quote(text))
			c.Gaps = append(c.Gaps, "last_assistant_message (read from the transcript)")
		} else {
			c.Gaps = append(c.Gaps, "last_assistant_message (none in the transcript)")
		}
	}
	if !wantTranscript || !ok || format == w.format {
		return &e
	}
	rename := func(native string) string {
		t := &event.Tool{Native: native, Name: native}
		if canonical, ok := caller.Tools.Get(native); ok {
			t.Name = canonical
		}
		name, _ := ToolName(d, t)
		return name
	}
	path, err := writeTemp(o.TempDir, "transcript-*"+w.ext, w.write(turns, e.SessionID, e.Cwd, rename))
	if err != nil {
		c.Gaps = append(c.Gaps, fmt.Sprintf("%s (%s's could not be written again in %s's format: %v; given as it is)", f.Transcript, format, d.Name, err))
		return &e
	}
	c.temp = append(c.temp, path)
	e.TranscriptPath = path
	c.Gaps = append(c.Gaps, fmt.Sprintf("%s (%s's, written again in %s's format for this call)", f.Transcript, format, d.Name))
	return &e
}

// transcriptFormat is how a transcript is written in one format.
type transcriptFormat struct {
	format, ext string // the format as sniffed, the file's extension
	write       func(turns []turn, session, cwd string, rename func(string) string) []byte
}

// transcriptWriter writes a transcript in a dialect's format
// (provider.Dialect.Transcript): the format as sniffed, which is given as
// it is, the file's extension and the writer; ok false for none. (A
// switch, not a map: nothing is built at every start of hookshim.)
func transcriptWriter(format string) (w transcriptFormat, ok bool) {
	switch format {
	case provider.TranscriptClaude:
		w.format, w.ext, w.write = formatClaude, ".jsonl", claudeJSONL
	case provider.TranscriptGemini:
		w.format, w.ext, w.write = formatGemini, ".json", geminiJSON
	default:
		return w, false
	}
	return w, true
}

// loopGuard gives a Stop the loop guard the dialect's hooks read, from
// the one the caller sends: Claude Code's stop_hook_active (a Stop the
// hook's own block started) and Cursor's loop_count (how many such
// Stops came before).
func loopGuard(d *provider.Provider, e *event.Event, c *Call) {
	active, count := e.Get("stop_hook_active"), e.Get("loop_count")
	switch {
	case active == nil && keeps(d, "stop_hook_active"):
		if count == nil {
			c.Gaps = append(c.Gaps, "stop_hook_active")
			return
		}
		on := gjson.ParseBytes(count).Int() > 0
		e.Set("stop_hook_active", []byte(strconv.FormatBool(on)))
		c.Gaps = append(c.Gaps, "stop_hook_active (from loop_count)")
	case count == nil && keeps(d, "loop_count") && active != nil:
		n := "0"
		if gjson.ParseBytes(active).Bool() {
			// Claude Code says only whether: at least one.
			n = "1"
		}
		e.Set("loop_count", []byte(n))
		c.Gaps = append(c.Gaps, "loop_count (from stop_hook_active)")
	}
}

// keeps reports whether the dialect's payload has a key for the canonical
// data field.
func keeps(d *provider.Provider, canonical string) bool {
	_, ok := inverse(d.Keep, canonical)
	return ok
}

// projectRoot is the nearest folder from dir up that holds .git or one of
// markers, as the dialect's tool finds its project; "" when there is none
// below home (a home folder kept in git is no project).
func projectRoot(dir, home string, markers []string) string {
	dir = filepath.Clean(dir)
	for range 64 {
		if home != "" && dir == filepath.Clean(home) {
			return ""
		}
		for _, m := range append([]string{".git", config.FileName}, markers...) {
			if _, err := os.Lstat(filepath.Join(dir, m)); err == nil {
				return dir
			}
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
	return ""
}

// ProcessSession is a session id for a caller that sends none: the same
// for every hook call of one agent process (its process id, the caller
// and its folder), shaped as a UUID for hooks that check.
func ProcessSession(caller string, parentPID int, wd string) string {
	sum := sha256.Sum256([]byte(caller + "\x00" + strconv.Itoa(parentPID) + "\x00" + wd))
	h := fmt.Sprintf("%x", sum[:16])
	return h[0:8] + "-" + h[8:12] + "-4" + h[13:16] + "-8" + h[17:20] + "-" + h[20:32]
}
