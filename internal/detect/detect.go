// Package detect decides which tool sent a hook payload, and says why.
//
// Every provider's signals are scored against the payload (and, as weaker
// evidence, the environment). A --provider hint adds a fixed weight: it wins
// whenever the payload is neutral or agrees, and loses when the payload
// clearly belongs to another tool (Cursor runs hooks registered in
// .claude/settings.json with Cursor's own payload; Copilot and VS Code read
// that file too).
package detect

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/provider"
)

// HintWeight is what --provider is worth. A payload must carry more
// evidence than this for another tool before it overrules the hint.
const HintWeight = 8

// MinScore is the least evidence that names a provider without a hint.
const MinScore = 3

// Score is one provider's evidence.
type Score struct {
	Provider *provider.Provider
	Payload  int // from payload signals
	Env      int // from environment signals
	Hint     int // from --provider
	// Matched has bit i set when the provider's Signals[i] matched: a
	// list would allocate on every call, and only --explain reads it.
	Matched uint64
}

// MatchedSignals lists the signals that matched.
func (s Score) MatchedSignals() []provider.Signal {
	var out []provider.Signal
	for i, sig := range s.Provider.Signals {
		if s.Matched&(1<<i) != 0 {
			out = append(out, sig)
		}
	}
	return out
}

// Total is the whole score.
func (s Score) Total() int { return s.Payload + s.Env + s.Hint }

// Result is the outcome of detection.
type Result struct {
	Provider  *provider.Provider // nil when no tool could be told
	Hint      string             // the --provider value, as given
	Overruled bool               // the payload contradicted the hint
	Scores    []Score            // best first
}

// Detect scores every provider. hint is the --provider value ("" for none);
// an unknown hint is reported by the caller and otherwise ignored here.
func Detect(p provider.Payload, hint string) Result {
	res := Result{Hint: hint, Scores: make([]Score, 0, len(provider.All))}
	hinted := provider.Lookup(hint)
	for _, pr := range provider.All {
		s := Score{Provider: pr}
		for i := range pr.Signals {
			sig := &pr.Signals[i]
			if !sig.Test(p) {
				continue
			}
			s.Matched |= 1 << i
			if sig.Env {
				s.Env += sig.Weight
			} else {
				s.Payload += sig.Weight
			}
		}
		if pr == hinted {
			s.Hint = HintWeight
		}
		res.Scores = append(res.Scores, s)
	}
	// Stable: ties keep registry order. (slices, not sort.SliceStable:
	// the reflection behind the latter costs more than the scoring in a
	// process that lives for one call.)
	slices.SortStableFunc(res.Scores, func(a, b Score) int { return b.Total() - a.Total() })
	best := res.Scores[0]
	switch {
	case hinted != nil && scoreOf(res.Scores, hinted) >= best.Total():
		res.Provider = hinted
	case hinted != nil:
		res.Provider = best.Provider
		res.Overruled = true
	case best.Total() >= MinScore && (len(res.Scores) < 2 || best.Total() > res.Scores[1].Total()):
		res.Provider = best.Provider
	case best.Total() >= MinScore:
		// A tie between tools: the registry order decides, and --explain
		// shows the tie so the user can add --provider.
		res.Provider = best.Provider
	}
	return res
}

func scoreOf(scores []Score, pr *provider.Provider) int {
	for _, s := range scores {
		if s.Provider == pr {
			return s.Total()
		}
	}
	return 0
}

// Explain renders the scores as text for --explain.
func (r Result) Explain() string {
	var b strings.Builder
	switch {
	case r.Provider == nil:
		fmt.Fprintf(&b, "provider: unknown (no tool scored %d or more)\n", MinScore)
	case r.Overruled:
		fmt.Fprintf(&b, "provider: %s (the payload overrules --provider %s)\n", r.Provider.ID, r.Hint)
	case r.Hint != "":
		fmt.Fprintf(&b, "provider: %s (--provider %s, not contradicted by the payload)\n", r.Provider.ID, r.Hint)
	default:
		fmt.Fprintf(&b, "provider: %s (detected from the payload)\n", r.Provider.ID)
	}
	for _, s := range r.Scores {
		if s.Matched == 0 && s.Hint == 0 {
			continue
		}
		fmt.Fprintf(&b, "  %-15s %3d  (payload %d, env %d, hint %d)\n", s.Provider.ID, s.Total(), s.Payload, s.Env, s.Hint)
		for _, m := range s.MatchedSignals() {
			fmt.Fprintf(&b, "      %+d  %s\n", m.Weight, m.Desc())
		}
		if s.Hint != 0 {
			fmt.Fprintf(&b, "      %+d  --provider %s\n", s.Hint, r.Hint)
		}
	}
	return b.String()
}
