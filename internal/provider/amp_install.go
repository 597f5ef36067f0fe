package provider

import "strings"

// Where Amp finds hookshim (the bundle of npm @sourcegraph/amp
// 0.0.1776788459-gfad969 and ampcode.com/manual/appendix):
//   - a permission rule {"tool": …, "action": "delegate", "to": PROGRAM}
//     in amp.permissions of ~/.config/amp/settings.json (XDG_CONFIG_HOME
//     moves ~/.config; a workspace's .amp/settings.json is read too);
//   - PROGRAM is run without arguments and without a shell, so it cannot
//     be `hookshim run --provider amp` itself: install writes the bridge
//     script ~/.config/amp/hookshim-delegate, which runs that command, and
//     its note gives the rule to add. Editing amp.permissions is left to
//     the user: it is an ordered list whose first match wins, and where a
//     new rule belongs in it is theirs to say;
//   - the script is POSIX sh, so this does not work on Windows;
//   - Amp gives a delegate 10 seconds and has no setting for it.
var ampInstall = &Install{
	Targets: []Target{
		{Scope: ScopeUser, Dir: ".config/amp", DirEnv: "XDG_CONFIG_HOME", DirSub: "amp", File: "hookshim-delegate", Format: &ampFormat, Mode: 0o755},
	},
	Binaries: []string{"amp"},
	Homes:    []string{".config/amp", ".local/share/amp"},
	Notes: []Note{
		{ScopeUser, `add a rule to "amp.permissions" in ~/.config/amp/settings.json, before the rules it should overrule: {"tool": "Bash", "action": "delegate", "to": "~/.config/amp/hookshim-delegate"} (another "tool" glob, "*" for every tool, hands those calls to hookshim too; a call no handler allows is then put to you)`},
	},
}

var ampFormat = Format{
	Layout: LayoutGenerated,
	Render: AmpBridge,
	Marker: ampBridgeMarker,
}

// ampBridgeMarker is the bridge script's second line, by which install
// knows it as hookshim's.
const ampBridgeMarker = "# hookshim bridge for Amp"

// AmpBridge renders the delegate script that runs command (`hookshim run
// --provider amp`, shell-quoted) with the payload the amp provider reads.
// A variable holding a character outside a conservative set is sent empty
// rather than quoted by hand: hookshim then sees no tool name, and asks.
func AmpBridge(command string) []byte {
	return []byte(strings.Replace(ampBridgeScript, "{{command}}", command, 1))
}

const ampBridgeScript = `#!/bin/sh
` + ampBridgeMarker + ` (bridge_version 1): written by hookshim install --provider amp; do not edit.
# Amp runs a permission rule's delegate program with no arguments, the
# tool's parameters as JSON on stdin, and the tool's name, call id and
# thread in AGENT_TOOL_NAME, AGENT_TOOL_USE_ID and AMP_THREAD_ID. This
# hands all of it to hookshim as one JSON object; hookshim's exit code is
# Amp's answer: 0 allow, 1 ask, 2 reject.
safe() {
	case $1 in
	*[!A-Za-z0-9_.:@/-]*) ;;
	*) printf '%s' "$1" ;;
	esac
}
payload() {
	printf '{"hookshim_bridge":"amp-delegate","tool_name":"%s","tool_use_id":"%s","thread_id":"%s","tool_input":' \
		"$(safe "$AGENT_TOOL_NAME")" "$(safe "$AGENT_TOOL_USE_ID")" "$(safe "$AMP_THREAD_ID")"
	cat
	printf '}\n'
}
payload | exec {{command}}
`
