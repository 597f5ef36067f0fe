// Package cli is the hookshim command line. Main takes its streams and
// environment as arguments, so that the whole CLI runs in tests as it runs
// for users.
package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hookshim/hookshim/internal/buildinfo"
	"github.com/hookshim/hookshim/internal/config"
)

// version is this build's version, as a hook call's envelope names it.
func version() string { return buildinfo.Short() }

func cmdVersion(args []string, _ io.Reader, stdout, stderr io.Writer, _ func(string) string) int {
	if len(args) > 0 {
		errorf(stderr, "version takes no arguments")
		return 2
	}
	fmt.Fprint(stdout, buildinfo.Get().Text("hookshim"))
	return 0
}

const usage = `hookshim: one hook binary for every AI coding tool

Usage:
  hookshim run [--provider ID] [--event NAME] [--config FILE] [--explain] [--log FILE|off] [--timeout SECONDS]
      Answer one hook call: read the tool's payload on stdin, run the
      handlers of .openhook.json that match, print the tool's answer.
      This is the command each tool's hook config calls.
  hookshim init [--dir DIR]
      Write a starter .openhook.json at the project root: the built-in
      policies most projects want, with comments on what to change. Never
      writes over a config; prints the next steps (allow, install).
  hookshim simulate [--all|--pack] [--provider ID --event NAME [--tool-input JSON] [--payload FILE] [--config FILE]]
      Without arguments: for every tool, a destructive shell command and a
      prompt through the real pipeline, with the built-in example policy
      (deny the command, add context to the prompt), and each tool's answer.
      --all: every embedded sample payload of every tool.
      --pack: every documented example of the built-in policies.
      With --provider and --event: simulate one call against your config
      (or the example policy when no config is found).
  hookshim allow [PATH]
      Allow the project's .openhook.json (and the scripts it runs) as it is
      now. Any later change needs a new allow.
  hookshim deny [PATH]
      Never run that config, whatever its content.
  hookshim trust [status] [PATH]
      Show whether a config may run.
  hookshim extend [--config FILE | --user] PATH|URL
      Make a config extend another: a path, or an https URL, fetched once
      and pinned by the SHA-256 of its content (run again to pin a changed
      URL anew). Default: the nearest .openhook.json, else a new one here.
  hookshim fetch [--config FILE]
      Fetch the URLs your config and the project's extend into the cache
      hook calls read, each checked against its pin: a changed one is
      refused and the cached copy that matches stays in use.
  hookshim install --provider ID|--all [--scope project|user] [--dir DIR]
                   [--events LIST] [--bin PATH] [--dry-run] [--check]
      Register hookshim in the tool's own hook config, for every event it
      handles, calling this binary by absolute path. Other entries and the
      file's layout stay as they are; a second install changes nothing.
      --dry-run prints a diff; --check exits 1 when the registration is
      missing or stale (for CI and dotfiles).
  hookshim uninstall --provider ID|--all [--scope project|user] [--dir DIR] [--dry-run]
      Remove what install wrote, and nothing else.
  hookshim import --from ID|--all [--scope project|user] [--dir DIR] [--config FILE] [--plugin DIR] [--dry-run]
      Write the hooks a tool already runs, from its own config, into
      .openhook.json (--scope user: the user config), each run in that
      tool's dialect, so that every tool runs them. Entries that run
      hookshim, and entries imported before, are left out; what the
      config cannot express is kept under provider_data and reported.
      --all: from every tool whose hook config is found.
      --plugin: the hooks of the plugin in DIR (DIR/hooks/hooks.json),
      each given DIR as CLAUDE_PLUGIN_ROOT.
  hookshim export --to ID [--check] [CONFIG]
      Write the config's hooks as tool ID's own hooks config, on stdout:
      for a tool to run them without hookshim. What the tool cannot
      express is degraded as the Hook Interchange Format says, a warning
      each; --check reads the result back and verifies every hook is in it.
  hookshim status [--provider ID] [--dir DIR]
      Show, per tool and scope, where hookshim is registered, for which
      events, and whether the registration is current.
  hookshim doctor [--dir DIR] [--bin PATH] [--json]
      Check why a hook does not fire: registrations, last calls, the
      config and its allowance, every handler. Exits 1 on a problem.
      From the decision log: registered events that never fired, payloads
      this version does not know (per tool version), slow handlers.
  hookshim log [--follow] [--tool ID] [--event NAME] [--decision D] [--handler NAME]
               [--since 1h|TIME] [--limit N] [--json] [--file PATH]
      The recent calls from the decision log, oldest first: time, id, tool,
      event, tool name, decision, handlers, duration (--limit 20 by
      default, 0 for all). --follow prints new calls as they come; --json
      prints each record as logged, one JSON object per line.
  hookshim explain [--json] [--file PATH] ID
      One logged call end to end: how the tool was told, the configs and
      their trust, each hook matched or not and why, each handler's
      answer, the merge, the degradations, the native answer. ID may be
      the start of an id, as 'hookshim log' shows it.
  hookshim providers [--events] [--tools] [--markdown]
      List the tools hookshim speaks to and their events; --tools lists
      the canonical tool names a matcher takes ("shell", "file_edit") with
      each tool's native names for them.
  hookshim policies [--markdown] [POLICY]
      List the built-in policies a config entry can "use", or show one:
      what it catches and misses, its parameters, examples.
  hookshim example-policy deny-destructive|prompt-context
      Example handlers (simulate runs prompt-context): read an OpenHook
      envelope on stdin and answer. A config may name them to try hookshim.
  hookshim completion bash|zsh|fish
      Print the shell's completion script: commands, flags, tool ids,
      policy names. bash: source <(hookshim completion bash); zsh: the
      same, or save it as _hookshim in $fpath; fish: hookshim completion
      fish | source, or save it in ~/.config/fish/completions/.
  hookshim version
      Print the version, the commit and the Go release it was built with.
  hookshim help [COMMAND]
      Print this text, or one command's usage (also: COMMAND --help).

Environment:
  HOOKSHIM_CONFIG   config file to use instead of discovery
  HOOKSHIM_LOG      the decision log's file (default: $XDG_STATE_HOME/hookshim/calls.jsonl,
                    else ~/.local/state/hookshim/calls.jsonl); off to keep none
  HOOKSHIM_LOG_MAX  size past which the log is rotated (default 8M; two old copies are kept)
  HOOKSHIM_DISABLE  set to 1 to answer "no opinion" without running handlers
  HOOKSHIM_SKIP     comma-separated handler names not to run
  HOOKSHIM_ON_ERROR set to deny to make hookshim's own failures block (fail-closed)
  HOOKSHIM_TRUST_ALL set to 1 to run project configs without 'hookshim allow'
                    (for CI and throwaway machines: a cloned repo then runs its
                    hooks on your machine)

Examples:
  hookshim simulate
  hookshim import --from claude-code && hookshim install --all
  echo '{"hook_event_name":"PreToolUse",...}' | hookshim run --provider claude-code --explain
  hookshim log --decision deny --since 1h
  hookshim explain 3f2a9c1e
  hookshim simulate --provider gemini-cli --event BeforeTool --tool-input '{"command":"rm -rf /"}'

Docs: README.md, docs/config.md, docs/policies.md, docs/providers.md, docs/troubleshooting.md
`

