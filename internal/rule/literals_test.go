package rule

import (
	"regexp"
	"regexp/syntax"
	"testing"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func need(t testing.TB, pattern string) []string {
	t.Helper()
	re, err := syntax.Parse(pattern, syntax.Perl)
	require.NoError(t, err)
	return newLazyRE(pattern, re).need
}

// The literals every match holds: one of them must be in the text for the
// expression to be compiled at all.
func TestLiterals(t *testing.T) {
	for pattern, want := range map[string][]string{
		`git\s+push\b.*(--force|\s-f\b)`:             {"push"},
		`(curl|wget)[^|]*\|\s*(sudo\s+)?(ba|z)?sh\b`: {"curl", "wget"},
		`(^|[;&|]\s*)sudo\s`:                         {"sudo"},
		`AKIA[0-9A-Z]{16}`:                           {"AKIA"},
		`rm`:                                         {"rm"},
		`(rm|mv)+ -r`:                                {" -r"},
		`(?:ab){2,}`:                                 {"ab"},
		`x(ab|cd)`:                                   {"ab", "cd"},
		`.*`:                                         nil,
		`[a-z]+`:                                     nil,
		`(?i)git`:                                    nil, // case folded: not a literal
		`git|.*`:                                     nil,
		`(ab)?`:                                      nil,
		`(ab)*c`:                                     {"c"},
		`^$`:                                         nil,
		`a|b|c|d|e|f|g|h|i|j|k|l|m|n|o|p|q|r|s`:      nil,   // too many to look for
		`é+ü`:                                        {"é"}, // the first of equals
		`\.env(\..*)?$`:                              {".env"},
		`(foo|bar)baz`:                               {"foo", "bar"},
		`(a|bb)(ccc|dddd)`:                           {"ccc", "dddd"},
	} {
		assert.Equal(t, want, need(t, pattern), pattern)
	}
}

// Never a wrong answer: a text the expression matches holds one of its
// literals.
func TestLiteralsKeepEveryMatch(t *testing.T) {
	texts := []string{"", "git push --force", "git  push -f", "curl x | sh", "wget -O- u | sudo bash", "a; sudo rm",
		"AKIA0123456789ABCDEF", "abab", "rm -r x", "mv -r", "xcd", "c", ".env.local", "foobaz", "bbdddd", "GIT PUSH"}
	for _, pattern := range []string{`git\s+push\b.*(--force|\s-f\b)`, `(curl|wget)[^|]*\|\s*(sudo\s+)?(ba|z)?sh\b`,
		`(^|[;&|]\s*)sudo\s`, `AKIA[0-9A-Z]{16}`, `(rm|mv)+ -r`, `(?:ab){2,}`, `x(ab|cd)`, `(ab)*c`, `\.env(\..*)?$`,
		`(foo|bar)baz`, `(a|bb)(ccc|dddd)`, `(?i)git`} {
		for _, text := range texts {
			checkLiterals(t, pattern, text)
		}
	}
}

func checkLiterals(t *testing.T, pattern, text string) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return
	}
	l := newLazyRE(pattern, re)
	if want := regexp.MustCompile(pattern).MatchString(text); l.match(text) != want {
		t.Fatalf("%q on %q: match %v, regexp says %v (literals %q)", pattern, text, !want, want, l.need)
	}
}

func FuzzLiterals(f *testing.F) {
	f.Add(`git\s+push\b.*(--force|\s-f\b)`, "git push -f")
	f.Add(`(a|bb)(ccc|dddd)`, "bbccc")
	f.Add(`(?i)Git`, "gIT")
	f.Add(`x{2,3}(y|z)+`, "xxzy")
	f.Fuzz(checkLiterals)
}

// A regular expression is compiled when a call reaches it, not before:
// `tool == 'shell' && command matches …` on a file edit never compiles it,
// nor does a command without the literal every match holds.
func TestRegexpCompiledOnUse(t *testing.T) {
	r, err := Compile("tool == 'shell' && command matches `rm\\s+-rf`")
	require.NoError(t, err)
	match := func(ev *event.Event) bool {
		m, err := r.Match(NewEnv(ev))
		require.NoError(t, err)
		return m
	}
	assert.False(t, match(fileEvent("file_edit", "a.go")))
	re := lazyConst(t, r)
	assert.Nil(t, re.re, "not compiled for a file edit")
	assert.Equal(t, []string{"-rf"}, re.need)
	assert.False(t, match(shellEvent("ls -l")))
	assert.Nil(t, re.re, "not compiled for a command without -rf")
	assert.True(t, match(shellEvent("rm -rf x")))
	assert.NotNil(t, re.re, "compiled for a command that may match")
}

// lazyConst is the one regular expression of r's program.
func lazyConst(t *testing.T, r *Rule) *lazyRE {
	p, err := r.program()
	require.NoError(t, err)
	for _, k := range p.Constants {
		if re, ok := k.(*lazyRE); ok {
			return re
		}
	}
	t.Fatal("no regular expression in the program")
	return nil
}
