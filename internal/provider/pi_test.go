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

// The rendered extension runs the command it was given, and is known by
// its first line.
func TestPiExtensionRender(t *testing.T) {
	if !strings.Contains(piExtensionJS(), piDefaultCommand) {
		t.Fatalf("the extension source lacks the command line %q that PiExtension replaces", piDefaultCommand)
	}
	out := string(PiExtension("/opt/hookshim run --provider pi"))
	if !strings.HasPrefix(out, PiExtensionMarker) {
		t.Fatalf("the extension does not start with %q", PiExtensionMarker)
	}
	if !strings.Contains(out, `"/opt/hookshim run --provider pi" // hookshim:command`) {
		t.Fatalf("the command was not rendered into the extension")
	}
	if string(PiExtension("hookshim run --provider pi")) != piExtensionJS() {
		t.Fatalf("rendering the default command changed the source")
	}
}

// TestPiExtensionBehaviour runs the extension in Node.js with a fake Pi and
// fake hookshim commands (testdata/pi_extension_check.mjs); the pi entry of
// e2e/clients_test.go checks it inside the real Pi.
func TestPiExtensionBehaviour(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not in PATH")
	}
	dir := t.TempDir()
	ext := filepath.Join(dir, "hookshim.mjs")
	if err := os.WriteFile(ext, PiExtension("false"), 0o644); err != nil {
		t.Fatal(err)
	}
	check, err := filepath.Abs("testdata/pi_extension_check.mjs")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, check, (&url.URL{Scheme: "file", Path: filepath.ToSlash(ext)}).String())
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TMPDIR="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ok") {
		t.Fatalf("extension check failed: %v\n%s", err, out)
	}
}
