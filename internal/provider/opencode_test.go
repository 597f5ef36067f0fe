package provider

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The plugin is rendered by replacing its default command: if the source
// changes so that the placeholder is gone, every install would silently
// run plain `hookshim` from PATH.
func TestOpenCodePluginRender(t *testing.T) {
	if n := strings.Count(openCodePluginJS(), openCodeDefaultCommand); n != 1 {
		t.Fatalf("the plugin source has %d command placeholders, want 1", n)
	}
	if !strings.HasPrefix(openCodePluginJS(), OpenCodePluginMarker) {
		t.Fatalf("the plugin source does not start with the marker %q", OpenCodePluginMarker)
	}
	cmd := `/opt/my tools/hookshim run --provider opencode "x" \ y`
	out := string(OpenCodePlugin(cmd))
	want := `const COMMAND = process.env.HOOKSHIM_OPENCODE_COMMAND || "/opt/my tools/hookshim run --provider opencode \"x\" \\ y" // hookshim:command`
	if !strings.Contains(out, want) {
		t.Fatalf("rendered plugin lacks the command line:\n%s", out[:600])
	}
	if strings.Contains(out, openCodeDefaultCommand) {
		t.Fatal("the default command is still there")
	}
	if !strings.HasPrefix(out, OpenCodePluginMarker) {
		t.Fatal("the rendered plugin lost its marker")
	}
}

// Every op hookshim emits is one the plugin knows.
func TestOpenCodeOpsKnownToPlugin(t *testing.T) {
	for _, op := range []string{"throw", "merge_args", "append_output", "push_system", "session_system",
		"push_compaction_context", "set_permission", "prompt"} {
		if !strings.Contains(openCodePluginJS(), `case "`+op+`":`) {
			t.Errorf("the plugin does not apply op %q", op)
		}
	}
	for _, s := range OpenCode.Events {
		name := s.Native
		switch name {
		case "subagent.created", "subagent.idle":
			continue // named here from session.* with a parent
		case "session.created", "session.idle", "session.deleted", "session.error", "file.edited":
			if !strings.Contains(openCodePluginJS(), `"`+name+`"`) {
				t.Errorf("the plugin does not forward event %s", name)
			}
		default:
			if !strings.Contains(openCodePluginJS(), `"`+name+`": `) && !strings.Contains(openCodePluginJS(), `hook("`+name+`"`) {
				t.Errorf("the plugin does not forward hook %s", name)
			}
		}
	}
}

// TestOpenCodePluginBehaviour runs the plugin in Node.js with a fake OpenCode
// and fake hookshim commands (testdata/opencode_plugin_check.mjs). OpenCode
// itself runs plugins in Bun; the opencode entry of e2e/clients_test.go checks the plugin there.
// Kilo's copy runs the same checks under its own variables and payload id.
func TestOpenCodePluginBehaviour(t *testing.T) {
	t.Run("opencode", func(t *testing.T) { checkBridge(t, OpenCodePlugin("false")) })
	t.Run("kilo", func(t *testing.T) { checkBridge(t, KiloPlugin("false"), "HOOKSHIM_KILO_", "kilo-plugin") })
}

func checkBridge(t *testing.T, source []byte, args ...string) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not in PATH")
	}
	dir := t.TempDir()
	plugin := filepath.Join(dir, "hookshim.mjs")
	if err := os.WriteFile(plugin, source, 0o644); err != nil {
		t.Fatal(err)
	}
	check, err := filepath.Abs("testdata/opencode_plugin_check.mjs")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{check, (&url.URL{Scheme: "file", Path: filepath.ToSlash(plugin)}).String()}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TMPDIR="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ok") {
		t.Fatalf("plugin check failed: %v\n%s", err, out)
	}
}

// Kilo's copy of the plugin is OpenCode's under Kilo's name: every part
// that names the tool is replaced, so that its payloads say kilo and no
// OpenCode setting reaches it.
func TestKiloPluginRender(t *testing.T) {
	for _, part := range []string{OpenCodePluginMarker, bridgeHeader, bridgeIDKey} {
		if n := strings.Count(openCodePluginJS(), part); n != 1 {
			t.Fatalf("the plugin source has %q %d times, want 1", part, n)
		}
	}
	out := string(KiloPlugin("/opt/hookshim run --provider kilo"))
	if !strings.HasPrefix(out, KiloPluginMarker) {
		t.Fatalf("Kilo's plugin does not start with %q", KiloPluginMarker)
	}
	for _, gone := range []string{"opencode-plugin", "HOOKSHIM_OPENCODE_", "--provider opencode", "bridge for OpenCode"} {
		if strings.Contains(out, gone) {
			t.Errorf("Kilo's plugin still says %q", gone)
		}
	}
	for _, want := range []string{
		`hookshim_bridge: "kilo-plugin"`,
		`const COMMAND = process.env.HOOKSHIM_KILO_COMMAND || "/opt/hookshim run --provider kilo" // hookshim:command`,
		"process.env.HOOKSHIM_KILO_TIMEOUT_MS",
		"// Kilo has no command hooks",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("Kilo's plugin lacks %q", want)
		}
	}
	if string(OpenCodePlugin(`hookshim run --provider opencode`)) != openCodePluginJS() {
		t.Error("OpenCode's plugin with the default command is not the source as it is")
	}
}
