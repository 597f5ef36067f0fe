// Package event defines the canonical event that every provider's payload is
// normalized into, and the canonical names it uses.
//
// Names follow the Hook Interchange Format event registry (core, extended and
// the provider-exclusive events hookshim can receive). The native event name,
// tool name and raw payload always travel along, untouched.
package event

import (
	"strings"

	"github.com/hookshim/hookshim/internal/shellcmd"
	"github.com/hookshim/hookshim/internal/wire"
)

// Name is a canonical event name.
type Name string

// Core events.
const (
	BeforeToolExecute Name = "before_tool_execute"
	AfterToolExecute  Name = "after_tool_execute"
	SessionStart      Name = "session_start"
	SessionEnd        Name = "session_end"
	BeforePrompt      Name = "before_prompt"
	AgentStop         Name = "agent_stop"
)

// Extended events.
const (
	// ToolUseFailure is the failure variant of after_tool_execute: the tool
	// ran and failed (or was blocked). It carries Tool.Error, never Tool.Output.
	ToolUseFailure      Name = "tool_use_failure"
	BeforeCompact       Name = "before_compact"
	AfterCompact        Name = "after_compact"
	Notification        Name = "notification"
	ErrorOccurred       Name = "error_occurred"
	SubagentStart       Name = "subagent_start"
	SubagentStop        Name = "subagent_stop"
	PermissionRequest   Name = "permission_request"
	PermissionDenied    Name = "permission_denied"
	BeforeModel         Name = "before_model"
	AfterModel          Name = "after_model"
	BeforeToolSelection Name = "before_tool_selection"
	FileChanged         Name = "file_changed"
)

// Provider-exclusive events that hookshim receives and lets handlers observe.
const (
	ConfigChange       Name = "config_change"
	InstructionsLoaded Name = "instructions_loaded"
	CwdChanged         Name = "cwd_changed"
	TaskCreated        Name = "task_created"
	TaskCompleted      Name = "task_completed"
	TeammateIdle       Name = "teammate_idle"
	Elicitation        Name = "elicitation"
	ElicitationResult  Name = "elicitation_result"
	FileCreated        Name = "file_created"
	FileDeleted        Name = "file_deleted"
	BeforeTask         Name = "before_task"
	AfterTask          Name = "after_task"
	ManualTrigger      Name = "manual_trigger"
	AfterAgentResponse Name = "after_agent_response"
	Interrupt          Name = "interrupt"
	// The Hook Interchange registry's names of Windsurf's exclusive
	// events (events.md §3).
	WorktreeSetup              Name = "windsurf_worktree_setup"
	WindsurfTranscriptResponse Name = "windsurf_transcript_response"
	// Claude Code's: --init and --maintenance runs, the expansion of a
	// slash command or skill into the prompt, the end of a batch of tool
	// calls, a worktree removed.
	Setup               Name = "setup"
	UserPromptExpansion Name = "user_prompt_expansion"
	AfterToolBatch      Name = "after_tool_batch"
	WorktreeRemove      Name = "worktree_remove"
)

// Names lists every canonical event name hookshim knows, in registry order.
var Names = []Name{
	BeforeToolExecute, AfterToolExecute, SessionStart, SessionEnd, BeforePrompt, AgentStop,
	ToolUseFailure, BeforeCompact, AfterCompact, Notification, ErrorOccurred, SubagentStart,
	SubagentStop, PermissionRequest, PermissionDenied, BeforeModel, AfterModel,
	BeforeToolSelection, FileChanged,
	ConfigChange, InstructionsLoaded, CwdChanged, TaskCreated, TaskCompleted, TeammateIdle,
	Elicitation, ElicitationResult, FileCreated, FileDeleted, BeforeTask, AfterTask,
	ManualTrigger, AfterAgentResponse, Interrupt, WorktreeSetup, WindsurfTranscriptResponse,
	Setup, UserPromptExpansion, AfterToolBatch, WorktreeRemove,
}

// Known reports whether n is a canonical event name.
func Known(n Name) bool {
	for _, k := range Names {
		if k == n {
			return true
		}
	}
	return false
}

// IsTool reports whether the event is about one tool call, so that matchers
// apply to it.
func (n Name) IsTool() bool {
	switch n {
	case BeforeToolExecute, AfterToolExecute, ToolUseFailure, PermissionRequest, PermissionDenied:
		return true
	}
	return false
}

