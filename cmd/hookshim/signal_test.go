//go:build unix

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A tool that gives up on a call sends hookshim SIGTERM (or, from a
// terminal, SIGINT): the handlers it waits for are killed with their
// children, and hookshim answers at once, the handlers counted as failed.
func TestSignalStopsHandlers(t *testing.T) {
	bin, err := exec.LookPath("hookshim") // the binary TestMain put in PATH
	require.NoError(t, err)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			// hookshim watches for signals from a moment after the
			// handlers' start; a signal before that ends it, as
			// TestEarlySignalLeavesNoHandler shows. A loaded machine may
			// set the watch up late: the call is tried again, waiting
			// longer before the signal, until one is watched.
			for pause := 100 * time.Millisecond; ; pause *= 4 {
				if stopped(t, bin, sig, pause) {
					return
				}
				if pause > 10*time.Second {
					t.Fatalf("%s ended hookshim %s after the handler started: it never watched for it", sig, pause)
				}
				t.Logf("%s came before hookshim watched for it (after %s); again, later", sig, pause)
			}
		})
	}
}

// stopped runs one call whose handler hangs and sends sig to hookshim
// pause after the handler has started. It reports false when hookshim
// ended by the signal itself (the watch was not up yet), else checks
// what the tool and the handlers got.
func stopped(t *testing.T, bin string, sig syscall.Signal, pause time.Duration) bool {
	dir := t.TempDir()
	cfg := `{"spec": "hooks/0.1", "hooks": [
  {"name": "slow", "event": "before_tool_execute", "handler": {"type": "command",
   "command": "if [ -e again ]; then echo '{\"decision\":\"deny\",\"reason\":\"ran again\"}'; exit 0; fi; touch again; sleep 600 >/dev/null 2>&1 & echo $! >>pids; echo $$ >>pids; sleep 600", "timeout": 1200}}]}`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "cfg.json"), []byte(cfg), 0o644))
	cmd := exec.Command(bin, "run", "--provider", "claude-code", "--config", "cfg.json", "--timeout", "1000")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+dir, "XDG_STATE_HOME="+dir, "XDG_RUNTIME_DIR="+dir,
		"HOOKSHIM_LOG=", "HOOKSHIM_CONFIG=")
	payload := `{"session_id":"s1","cwd":"` + dir + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t-` + sig.String() + `"}`
	cmd.Stdin = strings.NewReader(payload)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill() })

	var ps []int
	require.Eventually(t, func() bool {
		b, _ := os.ReadFile(filepath.Join(dir, "pids"))
		ps = ps[:0]
		for _, f := range strings.Fields(string(b)) {
			p, _ := strconv.Atoi(f)
			ps = append(ps, p)
		}
		return len(ps) == 2
	}, time.Minute, 10*time.Millisecond)
	time.Sleep(pause)
	require.NoError(t, cmd.Process.Signal(sig))
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	// The handlers hang for ten minutes: a minute is a hang too.
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ProcessState.Sys().(syscall.WaitStatus).Signaled() {
			// The handler's own child outlives a hookshim ended so.
			for _, p := range ps {
				_ = syscall.Kill(p, syscall.SIGKILL)
			}
			return false
		}
		require.NoError(t, err, "the answer of a call whose handler failed: exit 0")
	case <-time.After(time.Minute):
		t.Fatalf("hookshim still running a minute after %s", sig)
	}
	require.Empty(t, stdout.String(), "fail-open: no opinion")
	require.Regexp(t, `(?m)^hookshim: warning: handler "slow" failed: stopped: \w+ signal received; its process group was killed$`, stderr.String())
	require.Eventually(t, func() bool {
		for _, p := range ps {
			if alive(p) {
				return false
			}
		}
		return true
	}, time.Minute, 10*time.Millisecond, "left running: %v", ps)

	// The tool retries the same call: the stopped handlers said
	// nothing about it, so it runs them, not reuses their failure.
	retry := exec.Command(bin, "run", "--provider", "claude-code", "--config", "cfg.json", "--timeout", "1000")
	retry.Dir, retry.Env = dir, cmd.Env
	retry.Stdin = strings.NewReader(payload)
	out, err := retry.Output()
	require.NoError(t, err)
	require.Contains(t, string(out), `"permissionDecisionReason":"ran again"`)
	return true
}

// alive reports whether pid runs; a zombie, dead and waiting to be reaped
// by whoever adopted it, does not.
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		return true // no /proc: the kill -0 is all there is to know
	}
	// Gone between the two looks, as it was being reaped: dead.
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	_, after, ok := strings.Cut(string(stat), ") ")
	return ok && !strings.HasPrefix(after, "Z") && !strings.HasPrefix(after, "X")
}

// A signal that comes as soon as the handler has started, before the
// watch is set up, has its default action: hookshim ends, and the kernel
// kills the handler it started (its parent-death signal). Later, the
// watch kills its group (TestSignalStopsHandlers). Either way no handler
// is left running.
func TestEarlySignalLeavesNoHandler(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the parent-death signal is Linux's")
	}
	bin, err := exec.LookPath("hookshim")
	require.NoError(t, err)
	dir := t.TempDir()
	cfg := `{"spec": "hooks/0.1", "hooks": [
  {"name": "slow", "event": "before_tool_execute", "handler": {"type": "command", "command": "echo $$ >pid; exec sleep 600", "timeout": 1200}}]}`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "cfg.json"), []byte(cfg), 0o644))
	cmd := exec.Command(bin, "run", "--provider", "claude-code", "--config", "cfg.json")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+dir, "XDG_STATE_HOME="+dir, "XDG_RUNTIME_DIR="+dir,
		"HOOKSHIM_LOG=", "HOOKSHIM_CONFIG=")
	cmd.Stdin = strings.NewReader(`{"session_id":"s1","cwd":"` + dir + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t-early"}`)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	var pid int
	require.Eventually(t, func() bool {
		b, _ := os.ReadFile(filepath.Join(dir, "pid"))
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		return pid > 0
	}, time.Minute, time.Millisecond)
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	_ = cmd.Wait()
	require.Eventually(t, func() bool { return !alive(pid) }, time.Minute, 10*time.Millisecond, "handler %d left running", pid)
}
