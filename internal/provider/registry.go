package provider

import (
	"path/filepath"
	"strings"

	"github.com/hookshim/hookshim/internal/event"
)

// All is every provider, in detection order: when two score the same, the
// earlier one wins, so tools whose payloads others imitate come later.
var All = []*Provider{
	Claude,
	Gemini,
	Codex,
	Cursor,
	Kimi,
	OpenCode,
	Windsurf,
	Kiro,
	Droid,
	Qwen,
	Cline,
	Copilot,
	VSCode,
	Amplifier,
	Vibe,
	OpenHands,
	DockerAgent,
	Antigravity,
	Trae,
	Goose,
	Hermes,
	Crush,
	Auggie,
	Letta,
	Kilo,
	CodeBuddy,
	Qoder,
	DevinCLI,
	Pi,
	Grok,
	Tabnine,
	CortexCode,
	Junie,
	Amp,
	Jan,
}

// aliases are the short names people type.
var aliases = Renames{
	{"claude", "claude-code"},
	{"gemini", "gemini-cli"},
	{"copilot", "copilot-cli"},
	{"vscode", "vscode-copilot"},
	{"kimi", "kimi-code"},
	{"droid", "factory-droid"},
	{"factory", "factory-droid"},
	{"qwen", "qwen-code"},
	{"devin", "windsurf"},
	{"vibe", "mistral-vibe"},
	{"augment", "auggie"},
	{"letta", "letta-code"},
	{"grok-build", "grok"},
	{"tabnine-cli", "tabnine"},
	{"cortex", "cortex-code"},
}

// Lookup finds a provider by id or alias.
func Lookup(id string) *Provider {
	id = strings.ToLower(strings.TrimSpace(id))
	if a, ok := aliases.Get(id); ok {
		id = a
	}
	for _, p := range All {
		if p.ID == id {
			return p
		}
	}
	return nil
}

// IDs lists the provider ids, in registry order.
func IDs() []string {
	ids := make([]string, len(All))
	for i, p := range All {
		ids[i] = p.ID
	}
	return ids
}

// containsPath reports whether a path contains the slash-separated segment,
// whatever the platform's separator.
func containsPath(path, segment string) bool {
	return strings.Contains(filepath.ToSlash(path), segment)
}

// isISOTime reports whether s looks like an ISO 8601 timestamp
// (2026-11-22T07:33:49...), which several tools send and others never do.
func isISOTime(s string) bool {
	if len(s) < 19 {
		return false
	}
	for i, c := range s[:19] {
		switch i {
		case 4, 7:
			if c != '-' {
				return false
			}
		case 10:
			if c != 'T' {
				return false
			}
		case 13, 16:
			if c != ':' {
				return false
			}
		default:
			if c < '0' || c > '9' {
				return false
			}
		}
	}
	return true
}

// splitSingleUnderscore splits mcp_<server>_<tool> (Gemini CLI, VS Code)
// at the first underscore after the prefix: right unless the server name
// has one.
func splitSingleUnderscore(native string, _ Payload) *event.MCP {
	rest, ok := strings.CutPrefix(native, "mcp_")
	if !ok {
		return nil
	}
	server, tool, ok := strings.Cut(rest, "_")
	if !ok || server == "" || tool == "" {
		return nil
	}
	return &event.MCP{Server: server, Tool: tool}
}
