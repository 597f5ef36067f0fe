package normalize

import (
	"net/url"
	"path/filepath"
	"strconv"
	"time"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
)

// OpenHookVersion is the envelope version handlers receive.
const OpenHookVersion = "0.1"

// Data is the canonical `data` object of the envelope: the same keys for
// every tool, so that one handler reads every tool's calls.
func Data(ev *event.Event) []byte {
	o := &wire.Object{}
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
			m := &wire.Object{}
			m.Str("server", t.MCP.Server).Str("tool", t.MCP.Tool)
			o.Obj("mcp", m)
		}
		if t.CallID != "" {
			o.Str("tool_call_id", t.CallID)
		}
		o.Raw("tool_input", t.Input)
		if t.Command != "" {
			o.Str("command", t.Command)
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
		o.Raw("prompt_length", []byte(strconv.Itoa(len([]rune(*ev.Prompt)))))
	}
	for _, f := range ev.Fields {
		o.Raw(f.Key, f.Value)
	}
	return o.Bytes()
}

// Envelope is the OpenHook 0.1 envelope a handler reads on stdin: source is
// the provider id, data the canonical fields, extensions.hookshim the native
// event, tool name and payload, untouched.
func Envelope(ev *event.Event, id string, now time.Time, version string) []byte {
	o := &wire.Object{}
	o.Str("openhook", OpenHookVersion)
	o.Str("id", id)
	o.Str("source", ev.Provider)
	o.Str("type", ev.Name.OpenHookType())
	o.Str("time", now.UTC().Format(time.RFC3339Nano))
	o.Str("session_id", ev.SessionID)
	if dir := ev.ProjectDir; dir != "" {
		o.Str("context", FileURI(dir))
	}
	o.Raw("data", Data(ev))
	x := &wire.Object{}
	x.Str("version", version)
	x.Str("event", string(ev.Name))
	x.Str("native_event", ev.Native)
	if ev.Tool != nil {
		x.Str("native_tool", ev.Tool.Native)
	}
	x.Raw("payload", ev.Raw)
	ext := &wire.Object{}
	ext.Obj("hookshim", x)
	o.Obj("extensions", ext)
	return o.Bytes()
}

// FileURI is the file:// URI of a directory.
func FileURI(dir string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}).String()
}
