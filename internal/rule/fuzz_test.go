package rule

import (
	"testing"
)

// FuzzRule: any expression compiles or fails with an *Error at an offset
// inside it, and one that compiles evaluates on any command line without
// a panic.
func FuzzRule(f *testing.F) {
	for _, s := range []string{
		`any(commands, .name == "rm" && "r" in .flags && "/" in .operands)`,
		"command matches `rm\\s+-rf`",
		`glob(path, "src/**/*.go") || runs("git", "push", "--force")`,
		`input.timeout > 1 && len(paths) == 0`,
		`filter(commands, len(.via) > 0)[0].name == "x"`,
	} {
		f.Add(s, "cd /tmp && sudo bash -c 'rm -rf /'")
	}
	f.Fuzz(func(t *testing.T, src, line string) {
		r, err := Compile(src)
		if err != nil {
			e, ok := err.(*Error)
			if !ok {
				t.Fatalf("%q: %T %v", src, err, err)
			}
			if e.Offset < 0 || e.Offset > len([]rune(src)) {
				t.Fatalf("%q: offset %d outside the expression", src, e.Offset)
			}
			return
		}
		_, _ = r.Match(NewEnv(shellEvent(line)))
	})
}
