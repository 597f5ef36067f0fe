// Package journal is the decision log: one JSON record per hook call,
// appended to a file under the user's state folder, read back by `hookshim
// log`, `hookshim explain` and `hookshim doctor`.
//
// Writing is on every call's path, so it must never fail the call nor
// slow it: a record is bounded (MaxRecord: long fields are cut, with a
// marker), goes to the file in one write(2) on a descriptor opened with
// O_APPEND, so that hundreds of calls appending at once never tear or
// interleave each other's records, and the file is rotated past a size
// cap (Keep generations are kept). Values that look like secrets, and the
// fields a config marks, are redacted before a byte is written.
//
// The package knows nothing of the pipeline: the pipeline turns a call's
// record into an Entry.
package journal

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hookshim/hookshim/internal/private"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// Entry is one call's record. Its JSON keys are the log's format
// (docs/log.md).
type Entry struct {
	Time     time.Time `json:"time"` // when the call began, UTC
	ID       string    `json:"id"`   // the call's id; its handlers' envelope id when they ran
	MS       float64   `json:"ms"`   // the whole call, in milliseconds
	Provider string    `json:"provider,omitempty"`
	Version  string    `json:"tool_version,omitempty"` // the tool's version, when the payload or its environment says it
	Hint     string    `json:"provider_hint,omitempty"`
	Native   string    `json:"native_event,omitempty"`
	Event    string    `json:"event,omitempty"`

	Tool       string          `json:"tool,omitempty"` // canonical tool name
	NativeTool string          `json:"native_tool,omitempty"`
	Command    string          `json:"command,omitempty"`
	FilePath   string          `json:"file_path,omitempty"`
	ToolInput  json.RawMessage `json:"tool_input,omitempty"` // a JSON string when cut
	Session    string          `json:"session,omitempty"`
	Cwd        string          `json:"cwd,omitempty"`
	Keys       []string        `json:"keys,omitempty"` // the payload's top-level keys

	Detection *Detection `json:"detection,omitempty"`
	Configs   []Config   `json:"configs,omitempty"`
	NoConfig  string     `json:"no_config,omitempty"`
	Hooks     []Hook     `json:"hooks,omitempty"`    // every hook of the configs in force
	Handlers  []string   `json:"handlers,omitempty"` // the ones that matched

	Call          string   `json:"call,omitempty"` // set when this call ran handlers
	ReusedFrom    string   `json:"reused_from,omitempty"`
	Runs          []Run    `json:"runs,omitempty"`
	HandlerErrors []string `json:"handler_errors,omitempty"`

	Decision string   `json:"decision"`
	Reason   string   `json:"reason,omitempty"`
	Context  string   `json:"context,omitempty"`
	Message  string   `json:"system_message,omitempty"`
	Stop     bool     `json:"stop,omitempty"`
	Rewrite  bool     `json:"rewrite,omitempty"` // the tool input was rewritten
	Degraded []string `json:"degraded,omitempty"`
	Notes    []string `json:"notes,omitempty"`
	Problems []string `json:"problems,omitempty"`

	Exit   int    `json:"exit"`
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr,omitempty"`

	Truncated []string `json:"truncated,omitempty"` // fields cut or left out to bound the record
}

// Detection is how the tool was told.
type Detection struct {
	Provider   string   `json:"provider,omitempty"`
	Hint       string   `json:"hint,omitempty"` // --provider
	Overruled  bool     `json:"overruled,omitempty"`
	Confidence string   `json:"confidence,omitempty"` // without a hint: certain, likely, a guess
	Why        string   `json:"why,omitempty"`
	Score      int      `json:"score"`
	Signals    []string `json:"signals,omitempty"` // the winner's evidence, "+10 has cursor_version"
	RunnerUp   string   `json:"runner_up,omitempty"`
	RunnerUpAt int      `json:"runner_up_score,omitempty"`
	Doubt      string   `json:"doubt,omitempty"` // why the detection may be wrong
}

