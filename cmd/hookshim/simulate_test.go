package main

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/require"
)

// TestSimulateMatrix runs `hookshim simulate` as a new user would, in an
// empty directory, and checks the matrix it shows: every tool, each with a
// shell command the example policy denies and a prompt it adds context to,
// and no error anywhere.
func TestSimulateMatrix(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("hookshim", "simulate")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir+"/.config", "XDG_STATE_HOME="+dir+"/.state",
		"XDG_RUNTIME_DIR="+dir+"/.run", "HOOKSHIM_CONFIG=", "HOOKSHIM_LOG=", "HOOKSHIM_DEPTH=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), stderr.String())
	require.Empty(t, stderr.String())
	out := stdout.String()
	require.Contains(t, out, "with the built-in example policy")
	// No hookshim error, no failed handler, no problem (a tool's own
	// field named errorMessage is not one).
	require.NotRegexp(t, `(?i)\berror\b|\bfailed\b|problem`, out)

	// Rows: TOOL NATIVE-EVENT CALL... POLICY EXIT ANSWER; a tool's second
	// row leaves TOOL empty.
	rows := map[string][]string{}
	tool := ""
	inTable := false
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "TOOL ") {
			inTable = true
			continue
		}
		if !inTable {
			continue
		}
		if line == "" {
			break
		}
		if !strings.HasPrefix(line, " ") {
			tool = strings.Fields(line)[0]
		}
		rows[tool] = append(rows[tool], line)
	}
	shown := 0
	for _, pr := range provider.All {
		r := rows[pr.ID]
		if !hasEvent(pr, event.BeforeToolExecute) && !hasPromptEvent(pr) {
			// Junie CLI: a session event only, nothing to simulate.
			require.Empty(t, r, pr.ID)
			continue
		}
		shown++
		if !hasPromptEvent(pr) {
			// A tool without a prompt event shows the shell row alone.
			require.Len(t, r, 1, "%s: want a shell row in\n%s", pr.ID, out)
		} else {
			require.Len(t, r, 2, "%s: want a shell row and a prompt row in\n%s", pr.ID, out)
			require.Regexp(t, `prompt: ".*"\s+context\s+0\s+\S`, r[1], pr.ID)
		}
		require.Regexp(t, `shell: rm -rf /\s+deny\s+\d\s+\S`, r[0], pr.ID)
		// The denial reaches the tool, in its own dialect.
		require.Contains(t, r[0], "would delete the root folder (hookshim/destructive-shell)", pr.ID)
	}
	require.Len(t, rows, shown, "only known tools in the table")
}

func hasEvent(pr *provider.Provider, name event.Name) bool {
	for _, s := range pr.Events {
		if s.Canonical == name {
			return true
		}
	}
	return false
}

func hasPromptEvent(pr *provider.Provider) bool {
	for _, s := range pr.Events {
		if s.Canonical == event.BeforePrompt {
			return true
		}
	}
	return false
}

// TestSimulatePack runs `hookshim simulate --pack`: every documented
// example of the built-in policies, through the real pipeline as a Claude
// Code call, answers as documented.
func TestSimulatePack(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("hookshim", "simulate", "--pack")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir+"/.config", "XDG_STATE_HOME="+dir+"/.state",
		"XDG_RUNTIME_DIR="+dir+"/.run", "HOOKSHIM_CONFIG=", "HOOKSHIM_LOG=", "HOOKSHIM_DEPTH=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), stdout.String()+stderr.String())
	require.Empty(t, stderr.String())
	rows := 0
	for _, line := range strings.Split(stdout.String(), "\n") {
		if !strings.HasPrefix(line, "hookshim/") {
			continue
		}
		rows++
		f := strings.Fields(line)
		documented := f[1]
		// After the example, a quoted string (a reason may quote too).
		at := strings.IndexByte(line, '"')
		example, err := strconv.QuotedPrefix(line[at:])
		require.NoError(t, err, line)
		require.Regexp(t, `^\s+`+documented+`(\s{2,}|$)`, line[at+len(example):], line)
		if documented == "deny" {
			require.Contains(t, line, "("+f[0]+")", line)
		}
	}
	require.Greater(t, rows, 80)
}
