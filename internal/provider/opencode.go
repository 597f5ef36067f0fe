package provider

import (
	_ "embed"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
)

// OpenCode (anomalyco/opencode, npm opencode-ai), through hookshim's plugin
// bridge.
//
// OpenCode has no command hooks (no "hooks" key; issues #1219, #12472,
// #33054): its hooks are functions of in-process JS plugins
// (packages/plugin/src/index.ts, the Hooks interface). hookshim ships a
// plugin, opencode_plugin.js, which forwards plugin hook calls to
// `hookshim run --provider opencode` and applies the answer. The bridge's
// payload is this provider's native payload and its answer format is this
// provider's dialect. Verified against OpenCode 1.18.33 run here
// (the opencode entry of e2e/clients_test.go; testdata/payloads/opencode/README.md) and the
// @opencode-ai/plugin 1.18.33 typings.
//
// Payload (stdin, one JSON object):
//
//	{"hookshim_bridge": "opencode-plugin", "bridge_version": 1,
//	 "hook": "<plugin hook>", "directory": ctx.directory, "worktree": ctx.worktree,
//	 "input": <the hook's input>, "output": <the hook's output, before changes>}
//
// For the plugin's `event` hook, "hook" is "event" and "event" carries the
// bus event {id, type, properties} instead of input/output; only
// session.created, session.idle, session.deleted, session.error and
// file.edited are forwarded. A session created with a parent (a subagent's,
// started by the task tool) adds "parent_session_id", and its created and
// idle events are named subagent.created and subagent.idle here. On
// session.idle the plugin adds "stop_hook_active": true when the idle
// follows a continuation it sent itself (as Claude Code's Stop does).
//
// Native event names are the hook names, or the bus event type for `event`.
// Tool ids are OpenCode's (bash, read, write, edit, apply_patch, grep, glob,
// list, webfetch, websearch, task, ...), arguments are camelCase (filePath,
// oldString), apply_patch carries patchText, and MCP tools are
// <server>_<tool> with the names sanitised to [A-Za-z0-9_-].
//
// Answer (stdout): nothing for no opinion, or {"ops": [...]} applied in
// order, each only where the plugin hook can carry it:
//
//	{"op":"throw","message":s}          tool.execute.before, chat.message: throw Error(s)
//	{"op":"merge_args","args":o,"replace":true}  tool.execute.before: output.args becomes o
//	{"op":"append_output","text":s}     tool.execute.after: append s to output.output
//	{"op":"push_system","text":s}       experimental.chat.system.transform: this request's system prompt
//	{"op":"session_system","text":s}    any: add s to the system prompt of every later request of the session
//	{"op":"push_compaction_context","text":s}  experimental.session.compacting: output.context
//	{"op":"set_permission","status":s}  permission.ask: output.status = allow|deny|ask
//	{"op":"prompt","text":s}            session.idle: send s as a new prompt (continue the session)
//
// What OpenCode 1.18.33 did with each (measured):
//   - a throw in tool.execute.before blocks the call and its message is the
//     tool result the model reads; tool.execute.after then does not run;
//   - a throw in chat.message stops the prompt before any model request, but
//     `opencode run` reports only "Unexpected server error" (exit 1): the
//     reason is in OpenCode's log, and the plugin also shows it as a toast;
//   - mutated output.args run instead of the model's arguments; the model is
//     not told (issue #37963);
//   - output.system additions reach every request, title generation too;
//     text appended to output.output is part of the tool result;
//   - permission.ask is never called (`opencode run` auto-rejects asks), so
//     a policy's ask cannot be put to the user from a tool call;
//   - a prompt sent on session.idle continues the session under
//     `opencode serve` (and the TUI, which runs the same server), but
//     `opencode run` exits on the first idle before it is sent;
//   - tool.execute.after runs only for calls that succeeded (#27900).
//
// Failures of the bridge itself (hookshim missing, a timeout, an exit code
// other than 0, output that is not JSON) are no opinion, unless
// HOOKSHIM_ON_ERROR=deny, which makes the plugin block tool calls and
// prompts instead.
var OpenCode = &Provider{
	ID:        "opencode",
	Name:      "OpenCode",
	Install:   openCodeInstall,
	Verified:  bridgedVerified,
	Signals:   []Signal{Is("hookshim_bridge", openCodeBridgeID, 20), Has("bridge_version", 1)},
	Events:    openCodeEvents,
	EventName: openCodeEvent,
	Fields:    openCodeFields,
	Tools:     openCodeTools,
	SplitMCP:  openCodeMCP,
	Keep:      []Renames{openCodeKeep},
	Adjust:    adjustOpenCode,
	Encode:    encodeOpenCode,
	Timeout:   bridgedTimeout,
}

