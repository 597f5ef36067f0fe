package respond_test

import (
	"fmt"
	"testing"

	"github.com/hookshim/hookshim/bench/benchdata"
	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/respond"
	"github.com/hookshim/hookshim/internal/run"
)

// results are n handlers' answers: the first denies, the others add
// context, so that every merge rule and degradation has work to do.
func results(n int) []run.Result {
	out := make([]run.Result, n)
	for i := range out {
		h := &config.Hook{Name: fmt.Sprintf("guard-%d", i+1)}
		o := decision.Output{Handler: h.Name, Context: fmt.Sprintf("note %d from the policy", i+1)}
		if i == 0 {
			o = decision.Output{Handler: h.Name, Decision: decision.Deny, Reason: "rm -rf / is not allowed"}
		}
		out[i] = run.Result{Hook: h, Output: o}
	}
	return out
}

// BenchmarkRespond merges handler answers, degrades them to what the
// sample's event can express and encodes the tool's answer.
func BenchmarkRespond(b *testing.B) {
	for _, n := range []int{1, 8} {
		rs := results(n)
		for _, c := range benchdata.Small() {
			b.Run(fmt.Sprintf("%s/handlers-%d", c.Name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					v := respond.Verdict(c.Spec, rs, "allow")
					respond.Encode(c.Provider, c.Spec, v)
				}
			})
		}
	}
}

// BenchmarkNoOpinion is the answer of every call no handler matched.
func BenchmarkNoOpinion(b *testing.B) {
	for _, c := range benchdata.Small() {
		b.Run(c.Name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				respond.NoOpinion(c.Provider, c.Spec)
			}
		})
	}
}
