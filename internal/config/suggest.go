package config

import (
	"strconv"
	"strings"

	"github.com/agnivade/levenshtein"
	"github.com/hookshim/hookshim/internal/event"
)

// Nearest returns the name of known closest to word, or "" when none is
// close enough to be the name meant: a typo is a letter or two away
// ("shel", "hoks"), a different word is not. Case is ignored, so that
// "Shell" finds "shell".
func Nearest(word string, known []string) string {
	best, bestDist := "", 0
	w := strings.ToLower(word)
	for _, k := range known {
		d := levenshtein.ComputeDistance(w, strings.ToLower(k))
		if d == 0 && k == word {
			return ""
		}
		if best == "" || d < bestDist {
			best, bestDist = k, d
		}
	}
	// One edit in a short name, two (a swap of letters) in a longer one,
	// and never more than half the word: "rn" is "run", "rm" is not.
	limit := 1
	if len(w) >= 5 {
		limit = 2
	}
	if best == "" || bestDist > limit || bestDist*2 > len(w) {
		return ""
	}
	return best
}

// DidYouMean is " (did you mean \"x\"?)" for the nearest known name, or "".
func DidYouMean(word string, known []string) string {
	if n := Nearest(word, known); n != "" {
		return " (did you mean " + strconv.Quote(n) + "?)"
	}
	return ""
}

// eventNames are the canonical event names, for the nearest to an unknown
// one.
func eventNames() []string {
	out := make([]string, len(event.Names))
	for i, n := range event.Names {
		out[i] = string(n)
	}
	return out
}