// OpenHookType is the OpenHook 0.1 envelope `type` for a canonical event.
// The five lifecycle types come from the OpenHook spec; events it does not
// define get a dotted lowercase name of their own, as the spec asks.
func (n Name) OpenHookType() string {
	switch n {
	case BeforeToolExecute:
		return "tool.start"
	case AfterToolExecute, ToolUseFailure:
		return "tool.end"
	case BeforePrompt:
		return "prompt.submit"
	case SessionStart:
		return "session.start"
	case SessionEnd:
		return "session.end"
	}
	return "hookshim." + strings.ReplaceAll(string(n), "_", ".")
}

// Canonical tool names (Hook Interchange tool vocabulary). Tools outside the
// vocabulary keep their native name; MCP tools are named mcp__<server>__<tool>.
const (
	ToolShell     = "shell"
	ToolFileRead  = "file_read"
	ToolFileWrite = "file_write"
	ToolFileEdit  = "file_edit"
	ToolSearch    = "search"
	ToolFind      = "find"
	ToolWebSearch = "web_search"
	ToolWebFetch  = "web_fetch"
	ToolAgent     = "agent"
)

// ShellPowerShell is Tool.Shell for a command line PowerShell runs.
const ShellPowerShell = shellcmd.PowerShell

// ToolNames is the canonical tool vocabulary.
var ToolNames = []string{ToolShell, ToolFileRead, ToolFileWrite, ToolFileEdit, ToolSearch, ToolFind, ToolWebSearch, ToolWebFetch, ToolAgent}

// MCP names the server and tool of an MCP tool call.
type MCP struct {
	Server string
	Tool   string
}

// MCPName is the canonical name of an MCP tool.
func MCPName(server, tool string) string { return "mcp__" + server + "__" + tool }

// Tool is the tool call an event is about.
type Tool struct {
	Name   string // canonical name (or the native one when outside the vocabulary)
	Native string // the name the provider used
	// Also are the other canonical names a native tool stands for, when
	// the tool does not tell them apart (Windsurf's write_code both
	// creates and edits files: file_write and file_edit match it).
	Also     []string
	MCP      *MCP
	CallID   string
	Input    []byte // JSON object as the provider sent it (a JSON string is decoded)
	Command  string // shell tools: the command line
	Shell    string // the shell that runs Command: "" (POSIX sh/bash) or "powershell"
	FilePath string // file tools: the path, whatever the native key
	Output   []byte // JSON value: the tool's result (after_tool_execute)
	Error    []byte // JSON value: the failure (tool_use_failure)
	// Unread says why the call's name or input could not be read from a
	// payload that carries several calls ("" when they could): such a
	// call is judged unsure, never passed over.
	Unread string
}

// Field is one extra canonical data field, kept as raw JSON.
type Field struct {
	Key   string
	Value []byte
}

// Event is one hook call in canonical form.
type Event struct {
	Provider       string // provider id
	Native         string // native event name
	Name           Name   // canonical event name; "" when the native event has none
	SessionID      string
	Cwd            string
	ProjectDir     string
	TranscriptPath string
	Model          string
	Tool           *Tool
	Prompt         *string // before_prompt: the prompt text, even when sent as content parts
	Fields         []Field // other per-event fields, in a stable order
	Raw            []byte  // the native payload, untouched

	// Calls are the events of a payload that carries several tool calls
	// at once (VS Code's Agent Host sends toolCalls[]), one per call and
	// in order, each with its own Tool and the payload's other fields;
	// the event itself is then the first of them. nil for a payload of
	// one call; empty when the payload's list holds none.
	Calls []*Event

	// Shell reads Tool.Command for the built-in policies and rules of
	// this call, once for all of them; nil reads it afresh each time.
	Shell *shellcmd.Reader
}

// Set records an extra field; value must be valid JSON.
func (e *Event) Set(key string, value []byte) {
	for i := range e.Fields {
		if e.Fields[i].Key == key {
			e.Fields[i].Value = value
			return
		}
	}
	e.Fields = append(e.Fields, Field{Key: key, Value: value})
}

// SetString records an extra string field.
func (e *Event) SetString(key, s string) { e.Set(key, wire.Quote(s)) }

// Get returns the raw JSON of an extra field, or nil.
func (e *Event) Get(key string) []byte {
	for _, f := range e.Fields {
		if f.Key == key {
			return f.Value
		}
	}
	return nil
}
