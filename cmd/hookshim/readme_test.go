package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// fencedBlocks returns the README's code blocks marked for a test: a
// fenced block followed (after blank lines) by <!-- test: NAME --> is a
// script of test NAME; by <!-- test: NAME output -->, output it must print.
func fencedBlocks(t *testing.T, readme, name string) (scripts, outputs []string) {
	t.Helper()
	lines := strings.Split(readme, "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "```") {
			continue
		}
		var body []string
		j := i + 1
		for ; j < len(lines) && !strings.HasPrefix(lines[j], "```"); j++ {
			body = append(body, lines[j])
		}
		require.Less(t, j, len(lines), "unclosed code fence at README.md:%d", i+1)
		k := j + 1
		for k < len(lines) && strings.TrimSpace(lines[k]) == "" {
			k++
		}
		if k < len(lines) {
			switch strings.TrimSpace(lines[k]) {
			case "<!-- test: " + name + " -->":
				scripts = append(scripts, strings.Join(body, "\n")+"\n")
			case "<!-- test: " + name + " output -->":
				outputs = append(outputs, strings.Join(body, "\n"))
			}
		}
		i = j
	}
	return scripts, outputs
}

// TestReadmeQuickstart runs the README's "Configure" commands exactly as
// written, one after the other, in an empty directory with an empty home,
// with this hookshim on PATH, and checks that they print what the README
// says they print.
func TestReadmeQuickstart(t *testing.T) {
	runReadme(t, "quickstart", 3, "chmod +x", "hookshim allow", "hookshim run")
}

// TestReadmeDialect runs the README's "Already have hooks?" commands the
// same way: a Claude Code hook, unchanged, answering Gemini CLI.
func TestReadmeDialect(t *testing.T) {
	runReadme(t, "dialect", 2, `"dialect": "claude-code"`, "hookshim allow", "--provider gemini-cli")
}

// runReadme runs the README's blocks marked <!-- test: label --> as
// runReadmeBlocks does, once sh and jq are there: in CI their absence
// is a failure.
func runReadme(t *testing.T, label string, minScripts int, steps ...string) {
	for _, tool := range []string{"sh", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("the README's example needs %s, which is not installed (.ci/run installs it)", tool)
			}
			t.Skipf("the README's example needs %s, which is not installed", tool)
		}
	}
	runReadmeBlocks(t, label, minScripts, steps...)
}

// runReadmeBlocks runs the README's blocks marked <!-- test: label -->
// (at least minScripts, with every step) in an empty directory and
// checks the blocks marked <!-- test: label output --> are in what they
// print. The caller checks that what they need is installed.
func runReadmeBlocks(t *testing.T, label string, minScripts int, steps ...string) {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	scripts, outputs := fencedBlocks(t, string(readme), label)
	require.GreaterOrEqual(t, len(scripts), minScripts, "README.md lost its %s markers", label)
	require.NotEmpty(t, outputs)
	script := strings.Join(scripts, "")
	for _, step := range steps {
		require.Contains(t, script, step)
	}

	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	work := filepath.Join(dir, "work")
	require.NoError(t, os.Mkdir(home, 0o755))
	require.NoError(t, os.Mkdir(work, 0o755))
	cmd := exec.Command("sh", "-e", "-c", script)
	cmd.Dir = work
	// The environment of a new user: this hookshim on PATH (TestMain puts
	// it there), nothing of hookshim's or the user's own. A TMPDIR of the
	// test's own: without one, duplicate detection keeps its claims in a
	// folder every test run on the machine shares (/dev/shm).
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "LANG=C.UTF-8", "TMPDIR=" + t.TempDir()}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "README %s failed:\n%s\nstderr:\n%s", label, script, stderr.String())
	for _, want := range outputs {
		require.Contains(t, stdout.String(), strings.TrimSpace(want), "README %s printed:\n%s\nstderr:\n%s", label, stdout.String(), stderr.String())
	}
	require.NotContains(t, stderr.String(), "error")
}

// TestReadmePack runs the README's built-in policy example as written, in
// an empty directory, and checks that it prints what the README says.
func TestReadmePack(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("the README's example needs sh")
	}
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	scripts, outputs := fencedBlocks(t, string(readme), "pack")
	require.Len(t, scripts, 1, "README.md lost its pack example")
	require.Len(t, outputs, 1)
	dir := t.TempDir()
	cmd := exec.Command("sh", "-e", "-c", scripts[0])
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "LANG=C.UTF-8", "TMPDIR=" + t.TempDir()}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "README pack example failed:\n%s\nstderr:\n%s", scripts[0], stderr.String())
	require.Contains(t, stdout.String(), strings.TrimSpace(outputs[0]), "stderr:\n%s", stderr.String())
	require.NotContains(t, stderr.String(), "error")
}
