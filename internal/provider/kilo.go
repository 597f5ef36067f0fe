package provider

// Kilo Code CLI (Kilo-Org/kilocode, npm @kilocode/cli 7.x), through
// hookshim's plugin bridge.
//
// Kilo CLI 7 is a fork of OpenCode and has no command hooks: the binary
// knows none of Claude's event names, and the requests for them
// (Kilo-Org/kilocode#7859, #11852) are open; the old CLI's Claude-style
// hooks (PR #5335) were never merged. Its extension surface is OpenCode's
// plugin API, so hookshim ships the OpenCode bridge plugin
// (opencode_plugin.js) under Kilo's name: the payload, the native events
// (the plugin hook names and bus event types), the tool ids and arguments
// and the answer ops are OpenCode's (opencode.go), except that the payload
// says "hookshim_bridge": "kilo-plugin" and the plugin reads
// HOOKSHIM_KILO_COMMAND, HOOKSHIM_KILO_TIMEOUT_MS and HOOKSHIM_ON_ERROR.
// Sources: packages/opencode/src/config/paths.ts of Kilo-Org/kilocode (the
// config folders) and @kilocode/cli 7.7, where an OpenCode bridge plugin ran
// unchanged (testdata/payloads/kilo/README.md says which payloads were
// recorded from it).
var Kilo = &Provider{
	ID:        "kilo",
	Name:      "Kilo Code CLI",
	Install:   kiloInstall,
	Verified:  bridgedVerified,
	Signals:   []Signal{Is("hookshim_bridge", kiloBridgeID, 20), Has("bridge_version", 1)},
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

var kiloBridge = bridge{name: "Kilo", id: kiloBridgeID, envPrefix: "HOOKSHIM_KILO_"}

const kiloBridgeID = "kilo-plugin"

// KiloPluginMarker is the first line of Kilo's copy of the plugin.
const KiloPluginMarker = "// hookshim bridge for Kilo (bridge_version 1)"

// KiloPlugin renders the bridge plugin for Kilo that runs command (a shell
// command line such as `/usr/local/bin/hookshim run --provider kilo`).
// HOOKSHIM_KILO_COMMAND still overrides it at run time.
func KiloPlugin(command string) []byte {
	return bridgePlugin(kiloBridge, command)
}
