// Package normalize turns a native payload into the canonical event, and the
// canonical event into the OpenHook envelope handlers read.
//
// Reads use gjson paths from the provider table: the payload is never
// unmarshalled as a whole, and tool inputs and outputs stay raw JSON.
package normalize

import (
	"bytes"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/patch"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/wire"
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
	if ev.Tool != nil {
		finishTool(pr, p, ev)
	}
	slices.SortFunc(ev.Fields, func(a, b event.Field) int { return strings.Compare(a.Key, b.Key) })
	ev.ProjectDir = projectDir(pr, p, ev)
	if pr.Calls.List != "" && spec.Canonical.IsTool() {
		if list := p.Get(pr.Calls.List); list.Exists() {
			return withCalls(pr, p, ev, list)
		}
	}
	return ev
}

func tool(pr *provider.Provider, p provider.Payload, native string, name event.Name) *event.Tool {
	f := pr.Fields
	t := &event.Tool{Native: native, CallID: p.Get(f.ToolCallID).String()}
	t.Input = provider.InputObject(p.GetRaw(f.ToolInput))
	switch name {
	case event.ToolUseFailure:
		t.Error = p.GetRaw(f.ToolError)
	case event.AfterToolExecute:
		t.Output = p.GetRaw(f.ToolOutput)
	}
	return t
}

// finishTool names the tool canonically and lifts the command and file
// paths out of the input, whatever the native keys.
func finishTool(pr *provider.Provider, p provider.Payload, ev *event.Event) {
	t := ev.Tool
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
	if t.Name == event.ToolShell && t.Shell == "" && powerShellTool(t.Native) {
		// Claude Code's PowerShell tool, Copilot CLI's powershell: their
		// command lines are PowerShell's, and read as PowerShell.
		t.Shell = event.ShellPowerShell
	}
	switch t.Name {
	case event.ToolFileRead, event.ToolFileWrite, event.ToolFileEdit:
		paths := toolPaths(t, in)
		if t.FilePath == "" && len(paths) > 0 {
			t.FilePath = paths[0]
		}
		if len(paths) > 1 {
			list := make([][]byte, len(paths))
			for i, path := range paths {
				list[i] = wire.Quote(path)
			}
			ev.Set("file_paths", append(append([]byte("["), bytes.Join(list, []byte(","))...), ']'))
		}
	default:
		if t.FilePath == "" {
			t.FilePath = pathIn(in)
		}
	}
}

// pathKeys name a file tool's path, in the order tried.
var pathKeys = []string{"file_path", "filePath", "path", "notebook_path", "absolute_path", "target_file"}

// pathIn is the first of pathKeys that holds a string, or "".
func pathIn(in gjson.Result) string {
	for _, k := range pathKeys {
		if c := in.Get(k); c.Type == gjson.String {
			return c.Str
		}
	}
	return ""
}

// listKeys hold the files of a tool that reads or edits several in one
// call, as strings or as objects with one of pathKeys: VS Code's
// multi_replace_string_in_file (replacements[].filePath), Cline's
// read_files (files[].path, a JSON string from the extension), Gemini's
// read_many_files (paths[] and include[], globs too), Kiro's fs_read
// (operations[].path), edits[] whose entries name their file (those of
// MultiEdit and Windsurf do not: one file, several edits), and the
// file_paths of a canonical event.
var listKeys = []string{"replacements", "files", "paths", "include", "operations", "edits", "file_paths"}

// patchKeys hold a patch in the apply_patch grammar (`*** Update File: x`):
// Codex's command, VS Code's and Copilot's input, OpenCode's patchText.
var patchKeys = []string{"command", "input", "patch", "patchText", "patch_text"}

// toolPaths lists every file a file tool call names, in order and once
// each: the path the provider lifted, the input's own path, each entry of
// a list of files, and each file of a patch. Policies judge every one: a
// multi-file call that showed only its first file would let the others
// through.
func toolPaths(t *event.Tool, in gjson.Result) []string {
	var out []string
	seen := map[string]bool{} // a list may be long: no quadratic search
	add := func(p string) {
		if p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	add(t.FilePath)
	add(pathIn(in))
	for _, k := range listKeys {
		list := in.Get(k)
		if list.Type == gjson.String {
			// The Cline extension sends its lists JSON-encoded.
			if s := strings.TrimSpace(list.Str); strings.HasPrefix(s, "[") && gjson.Valid(s) {
				list = gjson.ParseBytes(provider.LastWins([]byte(s)))
			}
		}
		if !list.IsArray() {
			continue
		}
		list.ForEach(func(_, v gjson.Result) bool {
			switch {
			case v.Type == gjson.String:
				add(v.Str)
			case v.IsObject():
				add(pathIn(v))
			}
			return true
		})
	}
	for _, k := range patchKeys {
		if v := in.Get(k); v.Type == gjson.String {
			for _, path := range patch.Paths(v.Str) {
				add(path)
			}
		}
	}
	return out
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

// powerShellTool reports whether a provider's shell tool of that native
// name runs PowerShell.
func powerShellTool(native string) bool {
	return strings.EqualFold(native, "powershell") || strings.EqualFold(native, "pwsh")
}
