package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/hookshim/hookshim/internal/doctor"
	"github.com/hookshim/hookshim/internal/seen"
	"github.com/stretchr/testify/require"
)

// doctor --json reads the stamps seen.Mark writes: per registered event,
// and the last call of the registration.
func TestDoctorJSONLastCalls(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake hookshim is a shell script")
	}
	work := t.TempDir()
	t.Chdir(work)
	// A repository of its own: doctor's project is the folder with .git
	// upwards, which must not be one above the test's (a stray /tmp/.git).
	require.NoError(t, os.Mkdir(filepath.Join(work, ".git"), 0o755))
	bin := filepath.Join(work, "bin", "hookshim")
	require.NoError(t, os.MkdirAll(filepath.Dir(bin), 0o755))
	// Answers "version" as this hookshim does.
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\necho hookshim "+version()+"\n"), 0o755))
	vars := map[string]string{"HOME": filepath.Join(work, "home"), "XDG_STATE_HOME": filepath.Join(work, "state"),
		"XDG_CONFIG_HOME": filepath.Join(work, "config"), "PATH": os.Getenv("PATH"), "HOOKSHIM_TRUST_ALL": "1"}
	getenv := func(k string) string { return vars[k] }
	require.NoError(t, os.WriteFile(".openhook.json", []byte(`{"openhook": "0.1", "hooks": [{"command": "sh -c true", "events": ["tool.start"]}]}`), 0o644))

	var out, errOut bytes.Buffer
	require.Equal(t, 0, Main([]string{"install", "--provider", "codex", "--scope", "user", "--bin", bin}, nil, &out, &errOut, getenv), errOut.String())

	run := func() (doctor.Report, int) {
		out.Reset()
		errOut.Reset()
		code := Main([]string{"doctor", "--bin", bin, "--json"}, nil, &out, &errOut, getenv)
		var r doctor.Report
		require.NoError(t, json.Unmarshal(out.Bytes(), &r), out.String())
		return r, code
	}
	r, code := run()
	require.Equal(t, 1, code)
	require.False(t, r.OK)
	require.Len(t, r.Registrations, 1)
	require.Nil(t, r.Registrations[0].LastCall)
	require.Len(t, r.Problems, 1)
	require.Equal(t, "calls", r.Problems[0].Area)
	require.Equal(t, "codex", r.Problems[0].Provider)

	before := time.Now().Add(-time.Second)
	require.NoError(t, seen.Mark(seen.Dir(getenv), "codex", "PreToolUse"))
	require.NoError(t, seen.Mark(seen.Dir(getenv), "claude-code", "Stop")) // another tool's calls are not codex's
	r, code = run()
	require.Equal(t, 0, code, out.String())
	require.True(t, r.OK)
	require.Empty(t, r.Problems)
	reg := r.Registrations[0]
	require.Equal(t, "codex", reg.Provider)
	require.Equal(t, "current", reg.State)
	require.NotNil(t, reg.LastCall)
	require.True(t, reg.LastCall.After(before))
	require.Len(t, reg.Calls, 1)
	require.True(t, reg.Calls["PreToolUse"].After(before))
	require.Equal(t, []doctor.ConfigReport{{Path: filepath.Join(work, ".openhook.json"), Discovered: true, Trust: "HOOKSHIM_TRUST_ALL=1", Hooks: 1}}, r.Configs)
}

func TestAgo(t *testing.T) {
	now := time.Now()
	for d, want := range map[time.Duration]string{
		10 * time.Second: "just now", 5 * time.Minute: "5m ago", 3 * time.Hour: "3h ago", 30 * time.Hour: "30h ago", 72 * time.Hour: "3d ago",
	} {
		require.Equal(t, want, ago(now, now.Add(-d)))
	}
}