// command is one subcommand. Its usage is its block in the usage text
// above, so that `hookshim help`, `hookshim X --help` and the docs never
// disagree; a command added here without a usage block fails a test.
type command struct {
	name string
	run  func(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int
}

// commands is the table Main dispatches on, in the order of the usage text.
var commands = []command{
	{"run", cmdRun},
	{"init", cmdInit},
	{"simulate", cmdSimulate},
	{"allow", cmdAllow},
	{"deny", cmdDeny},
	{"trust", cmdTrust},
	{"extend", cmdExtend},
	{"fetch", cmdFetch},
	{"install", cmdInstall},
	{"uninstall", cmdUninstall},
	{"import", cmdImport},
	{"export", cmdExport},
	{"status", cmdStatus},
	{"doctor", cmdDoctor},
	{"log", cmdLog},
	{"explain", cmdExplain},
	{"providers", cmdProviders},
	{"policies", cmdPolicies},
	{"example-policy", cmdExamplePolicy},
	{"completion", cmdCompletion},
	{"version", cmdVersion},
	{"help", cmdHelp},
}

func commandNames() []string {
	out := make([]string, len(commands))
	for i, c := range commands {
		out[i] = c.name
	}
	return out
}

func lookup(name string) *command {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i]
		}
	}
	return nil
}