// A tool that runs OpenCode's plugin API (OpenCode, Kilo) is a literal of
// its own that differs from OpenCode's only in its id, name, install and
// the bridge's id in its payloads: the bridge plugin, named for the tool,
// makes every one of them speak as OpenCode does. (A function that built
// them would run at every start of hookshim, and its call would keep the
// compiler from laying the rest of the table out as data: TestInitCost.)
const (
	// Both bridged tools are driven for real by make e2e.
	bridgedVerified = "run here: make e2e drives the real client, version pinned in e2e/versions.json"
	bridgedTimeout  = 30 * time.Second // the plugin's default HOOKSHIM_<TOOL>_TIMEOUT_MS
)

// The bridge's vocabulary, the same for every tool that runs the plugin
// (OpenCode and its forks).
var openCodeEvents = []Spec{
	{"tool.execute.before", event.BeforeToolExecute, CanDeny | CanRewrite | CanContext},
	{"tool.execute.after", event.AfterToolExecute, CanContext},
	{"chat.message", event.BeforePrompt, CanDeny | CanContext},
	{"permission.ask", event.PermissionRequest, CanDeny | CanAsk | CanAllow},
	{"experimental.chat.system.transform", event.BeforeModel, CanContext},
	{"experimental.session.compacting", event.BeforeCompact, CanContext},
	{"session.created", event.SessionStart, CanContext},
	{"subagent.created", event.SubagentStart, CanContext},
	// Continuing is a new prompt; letting the session rest is what
	// continue:false asks for.
	{"session.idle", event.AgentStop, CanDeny | CanStop},
	{"subagent.idle", event.SubagentStop, 0},
	{"session.deleted", event.SessionEnd, 0},
	{"session.error", event.ErrorOccurred, 0},
	{"file.edited", event.FileChanged, 0},
}

var openCodeFields = Fields{
	SessionID:  "input.sessionID",
	Cwd:        "directory",
	ToolName:   "input.tool",
	ToolInput:  "output.args",
	ToolCallID: "input.callID",
	ToolOutput: "output.output",
	Prompt:     "output.parts",
}

var openCodeTools = Renames{
	{"bash", event.ToolShell},
	{"read", event.ToolFileRead},
	{"write", event.ToolFileWrite},
	{"edit", event.ToolFileEdit},
	{"multiedit", event.ToolFileEdit},
	{"apply_patch", event.ToolFileEdit},
	{"grep", event.ToolSearch},
	{"glob", event.ToolFind},
	{"webfetch", event.ToolWebFetch},
	{"websearch", event.ToolWebSearch},
	{"task", event.ToolAgent},
}

var openCodeKeep = Renames{
	{"stop_hook_active", "stop_hook_active"},
	{"parent_session_id", "parent_session_id"},
	{"worktree", "worktree"},
	{"event.properties.file", "file_path"},
	{"event.properties.error", "error"},
	{"event.properties.info.title", "title"},
	{"input.agent", "agent"},
}

