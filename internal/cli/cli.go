// Package cli is the hookshim command line. Main takes its streams and
// environment as arguments, so that the whole CLI runs in tests as it runs
// for users.
package cli

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// Version is set at link time (-X github.com/hookshim/hookshim/internal/cli.Version=v1.2.3);
// otherwise it comes from the module's build info.
var Version = ""

func version() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

const usage = `hookshim: one hook binary for every AI coding tool

Usage:
  hookshim run [--provider ID] [--event NAME] [--config FILE] [--explain]
      Answer one hook call: read the tool's payload on stdin, run the
      handlers of .openhook.json that match, print the tool's answer.
      This is the command each tool's hook config calls.
  hookshim simulate [--provider ID --event NAME [--tool-input JSON] [--config FILE]]
      Without arguments: feed every tool's sample payloads through the real
      pipeline with a built-in example policy and show each answer.
      With --provider and --event: simulate one call against your config.
  hookshim allow [PATH]
      Allow the project's .openhook.json (and the scripts it runs) as it is
      now. Any later change needs a new allow.
  hookshim deny [PATH]
      Never run that config, whatever its content.
  hookshim trust [status] [PATH]
      Show whether a config may run.
  hookshim install --provider ID|--all [--scope project|user] [--dir DIR]
                   [--events LIST] [--bin PATH] [--dry-run] [--check]
      Register hookshim in the tool's own hook config, for every event it
      handles, calling this binary by absolute path. Other entries and the
      file's layout stay as they are; a second install changes nothing.
      --dry-run prints a diff; --check exits 1 when the registration is
      missing or stale (for CI and dotfiles).
  hookshim uninstall --provider ID|--all [--scope project|user] [--dir DIR] [--dry-run]
      Remove what install wrote, and nothing else.
  hookshim status [--provider ID] [--dir DIR]
      Show, per tool and scope, where hookshim is registered, for which
      events, and whether the registration is current.
  hookshim providers [--events]
      List the tools hookshim speaks to and their events.
  hookshim version

Environment:
  HOOKSHIM_CONFIG   config file to use instead of discovery
  HOOKSHIM_LOG      file to append one JSON line per call to
  HOOKSHIM_DISABLE  set to 1 to answer "no opinion" without running handlers
  HOOKSHIM_SKIP     comma-separated handler names not to run
  HOOKSHIM_ON_ERROR set to deny to make hookshim's own failures block (fail-closed)
  HOOKSHIM_TRUST_ALL set to 1 to run project configs without 'hookshim allow'
                    (for CI and throwaway machines: a cloned repo then runs its
                    hooks on your machine)

Examples:
  hookshim simulate
  echo '{"hook_event_name":"PreToolUse",...}' | hookshim run --provider claude-code --explain
  hookshim simulate --provider gemini-cli --event BeforeTool --tool-input '{"command":"rm -rf /"}'

Docs: README.md, docs/config.md, docs/providers.md
`

// Main runs hookshim and returns its exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "run":
		return cmdRun(rest, stdin, stdout, stderr, getenv)
	case "simulate":
		return cmdSimulate(rest, stdout, stderr, getenv)
	case "providers":
		return cmdProviders(rest, stdout, stderr)
	case "install":
		return cmdInstall(rest, stdout, stderr, getenv)
	case "uninstall":
		return cmdUninstall(rest, stdout, stderr, getenv)
	case "status":
		return cmdStatus(rest, stdout, stderr, getenv)
	case "allow":
		return cmdAllow(rest, stdout, stderr, getenv)
	case "deny":
		return cmdDeny(rest, stdout, stderr, getenv)
	case "trust":
		return cmdTrust(rest, stdout, stderr, getenv)
	case "example-policy":
		return cmdExamplePolicy(rest, stdin, stdout, stderr)
	case "version", "--version", "-version":
		fmt.Fprintf(stdout, "hookshim %s\n", version())
		return 0
	case "help", "-h", "--help", "-help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	errorf(stderr, "unknown command %q", cmd)
	hintf(stderr, "run 'hookshim help' for the list of commands")
	return 2
}

// Messages, in one place and one style: lowercase, specific, no trailing
// period; hints name the fix.

func errorf(w io.Writer, format string, a ...any) {
	fmt.Fprintf(w, "hookshim: error: "+format+"\n", a...)
}

func warningf(w io.Writer, format string, a ...any) {
	fmt.Fprintf(w, "hookshim: warning: "+format+"\n", a...)
}

func hintf(w io.Writer, format string, a ...any) {
	fmt.Fprintf(w, "hookshim: hint: "+format+"\n", a...)
}

// oneLine keeps a message on one line, for channels that show only that.
func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\r", " ")
	return strings.ReplaceAll(s, "\n", " ")
}
