package main

import (
	"bytes"
	"encoding/json"
	"errors"
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
// judges the fast runs and passes.
func TestSmokeIgnoresNoise(t *testing.T) {
	dir := t.TempDir()
	noisy := append(repeat(1.5, 3), repeat(40, 12)...) // most runs stretched 25x
	export(t, dir, "r1.json", map[string][]float64{
		"sh": repeat(0.5, 15), "floor": append(repeat(1.5, 5), repeat(3, 10)...), "no-match": noisy,
		"floor-10MiB": repeat(10, 4), "no-match-10MiB": repeat(60, 4),
	})
	var out bytes.Buffer
	err := report([]string{"-raw", dir, "-mode", "smoke"}, &out)
	require.NoError(t, err, out.String())
	require.Contains(t, out.String(), "| no matching handler vs the floor |")
	require.Contains(t, out.String(), "MISSED", "the median misses the 1.3x budget and says so")
}

// A call that became ten times slower fails the smoke check.
func TestSmokeFailsOnRegression(t *testing.T) {
	dir := t.TempDir()
	export(t, dir, "r1.json", map[string][]float64{
		"sh": repeat(0.5, 10), "floor": repeat(1.5, 10), "no-match": repeat(12, 10),
	})
	var out bytes.Buffer
	err := report([]string{"-raw", dir, "-mode", "smoke"}, &out)
	require.True(t, errors.Is(err, errBudget), "%v", err)
	require.Contains(t, out.String(), "REGRESSION")

	// The full run reports the same numbers without failing.
	out.Reset()
	require.NoError(t, report([]string{"-raw", dir, "-mode", "full"}, &out))
}

func TestSmokeFailsOnSlowLargePayload(t *testing.T) {
	dir := t.TempDir()
	export(t, dir, "r1.json", map[string][]float64{
		"sh": repeat(0.5, 6), "floor": repeat(1.5, 6), "no-match": repeat(1.8, 6),
		"floor-10MiB": repeat(10, 6), "no-match-10MiB": repeat(1500, 6),
	})
	var out bytes.Buffer
	err := report([]string{"-raw", dir, "-mode", "smoke"}, &out)
	require.True(t, errors.Is(err, errBudget), "%v", err)
	require.True(t, strings.Contains(out.String(), "10 MiB payload"))
}

func TestQuantile(t *testing.T) {
	require.Equal(t, 2.0, quantile([]float64{3, 1, 2}, 0.5))
	require.Equal(t, 1.5, quantile([]float64{1, 2}, 0.5))
	require.Equal(t, 0.0, quantile(nil, 0.5))
}

// One handler is judged against the spawner (a minimal Go program running
// the same handler), not against the handler exec'd in the shell's place.
func TestOneHandlerAgainstSpawner(t *testing.T) {
	for _, c := range []struct {
		one  float64
		want string
	}{{13, "| met |"}, {16, "| MISSED |"}} {
		dir := t.TempDir()
		export(t, dir, "r1.json", map[string][]float64{
			"sh": repeat(2, 5), "floor": repeat(6, 5), "no-match": repeat(7.5, 5),
			"handler-alone": repeat(6.5, 5), "spawner": repeat(12, 5), "one-handler": repeat(c.one, 5),
		})
		var out bytes.Buffer
		require.NoError(t, report([]string{"-raw", dir, "-mode", "full"}, &out))
		var line string
		for _, l := range strings.Split(out.String(), "\n") {
			if strings.HasPrefix(l, "| one handler vs a minimal Go program") {
				line = l
			}
		}
		require.Contains(t, line, c.want, out.String())
		require.Contains(t, out.String(), "the spawner's: 5.50 ms")
	}
	// Ten times the spawner is a regression even in the smoke check.
	dir := t.TempDir()
	export(t, dir, "r1.json", map[string][]float64{
		"sh": repeat(2, 5), "floor": repeat(6, 5), "no-match": repeat(7.5, 5),
		"handler-alone": repeat(6.5, 5), "spawner": repeat(12, 5), "one-handler": repeat(120, 5),
	})
	var out bytes.Buffer
	err := report([]string{"-raw", dir, "-mode", "smoke"}, &out)
	require.True(t, errors.Is(err, errBudget), "%v", err)
}
