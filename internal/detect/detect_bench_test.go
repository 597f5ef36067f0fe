package detect_test

import (
	"testing"

	"github.com/hookshim/hookshim/bench/benchdata"
	"github.com/hookshim/hookshim/internal/detect"
)

// BenchmarkDetect scores every provider against each embedded sample, and
// against a post-tool payload with a 10 MiB tool output per provider.
func BenchmarkDetect(b *testing.B) {
	cases := benchdata.Small()
	if !testing.Short() {
		cases = append(cases, benchdata.Large(10*benchdata.MiB)...)
	}
	for _, c := range cases {
		p := c.Payload()
		b.Run(c.Name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.Raw)))
			for b.Loop() {
				if det := detect.Detect(p, ""); det.Provider != c.Provider {
					b.Fatalf("detected %v", det.Provider)
				}
			}
		})
	}
}
