package normalize_test

import (
	"testing"
	"time"

	"github.com/hookshim/hookshim/bench/benchdata"
	"github.com/hookshim/hookshim/internal/normalize"
)

// cases are the samples, and with -short off a 10 MiB post-tool payload
// per provider.
func cases() []benchdata.Case {
	if testing.Short() {
		return benchdata.Small()
	}
	return append(benchdata.Small(), benchdata.Large(10*benchdata.MiB)...)
}

// BenchmarkEvent normalizes each sample payload into the canonical event.
func BenchmarkEvent(b *testing.B) {
	for _, c := range cases() {
		p := c.Payload()
		b.Run(c.Name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.Raw)))
			for b.Loop() {
				normalize.Event(c.Provider, c.Spec, p)
			}
		})
	}
}

// BenchmarkEnvelope writes the OpenHook envelope a handler reads, from an
// event already normalized, in the pieces the runner writes out.
func BenchmarkEnvelope(b *testing.B) {
	now := time.Date(2026, 11, 22, 7, 33, 49, 0, time.UTC)
	for _, c := range cases() {
		ev := normalize.Event(c.Provider, c.Spec, c.Payload())
		b.Run(c.Name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.Raw)))
			for b.Loop() {
				normalize.EnvelopeParts(ev, "0b9a5c3e-52d7-4d1f-9d2c-1b1f6a0f4e11", now, "bench")
			}
		})
	}
}
