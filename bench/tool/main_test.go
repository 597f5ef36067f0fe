package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// export writes one hyperfine export with the given run times (ms).
func export(t *testing.T, dir, name string, cmds map[string][]float64) {
	t.Helper()
	var x hyperfineExport
	for c, ms := range cmds {
		var times []float64
		for _, v := range ms {
			times = append(times, v/1000)
		}
		x.Results = append(x.Results, struct {
			Command string    `json:"command"`
			Times   []float64 `json:"times"`
			User    float64   `json:"user"`
			System  float64   `json:"system"`
		}{c, times, 0.001, 0.001})
	}
	b, err := json.Marshal(x)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), b, 0o644))
}

func repeat(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// A busy machine stretches some runs by far more than 10x: the smoke check
// judges the fast runs and passes, while the full run reports the miss.
func TestSmokeIgnoresNoise(t *testing.T) {
	dir := t.TempDir()
	noisy := append(repeat(1.5, 3), repeat(40, 12)...) // most runs stretched 25x
	export(t, dir, "r1.json", map[string][]float64{
		"sh": repeat(0.5, 15), "floor": append(repeat(1.5, 5), repeat(3, 10)...), "no-match": noisy,
		"floor-10MiB": repeat(10, 4), "no-match-10MiB": repeat(15, 4),
	})
	var out bytes.Buffer
	require.NoError(t, report([]string{"-raw", dir, "-mode", "smoke"}, &out), out.String())
	require.Contains(t, out.String(), "| no matching handler vs the floor | 15.80x | 1.00x | ≤ 1.75x | FAIL |")

	out.Reset()
	err := report([]string{"-raw", dir, "-mode", "full"}, &out)
	require.True(t, errors.Is(err, errBudget), "%v", err)
}

// A call that became ten times slower fails the smoke check.
func TestSmokeFailsOnRegression(t *testing.T) {
	dir := t.TempDir()
	export(t, dir, "r1.json", map[string][]float64{
		"sh": repeat(0.5, 10), "floor": repeat(1.5, 10), "no-match": repeat(12, 10),
	})
	var out bytes.Buffer
	err := report([]string{"-raw", dir, "-mode", "smoke"}, &out)
	require.True(t, errors.Is(err, errRegression), "%v", err)
	require.Contains(t, out.String(), "REGRESSION")
}

func TestSmokeFailsOnSlowLargePayload(t *testing.T) {
	dir := t.TempDir()
	export(t, dir, "r1.json", map[string][]float64{
		"sh": repeat(0.5, 6), "floor": repeat(1.5, 6), "no-match": repeat(1.8, 6),
		"floor-10MiB": repeat(10, 6), "no-match-10MiB": repeat(1500, 6),
	})
	var out bytes.Buffer
	err := report([]string{"-raw", dir, "-mode", "smoke"}, &out)
	require.True(t, errors.Is(err, errRegression), "%v", err)
	require.True(t, strings.Contains(out.String(), "10 MiB payload"))
}

func TestQuantile(t *testing.T) {
	require.Equal(t, 2.0, quantile([]float64{3, 1, 2}, 0.5))
	require.Equal(t, 1.5, quantile([]float64{1, 2}, 0.5))
	require.Equal(t, 0.0, quantile(nil, 0.5))
}

// Each budget is a ratio of medians less the shell's, against its own
// floor: the no-match call against the floor (1.75x), one handler against
// the spawner (1.35x), the 10 MiB call against the floor reading the same
// bytes (2x). A full run passes only when all three do.
func TestBudgets(t *testing.T) {
	base := map[string][]float64{
		"sh": repeat(0.5, 5), "floor": repeat(1.5, 5), "spawner": repeat(10.5, 5), "floor-10MiB": repeat(10.5, 5),
	}
	for _, c := range []struct {
		call string
		ms   float64
		line string
	}{
		{"no-match", 2.2, "| no matching handler vs the floor | 1.70x | 1.70x | ≤ 1.75x | pass |"},
		{"no-match", 2.3, "| no matching handler vs the floor | 1.80x | 1.80x | ≤ 1.75x | FAIL |"},
		{"one-handler", 13.5, "| one handler vs a minimal Go program running the same handler (spawner) | 1.30x | 1.30x | ≤ 1.35x | pass |"},
		{"one-handler", 14.5, "| one handler vs a minimal Go program running the same handler (spawner) | 1.40x | 1.40x | ≤ 1.35x | FAIL |"},
		{"no-match-10MiB", 20.5, "| 10 MiB payload, no matching handler, vs the floor reading it | 2.00x | 2.00x | ≤ 2.0x | pass |"},
		{"no-match-10MiB", 25.5, "| 10 MiB payload, no matching handler, vs the floor reading it | 2.50x | 2.50x | ≤ 2.0x | FAIL |"},
	} {
		cmds := map[string][]float64{c.call: repeat(c.ms, 5)}
		maps.Copy(cmds, base)
		dir := fullReport(t, cmds, c.line, fmt.Sprintf("%s %v", c.call, c.ms))
		// A miss is not a regression: the smoke run passes.
		require.NoError(t, report([]string{"-raw", dir, "-mode", "smoke"}, &bytes.Buffer{}))
	}
}

// fullReport writes cmds as one run and reports it in full mode: line
// is in the report, and the run misses its budget exactly when line
// says FAIL. It returns the run's folder.
func fullReport(t *testing.T, cmds map[string][]float64, line, what string) string {
	t.Helper()
	dir := t.TempDir()
	export(t, dir, "r1.json", cmds)
	var out bytes.Buffer
	err := report([]string{"-raw", dir, "-mode", "full"}, &out)
	require.Contains(t, out.String(), line)
	require.Equal(t, strings.HasSuffix(line, "FAIL |"), errors.Is(err, errBudget), "%s: %v", what, err)
	return dir
}

// The rule budgets: a typical rule set within 1.3x a no-match call, and
// the jq hook run by the tool at least 8x a rule through hookshim.
func TestRuleBudgets(t *testing.T) {
	base := map[string][]float64{"sh": repeat(0.5, 5), "floor": repeat(1.5, 5), "no-match": repeat(2.0, 5)}
	for _, c := range []struct {
		call string
		ms   float64
		line string
	}{
		{"rules", 2.3, "| a typical rule set vs no matching handler | 1.20x | 1.20x | ≤ 1.3x | pass |"},
		{"rules", 2.5, "| a typical rule set vs no matching handler | 1.33x | 1.33x | ≤ 1.3x | FAIL |"},
	} {
		cmds := map[string][]float64{c.call: repeat(c.ms, 5)}
		maps.Copy(cmds, base)
		fullReport(t, cmds, c.line, fmt.Sprintf("%s %v", c.call, c.ms))
	}
	for _, c := range []struct {
		jq   float64
		line string
	}{
		{18.5, "| the jq hook run by the tool vs the same policy as a rule through hookshim (times slower) | 9.00x | 9.00x | ≥ 8.0x | pass |"},
		{14.5, "| the jq hook run by the tool vs the same policy as a rule through hookshim (times slower) | 7.00x | 7.00x | ≥ 8.0x | FAIL |"},
	} {
		fullReport(t, map[string][]float64{"sh": repeat(0.5, 5), "floor": repeat(1.5, 5),
			"rule": repeat(2.5, 5), "jq-hook": repeat(c.jq, 5)}, c.line, fmt.Sprintf("jq-hook %v", c.jq))
	}
	// Slower than the jq hook itself: a regression even for the smoke check.
	dir := t.TempDir()
	export(t, dir, "r1.json", map[string][]float64{"sh": repeat(0.5, 5), "floor": repeat(1.5, 5),
		"rule": repeat(20, 5), "jq-hook": repeat(16.5, 5)})
	err := report([]string{"-raw", dir, "-mode", "smoke"}, &bytes.Buffer{})
	require.True(t, errors.Is(err, errRegression), "%v", err)
}
