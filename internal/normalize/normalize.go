// Package normalize turns a native payload into the canonical event, and the
// canonical event into the OpenHook envelope handlers read.
//
// Reads use gjson paths from the provider table: the payload is never
// unmarshalled as a whole, and tool inputs and outputs stay raw JSON.
package normalize

import (
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/tidwall/gjson"
)

// Event normalizes payload p, which provider pr sent for native event spec.
func Event(pr *provider.Provider, spec *provider.Spec, p provider.Payload) *event.Event {
	f := pr.Fields
	ev := &event.Event{Provider: pr.ID, Native: spec.Native, Name: spec.Canonical, Raw: p.Raw}
	ev.SessionID = p.Get(f.SessionID).String()
	ev.Cwd = p.Get(f.Cwd).Str
	ev.TranscriptPath = p.Get(f.Transcript).Str
	if m := p.Get(f.Model); m.Type == gjson.String {
		ev.Model = m.Str
	}
	if name := p.Get(f.ToolName); name.Exists() || spec.Canonical.IsTool() {
		ev.Tool = tool(pr, p, name.String(), ev.Name)
	}
	if pr := p.Get(f.Prompt); pr.Exists() && f.Prompt != "" {
		ev.Prompt = promptText(pr)
		if pr.IsArray() {
			ev.Set("prompt_parts", []byte(pr.Raw))
		}
	}
	for _, keep := range pr.Keep {
		for _, k := range keep {
			if raw := p.GetRaw(k.From); raw != nil {
				ev.Set(k.To, raw)
			}
		}
	}
	if pr.Adjust != nil {
		pr.Adjust(p, spec, ev)
	}
	slices.SortFunc(ev.Fields, func(a, b event.Field) int { return strings.Compare(a.Key, b.Key) })
	if ev.Tool != nil {
		finishTool(pr, p, ev.Tool)
	}
	ev.ProjectDir = projectDir(pr, p, ev)
	return ev
}

func tool(pr *provider.Provider, p provider.Payload, native string, name event.Name) *event.Tool {
	f := pr.Fields
	t := &event.Tool{Native: native, CallID: p.Get(f.ToolCallID).String()}
	t.Input = objectOf(p.GetRaw(f.ToolInput))
	switch name {
	case event.ToolUseFailure:
		t.Error = p.GetRaw(f.ToolError)
	case event.AfterToolExecute:
		t.Output = p.GetRaw(f.ToolOutput)
	}
	return t
}

// objectOf returns a tool input as a JSON object: tools that send it as a
// JSON string (Copilot's toolArgs, Cursor's MCP input) are decoded, and
// anything that is not an object becomes {} rather than an error.
func objectOf(raw []byte) []byte {
	if len(raw) > 0 && raw[0] == '{' {
		return raw
	}
	if len(raw) > 0 && raw[0] == '"' {
		if s := strings.TrimSpace(gjson.ParseBytes(raw).Str); gjson.Valid(s) {
			if inner := gjson.Parse(s); inner.IsObject() {
				return []byte(inner.Raw)
			}
		}
	}
	return []byte("{}")
}

// finishTool names the tool canonically and lifts the command and file
// path out of the input, whatever the native keys.
func finishTool(pr *provider.Provider, p provider.Payload, t *event.Tool) {
	if t.Name == "" {
		if canonical, ok := pr.Tools.Get(t.Native); ok {
			t.Name = canonical
		} else if pr.SplitMCP != nil {
			if m := pr.SplitMCP(t.Native, p); m != nil {
				t.MCP = m
				if m.Server != "" {
					// With the server unknown (Cursor's preToolUse names
					// only the tool) the native name stays the name.
					t.Name = event.MCPName(m.Server, m.Tool)
				}
			}
		}
		if t.Name == "" {
			t.Name = t.Native
		}
	}
	in := gjson.ParseBytes(t.Input)
	// Only a shell tool's "command" is a command line: Kiro's fs_write
	// calls the kind of write "command".
	if t.Command == "" && t.Name == event.ToolShell {
		for _, k := range []string{"command", "cmd", "command_line"} {
			if c := in.Get(k); c.Type == gjson.String {
				t.Command = c.Str
				break
			}
		}
	}
	if t.FilePath == "" {
		for _, k := range []string{"file_path", "filePath", "path", "notebook_path", "absolute_path", "target_file"} {
			if c := in.Get(k); c.Type == gjson.String {
				t.FilePath = c.Str
				break
			}
		}
	}
}

// promptText returns the prompt as one string; content parts (Kimi Code's
// ContentPart[]) contribute their text parts, one per line.
func promptText(r gjson.Result) *string {
	var s string
	switch {
	case r.Type == gjson.String:
		s = r.Str
	case r.IsArray():
		var parts []string
		r.ForEach(func(_, part gjson.Result) bool {
			if part.Type == gjson.String {
				parts = append(parts, part.Str)
			} else if t := part.Get("text"); t.Type == gjson.String {
				parts = append(parts, t.Str)
			}
			return true
		})
		s = strings.Join(parts, "\n")
	default:
		s = r.String()
	}
	return &s
}

// projectDir is where the project's .openhook.json is searched from: the
// tool's own project-dir variable, then its workspace roots, then cwd.
func projectDir(pr *provider.Provider, p provider.Payload, ev *event.Event) string {
	if p.Env != nil {
		for _, name := range pr.ProjectDirEnv {
			if v := p.Env(name); v != "" {
				return v
			}
		}
	}
	if r := p.Get("workspace_roots.0"); r.Type == gjson.String && r.Str != "" {
		return r.Str
	}
	return ev.Cwd
}
