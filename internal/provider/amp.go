package provider

import (
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
)

// Amp (Sourcegraph's coding agent, binary amp).
//
// Amp has no hooks, but a permission rule may delegate its decision to an
// outside program. Not run here (it needs an Amp account); read in the
// bundle of npm @sourcegraph/amp 0.0.1776788459-gfad969 (dist/main.js: the
// permission evaluation and the delegate spawn) and in the manual's
// appendix (ampcode.com/manual/appendix, "Permissions"):
//   - rules live in the amp.permissions setting, an ordered list of
//     {tool (a glob on the tool name), matches?, action: "allow" |
//     "reject" | "ask" | "delegate", context?, to?}; the first rule that
//     matches a call decides, before Amp's built-in rules;
//   - "delegate" spawns the program named by "to" (a path, ~ expanded)
//     with NO arguments and without a shell, writes the tool's parameters
//     to its stdin as JSON, and sets AGENT=amp, AGENT_TOOL_NAME,
//     AGENT_TOOL_USE_ID and AMP_THREAD_ID beside Amp's own environment;
//   - exit 0 allows the call, exit 1 asks the operator, any other exit
//     rejects it with stderr as the message; a program that cannot start
//     or runs past 10 seconds rejects it too.
//
// Since "to" takes no arguments, install writes a small bridge script
// (amp_install.go) that wraps the parameters and those variables into one
// JSON object, {"hookshim_bridge": "amp-delegate", "tool_name",
// "tool_use_id", "thread_id", "tool_input"}, and pipes it to `hookshim
// run --provider amp`. That object is the payload below.
//
// Answers are exit codes only: a denial exits 2 with the reason on stderr,
// an explicit allow exits 0, and everything else, "no opinion" and
// hookshim's own failures included, exits 1: the rule took the call away
// from Amp's own rules, and asking the operator is what Amp does for a
// call no rule decides. An allow must come from a handler.
var Amp = &Provider{
	ID:       "amp",
	Name:     "Amp",
	Verified: "from source (npm @sourcegraph/amp 0.0.1776788459-gfad969, dist/main.js) and docs (https://ampcode.com/manual/appendix); not run here",
	Install:  ampInstall,
	Signals: []Signal{
		Is("hookshim_bridge", "amp-delegate", 20),
		EnvIs("AGENT", "amp", 2),
	},
	Events: []Spec{
		{"delegate", event.BeforeToolExecute, CanDeny | CanAsk | CanAllow},
	},
	EventName: func(p Payload) string {
		if p.Get("hookshim_bridge").Str == "amp-delegate" {
			return "delegate"
		}
		return ""
	},
	Fields: Fields{
		SessionID:  "thread_id",
		ToolName:   "tool_name",
		ToolInput:  "tool_input",
		ToolCallID: "tool_use_id",
	},
	// Amp's built-in tools (the bundle's tool definitions).
	Tools: Renames{
		{"Bash", event.ToolShell},
		{"Read", event.ToolFileRead},
		{"create_file", event.ToolFileWrite},
		{"edit_file", event.ToolFileEdit},
		{"Grep", event.ToolSearch},
		{"glob", event.ToolFind},
		{"web_search", event.ToolWebSearch},
		{"read_web_page", event.ToolWebFetch},
		{"Task", event.ToolAgent},
	},
	SplitMCP:    splitDoubleUnderscore,
	Encode:      encodeAmp,
	NeutralExit: ampAsk,
	Timeout:     10 * time.Second, // Amp kills a delegate after 10 s, and rejects the call
}

// encodeAmp answers with the exit code alone.
func encodeAmp(spec *Spec, v *decision.Verdict) Answer {
	switch {
	case spec != nil && v.Decision == decision.Deny:
		reason := strings.TrimSpace(v.Reason)
		if reason == "" {
			reason = "blocked by hookshim"
		}
		return Answer{Stderr: reason + "\n", Exit: 2}
	case spec != nil && v.Decision == decision.Allow:
		return Answer{Exit: 0}
	}
	return Answer{Exit: ampAsk}
}

// ampAsk is the exit code by which a delegate program asks the operator:
// hookshim's neutral answer to Amp.
const ampAsk = 1