// openCodeEvent names the call: the plugin hook, or the bus event type.
func openCodeEvent(p Payload) string {
	hook := p.Get("hook").Str
	if hook != "event" {
		return hook
	}
	t := p.Get("event.type").Str
	if p.Get("parent_session_id").Str != "" {
		switch t {
		case "session.created":
			return "subagent.created"
		case "session.idle":
			return "subagent.idle"
		}
	}
	return t
}

// Built-in tool ids with an underscore, which are not MCP tools.
var openCodeUnderscored = []string{"apply_patch", "plan_enter", "plan_exit"}

// openCodeMCP splits <server>_<tool> (packages/opencode/src/mcp: both names
// sanitised to [A-Za-z0-9_-], joined by "_"). A server name with an
// underscore cannot be told from its tool's: the split is at the first one.
func openCodeMCP(native string, _ Payload) *event.MCP {
	if slices.Contains(openCodeUnderscored, native) {
		return nil
	}
	server, tool, ok := strings.Cut(native, "_")
	if !ok || server == "" || tool == "" {
		return nil
	}
	return &event.MCP{Server: server, Tool: tool}
}

func adjustOpenCode(p Payload, spec *Spec, ev *event.Event) {
	if ev.SessionID == "" {
		for _, path := range []string{"event.properties.sessionID", "event.properties.info.id"} {
			if s := p.Get(path).Str; s != "" {
				ev.SessionID = s
				break
			}
		}
	}
	if m := p.Get("input.model"); m.IsObject() {
		model := m.Get("modelID").Str
		if model == "" {
			model = m.Get("id").Str
		}
		if prov := m.Get("providerID").Str; prov != "" && model != "" {
			model = prov + "/" + model
		}
		ev.Model = model
	}
	switch spec.Native {
	case "tool.execute.after":
		// After the call the arguments are in input, the result in output.
		if ev.Tool != nil {
			if a := p.Get("input.args"); a.IsObject() {
				ev.Tool.Input = []byte(a.Raw)
			}
			if t := p.Get("output.title"); t.Exists() {
				ev.Set("tool_title", []byte(t.Raw))
			}
		}
	case "permission.ask":
		// input is a Permission: the tool is its type, the details its metadata.
		in := p.Get("input.metadata")
		raw := []byte("{}")
		if in.IsObject() {
			raw = []byte(in.Raw)
		}
		ev.Tool = &event.Tool{Native: p.Get("input.type").Str, CallID: p.Get("input.callID").Str, Input: raw}
		if t := p.Get("input.title"); t.Type == gjson.String {
			ev.Set("title", []byte(t.Raw))
		}
		if pat := p.Get("input.pattern"); pat.Exists() {
			ev.Set("pattern", []byte(pat.Raw))
		}
	case "session.created", "subagent.created":
		ev.SetString("source", "startup")
	}
}

func encodeOpenCode(spec *Spec, v *decision.Verdict) Answer {
	if spec == nil {
		return Answer{}
	}
	var ops []*wire.Object
	op := func(name string) *wire.Object {
		o := &wire.Object{}
		o.Str("op", name)
		ops = append(ops, o)
		return o
	}
	text := func(name, s string) {
		if s != "" {
			op(name).Str("text", s)
		}
	}
	reason := denyReason(v)
	switch spec.Native {
	case "tool.execute.before":
		if v.Decision == decision.Deny {
			op("throw").Str("message", reason)
			break
		}
		if v.UpdatedInput != nil {
			o := op("merge_args")
			o.Raw("args", v.UpdatedInput)
			o.Bool("replace", true)
		}
		text("session_system", v.Context)
	case "tool.execute.after":
		text("append_output", v.Context)
	case "chat.message":
		if v.Decision == decision.Deny {
			op("throw").Str("message", reason)
			break
		}
		text("session_system", v.Context)
	case "permission.ask":
		switch v.Decision {
		case decision.Deny:
			op("set_permission").Str("status", "deny")
		case decision.Allow:
			op("set_permission").Str("status", "allow")
		case decision.Ask:
			op("set_permission").Str("status", "ask")
		}
	case "experimental.chat.system.transform":
		text("push_system", v.Context)
	case "experimental.session.compacting":
		text("push_compaction_context", v.Context)
	case "session.created", "subagent.created":
		text("session_system", v.Context)
	case "session.idle":
		if v.Decision == decision.Deny && !v.Stop {
			text("prompt", reason)
		}
	}
	return opsAnswer(ops)
}