// Main runs hookshim and returns its exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	name, rest := args[0], args[1:]
	switch name {
	case "-h", "--help", "-help":
		name = "help"
	case "--version", "-version":
		name = "version"
	}
	cmd := lookup(name)
	if cmd == nil {
		// Exit 1, never 2: this line may be a tool's hook registration
		// ("hookshim rn --provider …"), and Claude Code, Gemini CLI, Codex,
		// Cursor, Windsurf and Kiro read exit 2 as "block", which would
		// stop every call over a typo; 1 is their failed hook, shown to
		// the user, that lets the action go on.
		errorf(stderr, "unknown command %q%s", name, config.DidYouMean(name, commandNames()))
		hintf(stderr, "run 'hookshim help' for the list of commands")
		return 1
	}
	if name != "help" && helpAsked(rest) {
		return cmdHelp([]string{name}, stdin, stdout, stderr, getenv)
	}
	return cmd.run(rest, stdin, stdout, stderr, getenv)
}

// helpAsked reports whether -h or --help is among a command's arguments
// (before a "--"): every command answers it the same way, with its usage on
// stdout and exit 0, whatever else is on the line.
func helpAsked(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

func cmdHelp(args []string, _ io.Reader, stdout, stderr io.Writer, _ func(string) string) int {
	if len(args) == 0 {
		fmt.Fprint(stdout, usage)
		return 0
	}
	u := commandUsage(args[0])
	if u == "" {
		errorf(stderr, "unknown command %q", args[0])
		hintf(stderr, "run 'hookshim help' for the list of commands")
		return 2
	}
	fmt.Fprintf(stdout, "Usage:\n%s\nRun 'hookshim help' for every command, the environment variables and examples.\n", u)
	return 0
}

// usageBlocks is the usage text's block of each command, in its order:
// its synopsis line and the indented lines below it. Completion reads the
// commands from here: reading them from the commands table, which holds
// completion, would be an initialization cycle.
func usageBlocks() []string {
	_, body, _ := strings.Cut(usage, "\nUsage:\n")
	body, _, _ = strings.Cut(body, "\n\n")
	var blocks []string
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "  hookshim ") {
			blocks = append(blocks, "")
		}
		if len(blocks) > 0 {
			blocks[len(blocks)-1] += line + "\n"
		}
	}
	return blocks
}

// commandUsage is a command's block of the usage text.
func commandUsage(name string) string {
	for _, b := range usageBlocks() {
		if strings.HasPrefix(b, "  hookshim "+name+" ") || strings.HasPrefix(b, "  hookshim "+name+"\n") {
			return b
		}
	}
	return ""
}

// newFlags is a command's flag set. The command's block of the usage text
// above is its only usage: flag never prints its own listing of the flags,
// which would be a second one that could disagree with it, so the flags
// carry no text of their own.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags parses a command's arguments; a bad flag is reported with
// the way to the command's usage.
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) bool {
	if err := fs.Parse(args); err != nil {
		errorf(stderr, "%v", err)
		hintf(stderr, "run 'hookshim %s --help' for its usage", fs.Name())
		return false
	}
	return true
}

// noConfigNotice tells someone who runs 'hookshim run' by hand that no
// config was found, so the call was allowed: one warning and one hint on
// stderr, only when stderr is a terminal. A tool never gives its hooks a
// terminal for stderr (it reads what they print), so hook calls never see
// it; stdin is no guide, as a payload typed by hand is usually piped in or
// redirected from a file. noConfig is the pipeline's "no config found
// (searched: …)". It reports whether it printed.
func noConfigNotice(stderr io.Writer, noConfig string) bool {
	f, ok := stderr.(*os.File)
	if !ok || !isTerminal(f) {
		return false
	}
	warningf(stderr, "%s: hookshim allows every call", noConfig)
	hintf(stderr, "write a %s (README.md, \"Configure\"), or run 'hookshim simulate' to see the example policy", config.FileName)
	return true
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
