package e2e

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookshim/hookshim/e2e/pins"
	"github.com/hookshim/hookshim/internal/provider"
)

// skillShellSince is the first Claude Code that sends PreSkillShellCommand
// for the inline !`cmd` of a skill or slash command; before it, nothing of
// such a command reaches a hook.
const skillShellSince = "2.1.332"

// TestSkillShell: a project slash command whose body runs an inline
// !`touch marker.txt` is stopped by the same policy that stops the model's
// own shell call. Claude Code runs that command before the prompt reaches
// the model, under PreSkillShellCommand, which hookshim install registers;
// the reason reaches the model in the expanded prompt.
func TestSkillShell(t *testing.T) {
	if !selected("claude") {
		t.Skip("not in HOOKSHIM_E2E_CLIENTS")
	}
	i := slices.IndexFunc(clients, func(c *client) bool { return c.name == "claude" })
	if i < 0 {
		t.Fatal("no claude client")
	}
	if v := pinned["claude"].Version; pins.Newer(skillShellSince, v) {
		t.Skipf("Claude Code %s is pinned; PreSkillShellCommand needs %s", v, skillShellSince)
	}
	c := *clients[i]
	configure := c.configure
	c.configure = func(r *runDir) error {
		if err := configure(r); err != nil {
			return err
		}
		return r.write(filepath.Join(r.proj, ".claude", "commands", "x.md"),
			"---\ndescription: make the marker\n---\nMarker: !`touch marker.txt`\n\nThen say done.\n")
	}
	c.args = slices.Clone(c.args)
	// The command's arguments carry the usual prompt, which the command
	// body leaves out: the prompt checks stay those of every run.
	c.args[slices.Index(c.args, prompt)] = "/x " + prompt

	bin, err := installPinned(c.name)
	if err != nil {
		skipOrFail(t, &c, err)
		return
	}
	node, err := exec.LookPath("node")
	if err != nil {
		skipOrFail(t, &c, err)
		return
	}
	pr := provider.Lookup(c.provider)
	sc := scenario{
		name: "skill-shell",
		hooks: func(r *runDir) []obj {
			return []obj{handler("deny", "before_tool_execute", 0, "stdout", fmt.Sprintf(`{"decision": "deny", "reason": %q}`, tokDeny))}
		},
		check: func(t *testing.T, res *result, pr *provider.Provider) {
			if res.exists("marker.txt") {
				t.Errorf("a shell command ran (marker.txt exists) although the policy denies it")
			}
			skill := slices.ContainsFunc(res.calls, func(c call) bool {
				return c.NativeEvent == "PreSkillShellCommand" && c.Event == "before_tool_execute" && c.Decision == "deny"
			})
			if !skill {
				t.Errorf("hookshim denied no PreSkillShellCommand: the inline command was not put to the policy")
			}
			// The inline command runs while the prompt is expanded, so its
			// denial is in the very first request.
			if len(res.requests) == 0 {
				t.Errorf("the model was never called")
			} else if first := res.requests[0]; !strings.Contains(string(first.Body), tokDeny) && !strings.Contains(first.Raw, tokDeny) {
				t.Errorf("the denial's reason (%q) is not in the first request, where the expanded command is", tokDeny)
			}
		},
	}
	runScenario(t, &c, sc, pr, bin, node)
}
