package rule

import (
	"path/filepath"
	"strings"
	"sync"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/tidwall/gjson"
)

// Env is what an expression sees: the canonical event, under the names of
// docs/rules.md. A field the event does not carry is empty ("", an empty
// list or map), never missing, so that `file_path endsWith ".env"` is
// simply false on a prompt.
type Env struct {
	Event       string `expr:"event"`        // canonical event name: before_tool_execute, before_prompt, …
	NativeEvent string `expr:"native_event"` // the tool's own event name: PreToolUse, BeforeTool, …
	Provider    string `expr:"provider"`     // the tool's id: claude-code, gemini-cli, …
	SessionID   string `expr:"session_id"`
	Cwd         string `expr:"cwd"`
	ProjectDir  string `expr:"project_dir"` // the project root; cwd when the tool sends none
	Model       string `expr:"model"`
	Prompt      string `expr:"prompt"` // before_prompt: the prompt as text

	Tool       string         `expr:"tool"`        // canonical tool name: shell, file_write, … (the native one outside the vocabulary)
	NativeTool string         `expr:"native_tool"` // the name the tool used: Bash, run_shell_command, …
	MCPServer  string         `expr:"mcp_server"`  // MCP tools: the server
	MCPTool    string         `expr:"mcp_tool"`    // MCP tools: the tool on the server
	Input      map[string]any `expr:"input"`       // the tool's input, as the tool sent it (its own keys)
	Command    string         `expr:"command"`     // shell tools: the command line
	Shell      string         `expr:"shell"`       // shell tools: the shell that runs it: "powershell", or "" for a POSIX shell
	FilePath   string         `expr:"file_path"`   // file tools: the path as the tool sent it
	Path       string         `expr:"path"`        // file_path relative to the project when inside it, else as sent
	Paths      []string       `expr:"paths"`       // every path of the call (path, then those of a multi-file input), relative as path is

	Commands   []Command `expr:"commands"`    // shell tools: the simple commands of the command line (shell.go)
	ShellError string    `expr:"shell_error"` // shell tools: why the command line was not read to its end, or ""

	// Runs is runs(name, words...): a command of the line runs the
	// program name with each of words among its arguments.
	Runs func(name string, words ...string) bool `expr:"runs"`

	// RawInput is the tool's input as sent, for rewrites; not seen by
	// expressions.
	RawInput []byte `expr:"-"`

	once sync.Once
	m    map[string]any
}

// NewEnv builds the environment of one event. It decodes the tool input
// once; every rule of the call shares the result and must not change it.
func NewEnv(ev *event.Event) *Env {
	e := &Env{
		Event:       string(ev.Name),
		NativeEvent: ev.Native,
		Provider:    ev.Provider,
		SessionID:   ev.SessionID,
		Cwd:         ev.Cwd,
		ProjectDir:  ev.ProjectDir,
		Model:       ev.Model,
		Input:       map[string]any{},
		Paths:       []string{},
		Commands:    []Command{},
	}
	e.Runs = e.runs
	if e.ProjectDir == "" {
		e.ProjectDir = e.Cwd
	}
	if ev.Prompt != nil {
		e.Prompt = *ev.Prompt
	}
	t := ev.Tool
	if t == nil {
		return e
	}
	e.Tool, e.NativeTool = t.Name, t.Native
	if t.MCP != nil {
		e.MCPServer, e.MCPTool = t.MCP.Server, t.MCP.Tool
	}
	e.Command, e.Shell, e.FilePath, e.RawInput = t.Command, t.Shell, t.FilePath, t.Input
	if len(t.Input) > 0 {
		// A malformed input leaves the map empty: the event's other fields
		// still decide. Decoded as encoding/json would into a map (numbers
		// as float64), by gjson, which the call has used already: the
		// first use of encoding/json's decoder in a process costs a rule
		// call more than its rules.
		if gjson.ValidBytes(t.Input) {
			if m, ok := value(gjson.ParseBytes(t.Input)).(map[string]any); ok {
				e.Input = m
			}
		}
	}
	if t.Command != "" {
		e.shell(ev.Shell, t.Shell, t.Command, ev.Cwd)
	}
	if t.FilePath != "" {
		e.Path = e.rel(t.FilePath)
		e.Paths = append(e.Paths, e.Path)
	}
	e.Paths = append(e.Paths, e.inputPaths()...)
	// The canonical event lists every file of a multi-file call (patches,
	// replacements, read lists): each is a path of the call too.
	if list := ev.Get("file_paths"); list != nil {
		seen := map[string]bool{}
		for _, p := range e.Paths {
			seen[p] = true
		}
		gjson.ParseBytes(list).ForEach(func(_, v gjson.Result) bool {
			if p := e.rel(v.Str); v.Type == gjson.String && v.Str != "" && !seen[p] {
				seen[p] = true
				e.Paths = append(e.Paths, p)
			}
			return true
		})
	}
	return e
}

// rel makes p relative to the project when it lies inside it.
func (e *Env) rel(p string) string {
	if e.ProjectDir == "" || !filepath.IsAbs(p) {
		return filepath.ToSlash(p)
	}
	r, err := filepath.Rel(e.ProjectDir, p)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(r)
}

// inputPaths are the paths of a tool that takes several files at once:
// a list of strings, or of objects with a `file_path` or `path`, under the
// input key `paths`, `file_paths` or `files`.
func (e *Env) inputPaths() []string {
	var out []string
	for _, key := range []string{"paths", "file_paths", "files"} {
		list, ok := e.Input[key].([]any)
		if !ok {
			continue
		}
		for _, item := range list {
			switch v := item.(type) {
			case string:
				out = append(out, e.rel(v))
			case map[string]any:
				for _, k := range []string{"file_path", "path"} {
					if s, ok := v[k].(string); ok && s != "" {
						out = append(out, e.rel(s))
						break
					}
				}
			}
		}
	}
	return out
}

// vars is the environment as expressions see it, keyed by the expr tags
// above (TestVarsMatchTags keeps the two in step). A map rather than the
// struct: expr compiles a name looked up in a map to a string constant,
// and a struct field to a descriptor it formats with fmt to index it,
// which cost a fifth of compiling a typical rule.
// value is r as encoding/json decodes JSON into an any: a key given twice
// has its last value, as JSON.parse gives it to the tool (gjson's own
// Value keeps the first).
func value(r gjson.Result) any {
	switch {
	case r.IsObject():
		m := map[string]any{}
		r.ForEach(func(k, v gjson.Result) bool {
			m[k.Str] = value(v)
			return true
		})
		return m
	case r.IsArray():
		a := []any{}
		r.ForEach(func(_, v gjson.Result) bool {
			a = append(a, value(v))
			return true
		})
		return a
	}
	return r.Value()
}

func (e *Env) vars() map[string]any {
	e.once.Do(func() {
		e.m = map[string]any{
			"event": e.Event, "native_event": e.NativeEvent, "provider": e.Provider,
			"session_id": e.SessionID, "cwd": e.Cwd, "project_dir": e.ProjectDir, "model": e.Model,
			"prompt": e.Prompt, "tool": e.Tool, "native_tool": e.NativeTool,
			"mcp_server": e.MCPServer, "mcp_tool": e.MCPTool, "input": e.Input,
			"command": e.Command, "shell": e.Shell, "file_path": e.FilePath, "path": e.Path, "paths": e.Paths,
			"commands": e.Commands, "shell_error": e.ShellError, "runs": e.Runs,
		}
	})
	return e.m
}
