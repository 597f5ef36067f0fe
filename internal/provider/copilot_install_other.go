//go:build !windows

package provider

// copilotShell is the command key Copilot runs on this system (see
// copilot_install_windows.go).
const copilotShell = "bash"