// Config is one config found, and whether it may run.
type Config struct {
	Path  string `json:"path"`
	Trust string `json:"trust"`
}

// Hook is one hook of the configs in force: what it listens to and
// whether this call matched it.
type Hook struct {
	Name    string   `json:"name"`
	Pos     string   `json:"pos"` // file:line
	Events  []string `json:"events"`
	Matcher string   `json:"matcher,omitempty"`
	Matched bool     `json:"matched"`
	Why     string   `json:"why,omitempty"` // why it did not run
}

// Run is one handler run.
type Run struct {
	Name     string  `json:"name"`
	Pos      string  `json:"pos,omitempty"`
	MS       float64 `json:"ms"`
	Exit     int     `json:"exit"`
	Decision string  `json:"decision"`
	Reason   string  `json:"reason,omitempty"`
	Context  string  `json:"context,omitempty"`
	Rewrite  bool    `json:"rewrite,omitempty"`
	Error    string  `json:"error,omitempty"`
	TimedOut bool    `json:"timed_out,omitempty"`
	Async    bool    `json:"async,omitempty"`
	Reused   bool    `json:"reused,omitempty"` // the answer of the call this one duplicates
}

// Bounds of one record. MaxRecord keeps every record one write of a size
// the kernel appends whole; the field caps keep what matters (who, what,
// the decision) when a payload or an answer is large.
const (
	MaxRecord = 16 << 10
	maxInput  = 2 << 10 // tool_input
	maxStdout = 4 << 10 // the native answer
	maxText   = 1 << 10 // a command, a reason, a note, an error
	maxList   = 32      // hooks, runs, notes, keys
)

// DefaultMax is the size past which the log is rotated; HOOKSHIM_LOG_MAX
// changes it.
const DefaultMax = 8 << 20

// Keep is how many rotated generations are kept beside the live file
// (calls.jsonl.1, calls.jsonl.2).
const Keep = 2

// FileName is the log's name in the state folder.
const FileName = "calls.jsonl"

// Off are the HOOKSHIM_LOG values that turn the log off.
var Off = []string{"off", "0", "none", "false"}

// Where is the log a call writes to: path is "" when the log is off.
// flag (--log) wins over HOOKSHIM_LOG, which wins over the default under
// $XDG_STATE_HOME (else ~/.local/state)/hookshim. private says the
// default is in use, whose folder must be this user's alone.
func Where(flag string, getenv func(string) string) (path string, private bool) {
	v := flag
	if v == "" {
		v = getenv("HOOKSHIM_LOG")
	}
	for _, o := range Off {
		if strings.EqualFold(v, o) {
			return "", false
		}
	}
	if v != "" {
		return v, false
	}
	return Default(getenv), true
}

// Default is the log's default path; "" when neither XDG_STATE_HOME nor
// HOME is set.
func Default(getenv func(string) string) string {
	dir := private.StateDir(getenv)
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, FileName)
}

