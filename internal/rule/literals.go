package rule

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
)

// lazyRE is the constant a constant regular expression becomes: the
// pattern, compiled on its first use, and the literal text every match of
// it contains (need). Compiling a regular expression costs a call more than
// evaluating all of its rules, and most texts a rule looks at cannot match
// (no "git" in the command, no "git push --force" either): a text that
// holds none of need is answered without compiling anything. Most rules of
// a call are not for its event either (`tool == 'shell' && command matches
// …` on a file edit), and a call should not pay for expressions it never
// reaches.
type lazyRE struct {
	pattern string
	need    []string // every match contains one of these; nil: no such set
	once    sync.Once
	re      *regexp.Regexp
}

func newLazyRE(pattern string, parsed *syntax.Regexp) *lazyRE {
	need, ok := literals(parsed)
	if !ok {
		need = nil
	}
	return &lazyRE{pattern: pattern, need: need}
}

// match reports whether s matches, as regexp's MatchString does.
func (l *lazyRE) match(s string) bool {
	if l.need != nil && !containsAny(s, l.need) {
		return false
	}
	return l.get().MatchString(s)
}

func (l *lazyRE) get() *regexp.Regexp {
	// Checked when the rule was compiled; a panic here is an error of the
	// evaluation (vm.Run recovers it), never a crash.
	l.once.Do(func() { l.re = regexp.MustCompile(l.pattern) })
	return l.re
}

// String is what Disassemble shows, as it shows a *regexp.Regexp.
func (l *lazyRE) String() string { return l.pattern }

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// maxLiterals bounds the set literals returns: an alternation of more
// words is not worth scanning for each.
const maxLiterals = 16

// literals is a set of strings one of which occurs in every text re
// matches, as regexp.MatchString matches (anywhere in the text); ok is
// false when there is no such set, as for `.*`, `[a-z]+`, `(?i)git` or
// `a|b*`. It follows only what a match cannot do without: a literal
// (case-sensitive), a group, one or more repetitions, each part of a
// sequence (the part whose shortest string is longest), every branch of an
// alternation (their sets joined).
func literals(re *syntax.Regexp) (set []string, ok bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 || len(re.Rune) == 0 {
			return nil, false
		}
		return []string{string(re.Rune)}, true
	case syntax.OpCapture, syntax.OpPlus:
		return literals(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return literals(re.Sub[0])
		}
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if s, ok := literals(sub); ok && (set == nil || shortest(s) > shortest(set)) {
				set = s
			}
		}
		return set, set != nil
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			s, ok := literals(sub)
			if !ok || len(set)+len(s) > maxLiterals {
				return nil, false
			}
			set = append(set, s...)
		}
		return set, true
	}
	return nil, false
}

func shortest(set []string) int {
	n := -1
	for _, s := range set {
		if n < 0 || len(s) < n {
			n = len(s)
		}
	}
	return n
}
