package normalize

import (
	"bytes"
	"net/url"
	"path/filepath"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
)

// OpenHookVersion is the envelope version handlers receive.
const OpenHookVersion = "0.1"

// Data is the canonical `data` object of the envelope: the same keys for
// every tool, so that one handler reads every tool's calls.
func Data(ev *event.Event) []byte {
	o := &wire.Object{}
	o.Grow(dataSize(ev, false))
	writeData(o, ev)
	return o.Close()
}

// dataSize is about how many bytes the data object takes, so that it is
// written into one buffer: a 10 MiB tool output is then copied once, or
// not at all with refs (raw values kept by reference, see
// wire.Object.KeepRefs).
func dataSize(ev *event.Event, refs bool) int {
	n := 512 + len(ev.Cwd) + len(ev.ProjectDir) + len(ev.TranscriptPath) + len(ev.SessionID)
	if t := ev.Tool; t != nil {
		n += copied(len(t.Input), refs) + copied(len(t.Output), refs) + copied(len(t.Error), refs) + 2*(len(t.Command)+len(t.FilePath)) + len(t.Shell)
	}
	if ev.Prompt != nil {
		n += len(*ev.Prompt) + len(*ev.Prompt)/8
	}
	for _, f := range ev.Fields {
		n += len(f.Key) + len(f.Value) + 4
	}
	return n
}

func writeData(o *wire.Object, ev *event.Event) {
	o.Str("event", string(ev.Name))
	o.Str("native_event", ev.Native)
	o.Str("provider", ev.Provider)
	o.Str("session_id", ev.SessionID)
	if ev.Cwd != "" {
		o.Str("cwd", ev.Cwd)
	}
	if ev.ProjectDir != "" {
		o.Str("project_dir", ev.ProjectDir)
	}
	if ev.TranscriptPath != "" {
		o.Str("transcript_path", ev.TranscriptPath)
	}
	if ev.Model != "" {
		o.Str("model", ev.Model)
	}
	if t := ev.Tool; t != nil {
		o.Str("tool_name", t.Name)
		o.Str("tool_native_name", t.Native)
		if t.MCP != nil {
			o.Nest("mcp", func(m *wire.Object) { m.Str("server", t.MCP.Server).Str("tool", t.MCP.Tool) })
		}
		if t.CallID != "" {
			o.Str("tool_call_id", t.CallID)
		}
		o.Raw("tool_input", t.Input)
		if t.Command != "" {
			o.Str("command", t.Command)
		}
		if t.Shell != "" {
			o.Str("shell", t.Shell)
		}
		if t.FilePath != "" {
			o.Str("file_path", t.FilePath)
		}
		if t.Output != nil {
			o.Raw("tool_output", t.Output)
		}
		if t.Error != nil {
			o.Raw("error", t.Error)
		}
		switch ev.Name {
		case event.AfterToolExecute:
			o.Str("status", "success")
		case event.ToolUseFailure:
			o.Str("status", "error")
		}
	}
	if ev.Prompt != nil {
		o.Str("prompt", *ev.Prompt)
		o.Raw("prompt_length", []byte(strconv.Itoa(utf8.RuneCountInString(*ev.Prompt))))
	}
	for _, f := range ev.Fields {
		o.Raw(f.Key, f.Value)
	}
}

// Envelope is the OpenHook 0.1 envelope a handler reads on stdin: source is
// the provider id, data the canonical fields, extensions.hookshim the native
// event, tool name and payload, untouched. It is EnvelopeParts joined.
func Envelope(ev *event.Event, id string, now time.Time, version string) []byte {
	return bytes.Join(EnvelopeParts(ev, id, now, version), nil)
}

// EnvelopeParts is the envelope in pieces, for writing without joining
// them: with a large tool output the envelope holds it twice (in data and
// in the payload), and both are the payload's own bytes, not copies. Only
// the rest is written into one buffer of the right size.
func EnvelopeParts(ev *event.Event, id string, now time.Time, version string) [][]byte {
	o := &wire.Object{}
	o.KeepRefs()
	o.Grow(dataSize(ev, true) + copied(len(ev.Raw), true) + 512 + 2*len(ev.ProjectDir))
	o.Str("openhook", OpenHookVersion)
	o.Str("id", id)
	o.Str("source", ev.Provider)
	o.Str("type", ev.Name.OpenHookType())
	o.Str("time", now.UTC().Format(time.RFC3339Nano))
	o.Str("session_id", ev.SessionID)
	if dir := ev.ProjectDir; dir != "" {
		o.Str("context", FileURI(dir))
	}
	o.Nest("data", func(d *wire.Object) { writeData(d, ev) })
	o.Nest("extensions", func(ext *wire.Object) {
		ext.Nest("hookshim", func(x *wire.Object) {
			x.Str("version", version)
			x.Str("event", string(ev.Name))
			x.Str("native_event", ev.Native)
			if ev.Tool != nil {
				x.Str("native_tool", ev.Tool.Native)
			}
			x.Raw("payload", bytes.TrimSpace(ev.Raw)) // one line: some tools end theirs with a newline
		})
	})
	return o.Segments()
}

// copied is how many bytes of a raw value of n bytes are copied.
func copied(n int, refs bool) int {
	if refs && n >= wire.RefMin {
		return 0
	}
	return n
}

// FileURI is the file:// URI of a directory.
func FileURI(dir string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}).String()
}
