// Package opa checks http handlers against a real Open Policy Agent: the
// policy.rego and the .openhook.json entry of docs/teams.md, through the
// real hookshim binary, with Claude Code and Gemini CLI payloads.
//
// It runs only under make e2e-opa, which builds OPA (at the version the
// Makefile pins) from the Go module proxy and names it in HOOKSHIM_E2E_OPA.
// OPA listens on 127.0.0.1 only and is stopped at the end, or after a
// minute whatever happens.
package opa

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

func TestOPA(t *testing.T) {
	opa := os.Getenv("HOOKSHIM_E2E_OPA")
	if opa == "" {
		t.Skip("run by make e2e-opa, which builds OPA and sets HOOKSHIM_E2E_OPA")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	for _, cmd := range []string{"hookshim", "hookshim-remote"} {
		build := exec.Command("go", "build", "-o", filepath.Join(bin, cmd), "./cmd/"+cmd)
		build.Dir = "../.."
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		out, err := build.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}

	// The policy and the entry, as docs/teams.md gives them.
	doc, err := os.ReadFile("../../docs/teams.md")
	require.NoError(t, err)
	rego := block(t, doc, "rego")
	entry := block(t, doc, "json")
	require.Contains(t, entry, "127.0.0.1:8181")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "policy.rego"), []byte(rego), 0o644))

	addr := freeAddr(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	server := exec.CommandContext(ctx, opa, "run", "--server", "--addr", addr, "--skip-version-check",
		"--log-level", "error", filepath.Join(dir, "policy.rego"))
	var serverLog strings.Builder
	server.Stdout, server.Stderr = &serverLog, &serverLog
	require.NoError(t, server.Start())
	defer func() {
		cancel()
		_ = server.Wait()
		if t.Failed() {
			t.Logf("opa's output:\n%s", serverLog.String())
		}
	}()
	waitHealthy(t, "http://"+addr+"/health")

	config := filepath.Join(dir, ".openhook.json")
	require.NoError(t, os.WriteFile(config, []byte(strings.ReplaceAll(entry, "127.0.0.1:8181", addr)), 0o644))
	logFile := filepath.Join(dir, "calls.jsonl")

	for _, tc := range []struct {
		name, provider, payload string
		deny                    bool
	}{
		{"claude rm -rf /", "claude-code", claude("rm -rf /", "toolu_01"), true},
		{"claude sudo rm -fr ~", "claude-code", claude("cd /tmp && sudo rm -fr ~", "toolu_02"), true},
		{"claude project delete", "claude-code", claude("rm -rf ./build", "toolu_03"), false},
		{"claude a mention", "claude-code", claude("echo 'rm -rf /'", "toolu_04"), false},
		{"claude ls", "claude-code", claude("ls -la", "toolu_05"), false},
		{"gemini rm -rf /", "gemini-cli", gemini("rm -rf /"), true},
		{"gemini mkfs", "gemini-cli", gemini("mkfs.ext4 /dev/sda1"), true},
		{"gemini ls", "gemini-cli", gemini("ls"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(filepath.Join(bin, "hookshim"), "run", "--provider", tc.provider, "--config", config)
			cmd.Dir = dir
			cmd.Stdin = strings.NewReader(tc.payload)
			cmd.Env = []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + dir, "XDG_STATE_HOME=" + dir + "/state",
				"XDG_CONFIG_HOME=" + dir + "/config", "XDG_RUNTIME_DIR=" + dir + "/run", "HOOKSHIM_LOG=" + logFile}
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			require.NoError(t, cmd.Run(), "stderr: %s", stderr.String())
			require.Empty(t, stderr.String(), "hookshim warned")
			out := stdout.String()
			if !tc.deny {
				require.Empty(t, out, "OPA has no opinion on a harmless command")
				return
			}
			switch tc.provider {
			case "claude-code":
				require.Equal(t, "deny", gjson.Get(out, "hookSpecificOutput.permissionDecision").Str, out)
				require.Contains(t, gjson.Get(out, "hookSpecificOutput.permissionDecisionReason").Str, "recursive delete", out)
				require.Contains(t, gjson.Get(out, "hookSpecificOutput.additionalContext").Str, "team policy", out)
			case "gemini-cli":
				require.Equal(t, "deny", gjson.Get(out, "decision").Str, out)
				require.Regexp(t, "recursive delete|mkfs", gjson.Get(out, "reason").Str, out)
			}
		})
	}
	t.Run("v0 data API", func(t *testing.T) { v0(t, bin, dir, entry, addr) })
}

// OPA's v0 data API takes the envelope as it is and answers the decision
// as it is: no wrap, no result; an undefined decision is a 404, which is
// the handler's failure (docs/teams.md).
func v0(t *testing.T, bin, dir, entry, addr string) {
	v0 := strings.NewReplacer("127.0.0.1:8181/v1/", addr+"/v0/", `"wrap": "input", "result": "result", `, "").Replace(entry)
	require.Contains(t, v0, "/v0/data/hookshim/decision")
	require.NotContains(t, v0, "wrap")
	config := filepath.Join(dir, "v0.json")
	require.NoError(t, os.WriteFile(config, []byte(v0), 0o644))
	for _, tc := range []struct{ command, stdout, stderr string }{
		{"rm -rf /", `"permissionDecision":"deny"`, ""},
		{"ls", "", "answered 404 Not Found"},
	} {
		cmd := exec.Command(filepath.Join(bin, "hookshim"), "run", "--provider", "claude-code", "--config", config)
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader(claude(tc.command, "toolu_v0"+tc.command))
		cmd.Env = []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + dir, "XDG_STATE_HOME=" + dir + "/state",
			"XDG_CONFIG_HOME=" + dir + "/config", "XDG_RUNTIME_DIR=" + dir + "/run"}
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		require.NoError(t, cmd.Run())
		if tc.stdout == "" {
			require.Empty(t, stdout.String(), tc.command)
		} else {
			require.Contains(t, stdout.String(), tc.stdout, tc.command)
		}
		if tc.stderr == "" {
			require.Empty(t, stderr.String(), tc.command)
		} else {
			require.Contains(t, stderr.String(), tc.stderr, tc.command)
		}
	}
}

// block is the first fenced code block of the given language in doc.
func block(t *testing.T, doc []byte, lang string) string {
	m := regexp.MustCompile("(?s)```" + lang + "\n(.*?)```").FindSubmatch(doc)
	require.NotNil(t, m, "docs/teams.md has no ```%s block", lang)
	return string(m[1])
}

func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	return ln.Addr().String()
}

func waitHealthy(t *testing.T, url string) {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get(url); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("opa did not answer %s within 30s", url)
}

func claude(command, id string) string {
	return fmt.Sprintf(`{"session_id":"s1","transcript_path":"/h/.claude/projects/p/s1.jsonl","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":%q},"tool_use_id":%q}`, command, id)
}

func gemini(command string) string {
	return fmt.Sprintf(`{"session_id":"g1","transcript_path":"/h/.gemini/tmp/x/chats/s.json","cwd":"/tmp","hook_event_name":"BeforeTool","timestamp":"2026-01-01T00:00:00.000Z","tool_name":"run_shell_command","tool_input":{"command":%q}}`, command)
}