// MaxSize reads HOOKSHIM_LOG_MAX: bytes, or a number with K, M or G
// (binary units). Empty or unreadable: DefaultMax.
func MaxSize(s string) int64 {
	s = strings.TrimSpace(strings.TrimSuffix(strings.ToUpper(strings.TrimSpace(s)), "B"))
	if s == "" {
		return DefaultMax
	}
	mult := int64(1)
	switch s[len(s)-1] {
	case 'K':
		mult = 1 << 10
	case 'M':
		mult = 1 << 20
	case 'G':
		mult = 1 << 30
	}
	if mult > 1 {
		s = s[:len(s)-1]
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n <= 0 {
		return DefaultMax
	}
	return n * mult
}

// Encode renders e as one record line, newline included: bounded to
// MaxRecord, with the fields named by redact (gjson paths into the record,
// such as "tool_input.password") and every value from the tool or a
// handler that looks like a secret replaced by [redacted]. e is cut in
// place.
func Encode(e *Entry, redact []string) []byte {
	e.bound(redact)
	line := marshal(e)
	for len(line) > MaxRecord && e.shed() {
		line = marshal(e)
	}
	for _, p := range redact {
		if p == "" || !gjson.GetBytes(line, p).Exists() {
			continue
		}
		if out, err := sjson.SetBytes(line, p, Redacted); err == nil {
			line = out
		}
	}
	return append(line, '\n')
}

// bound cuts every field to its cap, marking what was cut.
func (e *Entry) bound(redact []string) {
	cut := func(name string, s *string, max int) {
		if len(*s) > max {
			*s = Cut(*s, max)
			e.Truncated = append(e.Truncated, name)
		}
	}
	cut("command", &e.Command, maxText)
	cut("file_path", &e.FilePath, maxText)
	cut("cwd", &e.Cwd, maxText)
	cut("reason", &e.Reason, maxText)
	cut("context", &e.Context, maxText)
	cut("system_message", &e.Message, maxText)
	cut("stdout", &e.Stdout, maxStdout)
	cut("stderr", &e.Stderr, maxText)
	cut("no_config", &e.NoConfig, maxText)
	if len(e.ToolInput) > maxInput {
		in := []byte(e.ToolInput)
		// A field the config marks is taken out before the input is cut
		// to a string, where its path no longer reaches it.
		for _, p := range redact {
			if rest, ok := strings.CutPrefix(p, "tool_input."); ok && gjson.GetBytes(in, rest).Exists() {
				if out, err := sjson.SetBytes(in, rest, Redacted); err == nil {
					in = out
				}
			}
		}
		// Only the head is copied: a tool input can be megabytes.
		e.ToolInput = wire.Quote(cutHead(string(in[:maxInput]), len(in)))
		e.Truncated = append(e.Truncated, "tool_input")
	}
	list := func(name string, l *[]string) {
		if len(*l) > maxList {
			*l = (*l)[:maxList]
			e.Truncated = append(e.Truncated, name)
		}
		for i := range *l {
			if len((*l)[i]) > maxText {
				(*l)[i] = Cut((*l)[i], maxText)
			}
		}
	}
	list("keys", &e.Keys)
	list("handlers", &e.Handlers)
	list("handler_errors", &e.HandlerErrors)
	list("degraded", &e.Degraded)
	list("notes", &e.Notes)
	list("problems", &e.Problems)
	if len(e.Hooks) > maxList {
		e.Hooks = e.Hooks[:maxList]
		e.Truncated = append(e.Truncated, "hooks")
	}
	if len(e.Runs) > maxList {
		e.Runs = e.Runs[:maxList]
		e.Truncated = append(e.Truncated, "runs")
	}
	for i := range e.Runs {
		r := &e.Runs[i]
		r.Reason, r.Context, r.Error = Cut(r.Reason, maxText/2), Cut(r.Context, maxText/2), Cut(r.Error, maxText/2)
	}
	if d := e.Detection; d != nil && len(d.Signals) > maxList {
		d.Signals = d.Signals[:maxList]
	}
}

// shed leaves out the least needed field still there, for a record over
// MaxRecord even with every field cut; false when nothing is left to shed.
func (e *Entry) shed() bool {
	drop := func(name string) { e.Truncated = append(e.Truncated, name) }
	switch {
	case e.Hooks != nil:
		e.Hooks = nil
		drop("hooks")
	case e.ToolInput != nil:
		e.ToolInput = nil
		drop("tool_input")
	case e.Keys != nil:
		e.Keys = nil
		drop("keys")
	case e.Notes != nil:
		e.Notes = nil
		drop("notes")
	case e.Detection != nil && e.Detection.Signals != nil:
		e.Detection.Signals = nil
		drop("detection.signals")
	case e.Context != "" || e.Message != "":
		e.Context, e.Message = "", ""
		drop("context")
	case e.Stdout != "":
		e.Stdout = ""
		drop("stdout")
	case len(e.Runs) > 4:
		e.Runs = e.Runs[:4]
		drop("runs")
	case e.Problems != nil || e.HandlerErrors != nil || e.Degraded != nil:
		e.Problems, e.HandlerErrors, e.Degraded = nil, nil, nil
		drop("problems")
	default:
		return false
	}
	return true
}

// Cut shortens s to at most max bytes, on a character boundary, with a
// marker saying how much was left out.
func Cut(s string, max int) string {
	if len(s) <= max {
		return s
	}
	return cutHead(s[:max], len(s))
}

// cutHead is head, the first bytes of a text of total bytes, ended on a
// character boundary and marked as cut.
func cutHead(head string, total int) string {
	keep := len(head) - 24 // the marker's most
	if keep < 0 {
		keep = 0
	}
	for keep > 0 && !utf8.RuneStart(head[keep]) {
		keep--
	}
	return head[:keep] + fmt.Sprintf("…[+%d bytes]", total-keep)
}

// Append writes one record line to the log at path with a single write
// on an O_APPEND descriptor, then rotates the log when it has grown past
// max bytes (0: never). own asks that the folder be this user's alone
// (the default log, under the state folder): a folder another user could
// write in is refused, and the record not written. A write cut short (a
// full disk) is taken back, unless another call has appended since.
func Append(path string, line []byte, max int64, own bool) error {
	if path == "" {
		return errors.New("no state folder (neither XDG_STATE_HOME nor HOME is set)")
	}
	// The folder is made only when it is missing: on every other call
	// that is one system call fewer.
	dir := filepath.Dir(path)
	if own {
		if err := private.EnsureDir(dir); err != nil {
			return err
		}
	}
	f, err := openAppend(path)
	if !own && errors.Is(err, fs.ErrNotExist) {
		_ = os.MkdirAll(dir, 0o755) // if it fails, so does the open, saying why
		f, err = openAppend(path)
	}
	if err != nil {
		return err
	}
	n, err := f.Write(line)
	if err != nil && n > 0 {
		err = fmt.Errorf("%v; %s", err, takeBack(f, int64(n)))
	}
	if err == nil && max > 0 {
		if st, serr := f.Stat(); serr == nil && st.Size() > max {
			rotate(path, st)
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// openAppend opens the log for appending (private.Open: one open(2)).
func openAppend(path string) (*os.File, error) {
	return private.Open(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
}

// takeBack removes the last n bytes of f, a torn record this process has
// just appended, if nothing was appended after them.
func takeBack(f *os.File, n int64) string {
	end, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return "a partial line is left in it"
	}
	if st, err := f.Stat(); err != nil || st.Size() != end || f.Truncate(end-n) != nil {
		return "a partial line is left in it"
	}
	return "the partial line was taken back"
}

// staleLock is how old a rotation lock must be to be taken as left by a
// call that died mid-rotation: a rotation is two renames.
const staleLock = 10 * time.Second

// rotate renames the log to .1 (and .1 to .2, and so on), once: the call
// that creates the lock file rotates, the others carry on appending to
// whichever file they opened — a record that lands in the renamed file is
// still whole, and still read. live is the Stat of the file this call
// wrote to: when the log at path is another file by the time the lock is
// held, another call has rotated it already.
func rotate(path string, live fs.FileInfo) {
	lock := path + ".lock"
	l, err := os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		st, serr := os.Stat(lock)
		if serr != nil || time.Since(st.ModTime()) < staleLock {
			return
		}
		os.Remove(lock)
		l, err = os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	}
	if err != nil {
		return
	}
	l.Close()
	defer os.Remove(lock)
	if cur, err := os.Stat(path); err != nil || !os.SameFile(cur, live) {
		return
	}
	for g := Keep - 1; g >= 1; g-- {
		os.Rename(path+"."+strconv.Itoa(g), path+"."+strconv.Itoa(g+1))
	}
	os.Rename(path, path+".1")
}
