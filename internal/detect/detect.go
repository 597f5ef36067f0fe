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
	return detect(p, hint, false)
}

// Decide is Detect for a call that needs the outcome only, not every
// score: with a hint, a provider whose signals could not outscore the
// hinted provider even if every one of them matched is not scored. A tool
// calls hookshim with the --provider that install wrote, so most calls
// score one or two providers instead of all of them, and do not touch the
// others' tables and tests at all, which in a process that lives for one
// call is most of detection's cost. The outcome (Provider, Overruled) is
// Detect's; Scores lists the providers that were scored.
func Decide(p provider.Payload, hint string) Result {
	return detect(p, hint, true)
}

func detect(p provider.Payload, hint string, prune bool) Result {
	hinted := provider.Lookup(hint)
	prune = prune && hinted != nil
	res := Result{Hint: hint, Scores: make([]Score, 0, len(provider.All))}
	var h Score // the hinted provider's, scored first when pruning
	if prune {
		h = score(hinted, p)
		h.Hint = HintWeight
	}
	for _, pr := range provider.All {
		var s Score
		switch {
		case prune && pr == hinted:
			s = h
		case prune:
			var full bool
			if s, full = scoreAbove(pr, p, h.Total()); !full {
				continue // cannot beat the hint: ties go to the hinted provider
			}
		default:
			s = score(pr, p)
			if pr == hinted {
				s.Hint = HintWeight
			}
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

// score tests pr's signals against the payload.
func score(pr *provider.Provider, p provider.Payload) Score {
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
	return s
}

// scoreAbove is score for a provider that matters only if it scores more
// than bar: it stops, and reports false, as soon as the signals left to
// test could not lift it above bar even if every one of them matched.
func scoreAbove(pr *provider.Provider, p provider.Payload, bar int) (Score, bool) {
	s := Score{Provider: pr}
	left := maxScore(pr) // what the untested signals could still add
	for i := range pr.Signals {
		if s.Total()+left <= bar {
			return s, false
		}
		sig := &pr.Signals[i]
		if sig.Weight > 0 {
			left -= sig.Weight
		}
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
	return s, true
}

// maxScore is the most pr can score: every signal of positive weight
// matching, none of negative weight.
func maxScore(pr *provider.Provider) int {
	n := 0
	for i := range pr.Signals {
		if w := pr.Signals[i].Weight; w > 0 {
			n += w
		}
	}
	return n
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
	if c, why := r.Confidence(); c != "" {
		fmt.Fprintf(&b, "confidence: %s (%s)\n", c, why)
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

// How sure a detection without --provider is. Several tools copy Claude
// Code's payload and even its environment variables (Factory Droid,
// CodeBuddy and Qwen Code set CLAUDE_PROJECT_DIR), so the margin over the
// runner-up says more than the score.
const (
	// Certain: the payload alone outscores every other tool by at least
	// CertainMargin.
	Certain = "certain"
	// Likely: the tool leads, but by less, or only with the environment's
	// help (variables leak into child processes).
	Likely = "likely"
	// Guess: another tool scores the same; the registry order picked the
	// one whose answer the others accept too (docs/providers.md).
	Guess = "a guess"
)

// CertainMargin is the lead of payload evidence that makes a detection
// certain: more than any single weak signal (a shared tool name, a
// permission mode) can make up.
const CertainMargin = 5

// Confidence rates a detection made without --provider and says why; it
// is "" when a hint decided or no tool was found.
func (r Result) Confidence() (level, why string) {
	if r.Provider == nil || r.Hint != "" {
		return "", ""
	}
	best := r.Scores[0]
	var next *Score
	for i := 1; i < len(r.Scores); i++ {
		if r.Scores[i].Provider != best.Provider {
			next = &r.Scores[i]
			break
		}
	}
	if next == nil || next.Total() <= 0 {
		if best.Payload >= CertainMargin {
			return Certain, fmt.Sprintf("payload evidence %d; no other tool has any", best.Payload)
		}
		return Likely, fmt.Sprintf("payload evidence %d, environment %d; no other tool has any", best.Payload, best.Env)
	}
	switch lead := best.Payload - next.Total(); {
	case best.Total() == next.Total():
		return Guess, fmt.Sprintf("%s scores the same; add --provider", next.Provider.ID)
	case lead >= CertainMargin:
		return Certain, fmt.Sprintf("the payload alone leads %s, the runner-up, by %d", next.Provider.ID, lead)
	case lead > 0:
		return Likely, fmt.Sprintf("the payload leads %s, the runner-up, by %d only", next.Provider.ID, lead)
	default:
		return Likely, fmt.Sprintf("ahead of %s only through environment variables, which leak into child processes", next.Provider.ID)
	}
}
