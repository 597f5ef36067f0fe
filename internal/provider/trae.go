package provider

import (
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
)

// Trae (ByteDance's IDE, international and CN editions).
//
// No Trae could be run here (an IDE, no CLI in any registry), and the hook
// reference page was not readable; what is known:
//   - docs.trae.cn ide_automate-actions-with-hooks (and the enterprise
//     page, whose HTTP hooks POST the same JSON): six events and what each
//     is for. SessionStart adds context; UserPromptSubmit blocks or adds
//     context; PreToolUse checks, blocks, rewrites the tool's parameters or
//     asks the user; PostToolUse adds context after a tool ran; Stop blocks
//     the stop so the agent goes on; Notification is asynchronous and
//     blocks nothing;
//   - rtk-ai/rtk (src/hooks/init/trae.rs, the Trae arm of its hook
//     command): the config is Claude's groups under a required
//     "version": 1, the shell tool is RunCommand with tool_input.command,
//     and a rewrite is Claude's hookSpecificOutput.updatedInput.
//
// So the stdin is taken to be Claude's (hook_event_name, session_id, cwd,
// tool_name, tool_input, tool_response, prompt) and the answer is written
// in Claude's dialect. Because the exact output fields were not read, a
// denial is said both ways Claude-shaped tools understand: exit 2 with the
// reason on stderr, and the JSON decision on stdout.
//
// Detection: Trae's PascalCase tool names (RunCommand, ReadFile,
// WriteFile) are the only marker known. SessionStart, UserPromptSubmit,
// Stop and Notification carry no tool, and nothing read tells their
// payloads from Claude Code's, so they are not declared here: the
// registration for them would be answered in Claude's dialect only after
// detection guessed, and install does not write them. Add them when a
// capture shows what sets Trae's payloads apart.
var Trae = &Provider{
	ID:      "trae",
	Name:    "Trae",
	Install: traeInstall,
	Signals: []Signal{
		OneOf("tool_name", 6, "RunCommand", "ReadFile", "WriteFile"),
	},
	Events: []Spec{
		{"PreToolUse", event.BeforeToolExecute, CanDeny | CanAsk | CanAllow | CanRewrite},
		{"PostToolUse", event.AfterToolExecute, CanContext},
	},
	EventName: hookEventName,
	Fields:    claudeFields,
	Tools: Renames{
		{"RunCommand", event.ToolShell},
		{"ReadFile", event.ToolFileRead},
		{"WriteFile", event.ToolFileWrite},
	},
	SplitMCP: splitDoubleUnderscore,
	Keep:     []Renames{claudeKeep},
	Adjust:   adjustClaudeDialect,
	Dialect:  traeDialect,
	Encode:   encodeTrae,
	Timeout:  30 * time.Second,
}

// traeDialect is what a Trae hook reads: Claude's format (its own tool
// names), Claude's answers.
var traeDialect = &Dialect{
	EventKey: "hook_event_name",
	Read:     readTrae,
}

// readTrae reads a Trae hook's answer (claudeReader).
func readTrae(spec *Spec, exit int, stdout []byte, stderr string) (decision.Output, error) {
	return claudeReader{tool: "Trae"}.read(spec, exit, stdout, stderr)
}

// encodeTrae answers by Claude Code's contract; only exit 2 blocks a tool.
func encodeTrae(spec *Spec, v *decision.Verdict) Answer {
	return claudeStyle{explicitAllow: true, exitBlock: []string{"PreToolUse"}}.encode(spec, v)
}