// opsAnswer is a bridge's answer: {"ops": [...]}, or nothing for no ops.
// One shape for every bridge (OpenCode's, Kilo's and Pi's plugins).
func opsAnswer(ops []*wire.Object) Answer {
	if len(ops) == 0 {
		return Answer{}
	}
	list := make([]json.RawMessage, len(ops))
	for i, o := range ops {
		list[i] = o.Bytes()
	}
	arr, _ := json.Marshal(list)
	top := &wire.Object{}
	top.Raw("ops", arr)
	return JSON(top)
}

//go:embed opencode_plugin.js
var openCodePluginSrc string

// openCodePluginJS is the plugin's source as written into the tool's
// folder; built when a plugin is rendered, not at every hookshim start.
func openCodePluginJS() string { return withBridgeCall(openCodePluginSrc) }

//go:embed bridge_call.js
var bridgeCallJS string

// withBridgeCall is a bridge's source with the part every bridge shares
// (bridge_call.js: running hookshim, bounded in time and output) in place
// of its "// hookshim:call" line: one copy for OpenCode's, Kilo's and Pi's.
func withBridgeCall(src string) string {
	return strings.Replace(src, "// hookshim:call\n", bridgeCallJS, 1)
}

// OpenCodePluginMarker is the first line of the generated plugin, by which
// hookshim knows the file as its own.
const OpenCodePluginMarker = "// hookshim bridge for OpenCode (bridge_version 1)"

// openCodeDefaultCommand is the command line the plugin source runs unless
// rendered with another.
const openCodeDefaultCommand = `"hookshim run --provider opencode" // hookshim:command`

// OpenCodePlugin renders the bridge plugin that runs command (a shell
// command line such as `/usr/local/bin/hookshim run --provider opencode`).
// HOOKSHIM_OPENCODE_COMMAND still overrides it at run time.
func OpenCodePlugin(command string) []byte {
	return bridgePlugin(openCodeBridge, command)
}

// bridge is one tool's copy of the plugin: every tool that runs OpenCode's
// plugin API gets the same source, under its own name, with its own
// payload id (hookshim_bridge, the provider's detection signal) and its
// own environment variables, so that one tool's settings never redirect
// another's plugin.
type bridge struct {
	name      string // the tool, in the marker line and the header
	id        string // hookshim_bridge in the payload
	envPrefix string // of the plugin's environment variables
}

var openCodeBridge = bridge{name: "OpenCode", id: openCodeBridgeID, envPrefix: "HOOKSHIM_OPENCODE_"}

const openCodeBridgeID = "opencode-plugin"

// The parts of opencode_plugin.js that name the tool (a test checks that
// each is there exactly once).
const (
	bridgeHeader = "// OpenCode has no command hooks, only in-process plugins."
	bridgeIDKey  = `hookshim_bridge: "opencode-plugin"`
)

// bridgePlugin renders the plugin for b, running command.
func bridgePlugin(b bridge, command string) []byte {
	q, _ := json.Marshal(command)
	src := strings.Replace(openCodePluginJS(), openCodeDefaultCommand, string(q)+" // hookshim:command", 1)
	src = strings.Replace(src, OpenCodePluginMarker, "// hookshim bridge for "+b.name+" (bridge_version 1)", 1)
	src = strings.Replace(src, bridgeHeader, "// "+b.name+" has no command hooks, only in-process plugins.", 1)
	src = strings.Replace(src, bridgeIDKey, `hookshim_bridge: "`+b.id+`"`, 1)
	src = strings.ReplaceAll(src, "HOOKSHIM_OPENCODE_", b.envPrefix)
	return []byte(src)
}
