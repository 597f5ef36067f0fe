package provider

import (
	"time"

	"github.com/hookshim/hookshim/internal/event"
)

// Tabnine CLI (Tabnine's agent in the terminal, a fork of Gemini CLI).
//
// Not run here: it is not in the registries this project reaches and needs
// a Tabnine login. From docs.tabnine.com main/getting-started/tabnine-cli/
// features/hooks (configuration, event reference, examples and best
// practices):
//   - Gemini CLI's hook system under Tabnine's names: the same events
//     (BeforeTool, AfterTool, BeforeAgent, AfterAgent, BeforeModel,
//     AfterModel, BeforeToolSelection, SessionStart, SessionEnd,
//     Notification, PreCompress), the same stdin (hook_event_name,
//     session_id, cwd, transcript_path, timestamp, tool_name, tool_input,
//     tool_response, prompt...), the same built-in tool names
//     (run_shell_command, write_file, replace...) and the same answer: a
//     top-level "decision": "deny" with "reason" (the docs' preferred
//     block, "over exit code 2"), hookSpecificOutput.tool_input,
//     additionalContext, continue/stopReason, systemMessage;
//   - the hook's environment has TABNINE_PROJECT_DIR (the docs' example
//     commands use it) and TABNINE_CLI=1, where Gemini CLI sets GEMINI_*;
//   - timeouts are in milliseconds, as Gemini CLI's.
//
// So hookshim answers Tabnine as it answers Gemini CLI, with the
// capabilities measured on Gemini CLI 0.61.0 (gemini.go), which the fork is
// assumed to keep.
//
// Detection: the payload is Gemini CLI's, so only Tabnine's own marks tell
// them apart: a transcript under ~/.tabnine/, and the TABNINE_* variables,
// which Tabnine sets for every hook it runs and which outweigh the shape
// and a --provider hint.
var Tabnine = &Provider{
	ID:       "tabnine",
	Name:     "Tabnine CLI",
	Verified: "from docs (https://docs.tabnine.com/main/getting-started/tabnine-cli/features/hooks), answers as measured on Gemini CLI, which it forks; not run here",
	Install:  tabnineInstall,
	Signals: []Signal{
		OneOf("hook_event_name", 8, "BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent",
			"BeforeModel", "AfterModel", "BeforeToolSelection", "PreCompress"),
		{Weight: 10, desc: `transcript_path is under "/.tabnine/"`, test: func(p Payload) bool {
			return containsPath(p.Get("transcript_path").Str, "/.tabnine/")
		}},
		Has("permission_mode", -2),
		// Set for every hook Tabnine runs: either one must win over Gemini
		// CLI's identical payload, Gemini's own marks included, and over a
		// --provider gemini-cli hint (HintWeight). The payloads are the
		// same shape, so reading one as the other loses nothing.
		EnvSet("TABNINE_PROJECT_DIR", 20),
		EnvIs("TABNINE_CLI", "1", 20),
	},
	// Gemini CLI's events, answers and fields, as forked (the table and
	// its notes are Gemini's).
	Events:    geminiEvents,
	EventName: hookEventName,
	Fields:    geminiFields,
	Tools: Renames{
		{"run_shell_command", event.ToolShell},
		{"read_file", event.ToolFileRead},
		{"read_many_files", event.ToolFileRead},
		{"write_file", event.ToolFileWrite},
		{"replace", event.ToolFileEdit},
		{"grep_search", event.ToolSearch},
		{"glob", event.ToolFind},
		{"list_directory", event.ToolFind},
		{"web_fetch", event.ToolWebFetch},
	},
	SplitMCP: geminiMCP,
	Keep: []Renames{{
		{"source", "source"},
		{"reason", "reason"},
		{"trigger", "trigger"},
		{"message", "message"},
		{"notification_type", "notification_type"},
		{"details", "details"},
		{"stop_hook_active", "stop_hook_active"},
		{"prompt_response", "last_assistant_message"},
		{"llm_request", "llm_request"},
		{"llm_response", "llm_response"},
	}},
	Encode:        encodeGemini,
	Dialect:       tabnineDialect,
	ProjectDirEnv: []string{"TABNINE_PROJECT_DIR"},
	Timeout:       30 * time.Second, // what tabnine_install.go writes
}

// tabnineDialect is what a hook written for Tabnine CLI reads: Gemini
// CLI's payload (an ISO timestamp on every event, Gemini's MCP names and
// mcp_context), run and answered as Gemini CLI runs and answers its hooks,
// which the fork is assumed to keep. Its variables are TABNINE_PROJECT_DIR
// (ProjectDirEnv) and TABNINE_CLI=1; Gemini's GEMINI_* are not documented
// for it and are not set.
var tabnineDialect = &Dialect{
	EventKey: "hook_event_name",
	Always:   Renames{{"timestamp", FromNow}},
	Env:      Renames{{"TABNINE_CLI", Literal("1")}},
	Shell:    geminiShell,
	MCPName:  geminiMCPName,
	Finish:   finishGemini,
	Read:     readGemini,
}
