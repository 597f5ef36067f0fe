package rule

import (
	"errors"
	"path"
	"strings"
)

// Glob reports whether name matches pattern: path.Match on each
// slash-separated element, where an element `**` matches any number of
// elements, none included. A malformed pattern matches nothing (Compile
// rejects a constant one).
//
// Matching is element by element and `**` never backtracks past the
// element it could next match more than once per pattern element, so the
// cost is at most the product of the two element counts.
func Glob(name, pattern string) bool {
	return globParts(strings.Split(name, "/"), strings.Split(pattern, "/"))
}

func globParts(name, pat []string) bool {
	// States: the set of positions in name that the pattern so far can
	// have consumed up to (dynamic programming over elements: linear in
	// len(name) for each pattern element).
	cur := make([]bool, len(name)+1)
	cur[0] = true
	next := make([]bool, len(name)+1)
	for _, p := range pat {
		clear(next)
		any := false
		if p == "**" {
			reach := false
			for i := range cur {
				reach = reach || cur[i]
				next[i] = reach
				any = any || reach
			}
		} else {
			for i := range len(name) {
				if cur[i] {
					if ok, _ := path.Match(p, name[i]); ok {
						next[i+1] = true
						any = true
					}
				}
			}
		}
		if !any {
			return false
		}
		cur, next = next, cur
	}
	return cur[len(name)]
}

// ValidGlob reports whether pattern is well formed.
func ValidGlob(pattern string) error {
	for _, p := range strings.Split(pattern, "/") {
		if _, err := path.Match(p, ""); err != nil {
			return errors.New("malformed pattern (unclosed [ or a trailing \\)")
		}
	}
	return nil
}
