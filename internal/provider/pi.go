package provider

import (
	_ "embed"
	"encoding/json"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/wire"
)

// Pi (badlogic's pi coding agent, npm @mariozechner/pi-coding-agent),
// through hookshim's extension bridge.
//
// Pi has no command hooks: its hooks are handlers that TypeScript or
// JavaScript extensions register with pi.on(event, handler)
// (docs/extensions.md and dist/core/extensions/types.d.ts of the package).
// hookshim ships an extension, pi_extension.js, which forwards the events
// below to `hookshim run --provider pi` and applies the answer. The
// bridge's payload is this provider's native payload and its answer format
// is this provider's dialect. Verified against Pi 0.73.1 run here (the pi
// entry of e2e/clients_test.go; testdata/payloads/pi/README.md).
//
// Payload (stdin, one JSON object):
//
//	{"hookshim_bridge": "pi-extension", "bridge_version": 1,
//	 "session_id": ctx.sessionManager.getSessionId(), "cwd": ctx.cwd,
//	 "has_ui": ctx.hasUI, "event": <Pi's event object>}
//
// The event object is Pi's own, {type, ...}: session_start {reason},
// input {text, source}, tool_call {toolName, toolCallId, input},
// tool_result {toolName, toolCallId, input, content[], isError},
// agent_end {}, session_before_compact {customInstructions?},
// session_shutdown {reason}. Fields that are large or not data
// (systemPrompt, messages, branchEntries, preparation, signal) are left
// out. The native event name is event.type.
//
// Answer (stdout): nothing for no opinion, or {"ops": [...]}, each op
// applied only where Pi's handler can carry it:
//
//	{"op":"block","reason":s}      tool_call: {block: true, reason: s};
//	                               input: {action: "handled"} (the prompt
//	                               never reaches the model; s goes to the
//	                               user); session_before_compact: {cancel: true}
//	{"op":"ask","reason":s}        tool_call: ctx.ui.confirm where Pi has a
//	                               UI, else (-p, json mode) a block
//	{"op":"set_input","input":o}   tool_call: event.input becomes o (Pi runs
//	                               the mutated input, without re-validation)
//	{"op":"context","text":s}      tool_result: appended to the result's
//	                               content; tool_call: appended to that
//	                               call's result; session_start, input: a
//	                               message the model reads with the prompt
//	                               (before_agent_start's message)
//
// What Pi 0.73.1 did with each (measured, make e2e): a block on tool_call
// keeps the call from running and its reason is the tool result the model
// reads; a mutated input runs instead; content added in tool_result is part
// of the tool result; before_agent_start's message reaches the model as a
// user message after the prompt. In -p every event above but
// session_before_compact fired.
//
// Failures of the bridge itself (hookshim missing, a timeout, an exit code
// other than 0, output that is not JSON) are no opinion, unless
// HOOKSHIM_ON_ERROR=deny, which makes the extension block tool calls and
// prompts instead.
var Pi = &Provider{
	ID:       "pi",
	Name:     "Pi",
	Verified: "run here: make e2e drives the real client, version pinned in e2e/versions.json",
	Install:  piInstall,
	Signals: []Signal{
		Is("hookshim_bridge", piBridgeID, 20),
		Has("bridge_version", 1),
	},
	Events: []Spec{
		{"session_start", event.SessionStart, CanContext},
		{"input", event.BeforePrompt, CanDeny | CanContext},
		{"tool_call", event.BeforeToolExecute, CanDeny | CanAsk | CanRewrite | CanContext},
		{"tool_result", event.AfterToolExecute, CanContext},
		{"agent_end", event.AgentStop, 0},
		{"session_before_compact", event.BeforeCompact, CanDeny},
		{"session_shutdown", event.SessionEnd, 0},
	},
	EventName: func(p Payload) string { return p.Get("event.type").Str },
	Fields: Fields{
		SessionID:  "session_id",
		Cwd:        "cwd",
		ToolName:   "event.toolName",
		ToolInput:  "event.input",
		ToolCallID: "event.toolCallId",
		ToolOutput: "event.content",
		Prompt:     "event.text",
	},
	Tools: Renames{
		{"bash", event.ToolShell},
		{"read", event.ToolFileRead},
		{"write", event.ToolFileWrite},
		{"edit", event.ToolFileEdit},
		{"grep", event.ToolSearch},
		{"find", event.ToolFind},
	},
	Keep: []Renames{{
		{"event.reason", "reason"},
		{"event.source", "prompt_source"},
		{"event.isError", "tool_error"},
		{"event.customInstructions", "custom_instructions"},
	}},
	Adjust: func(p Payload, spec *Spec, ev *event.Event) {
		// Pi says why a session starts as Claude's SessionStart source does
		// (startup, resume, new, fork, reload).
		if spec.Native == "session_start" {
			ev.SetString("source", p.Get("event.reason").Str)
		}
	},
	Encode:  encodePi,
	Timeout: 30 * time.Second, // the extension's default HOOKSHIM_PI_TIMEOUT_MS
}

const piBridgeID = "pi-extension"

func encodePi(spec *Spec, v *decision.Verdict) Answer {
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
	context := func() {
		if v.Context != "" {
			op("context").Str("text", v.Context)
		}
	}
	switch spec.Native {
	case "tool_call":
		switch {
		case v.Decision == decision.Deny:
			op("block").Str("reason", denyReason(v))
		case v.Decision == decision.Ask:
			op("ask").Str("reason", denyReason(v))
		case v.UpdatedInput != nil:
			op("set_input").Raw("input", v.UpdatedInput)
		}
		if v.Decision != decision.Deny {
			context()
		}
	case "input":
		if v.Decision == decision.Deny {
			op("block").Str("reason", denyReason(v))
			break
		}
		context()
	case "session_before_compact":
		if v.Decision == decision.Deny {
			op("block").Str("reason", denyReason(v))
		}
	case "session_start", "tool_result":
		context()
	}
	return opsAnswer(ops)
}

//go:embed pi_extension.js
var piExtensionSrc string

// piExtensionJS is the extension's source as written into Pi's folder
// (see withBridgeCall).
func piExtensionJS() string { return withBridgeCall(piExtensionSrc) }

// PiExtensionMarker is the first line of the generated extension, by which
// hookshim knows the file as its own.
const PiExtensionMarker = "// hookshim bridge for Pi (bridge_version 1)"

// piDefaultCommand is the command line the extension source runs unless
// rendered with another.
const piDefaultCommand = `"hookshim run --provider pi" // hookshim:command`

// PiExtension renders the bridge extension that runs command (a shell
// command line such as `/usr/local/bin/hookshim run --provider pi`).
// HOOKSHIM_PI_COMMAND still overrides it at run time.
func PiExtension(command string) []byte {
	q, _ := json.Marshal(command)
	return []byte(strings.Replace(piExtensionJS(), piDefaultCommand, string(q)+" // hookshim:command", 1))
}
