package cli_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookshim/hookshim/bench/benchdata"
	"github.com/hookshim/hookshim/internal/cli"
	"github.com/hookshim/hookshim/internal/config"
	"github.com/tidwall/sjson"
)

// BenchmarkRun is `hookshim run` in process, without the process start:
// read the payload, detect, normalize, find and trust-check the project
// config, match, answer. No handler matches, so this is hookshim's own
// work on every call that runs nothing; the process benchmark (make bench)
// measures the whole call.
func BenchmarkRun(b *testing.B) {
	root := b.TempDir()
	project := filepath.Join(root, "project")
	deep := filepath.Join(project, "src", "pkg")
	bare := filepath.Join(root, "bare")
	for _, d := range []string{deep, bare} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	// One handler, for an event none of the samples is.
	cfg := `{"spec": "hooks/0.1", "hooks": [{"name": "guard", "event": "before_tool_selection", "handler": {"type": "command", "command": "./policy.sh"}}]}`
	if err := os.WriteFile(filepath.Join(project, config.FileName), []byte(cfg), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, "policy.sh"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		b.Fatal(err)
	}
	env := map[string]string{
		"HOME":            root,
		"XDG_CONFIG_HOME": filepath.Join(root, "config"),
		"XDG_STATE_HOME":  filepath.Join(root, "state"),
		"XDG_RUNTIME_DIR": filepath.Join(root, "run"),
	}
	getenv := func(k string) string { return env[k] }
	if code := cli.Main([]string{"allow", filepath.Join(project, config.FileName)}, nil, io.Discard, io.Discard, getenv); code != 0 {
		b.Fatalf("allow exited %d", code)
	}

	type call struct {
		name string
		raw  []byte
		args []string
	}
	var calls []call
	// Tools whose payload lacks the event name are registered with --event.
	args := func(c benchdata.Case) []string {
		if c.Provider.EventName(c.Payload()) == "" {
			return []string{"run", "--event", c.Spec.Native}
		}
		return []string{"run"}
	}
	at := func(c benchdata.Case, dir string) []byte {
		if c.Provider.Fields.Cwd == "" {
			return nil
		}
		raw, err := sjson.SetBytes(c.Raw, c.Provider.Fields.Cwd, dir)
		if err != nil {
			b.Fatal(err)
		}
		return raw
	}
	for _, c := range benchdata.Small() {
		if raw := at(c, deep); raw != nil {
			calls = append(calls, call{"no-match/" + c.Name, raw, args(c)})
		}
	}
	for _, c := range benchdata.Small() {
		if raw := at(c, bare); raw != nil {
			calls = append(calls, call{"no-config/" + c.Name, raw, args(c)})
			break
		}
	}
	if !testing.Short() {
		for _, c := range benchdata.Large(10 * benchdata.MiB) {
			if raw := at(c, deep); raw != nil {
				calls = append(calls, call{"no-match/" + c.Name, raw, args(c)})
			}
		}
	}
	for _, c := range calls {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.raw)))
			var stdout, stderr bytes.Buffer
			for b.Loop() {
				stdout.Reset()
				stderr.Reset()
				if code := cli.Main(c.args, bytes.NewReader(c.raw), &stdout, &stderr, getenv); code != 0 || stderr.Len() > 0 {
					b.Fatalf("exit %d: %s", code, stderr.String())
				}
			}
		})
	}
}
