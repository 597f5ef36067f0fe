package rule

import (
	"fmt"
	"testing"
)

// ruleSeeds are FuzzRule's seeds.
var ruleSeeds = []string{
	`any(commands, .name == "rm" && "r" in .flags && "/" in .operands)`,
	"command matches `rm\\s+-rf`",
	`glob(path, "src/**/*.go") || runs("git", "push", "--force")`,
	`input.timeout > 1 && len(paths) == 0`,
	`filter(commands, len(.via) > 0)[0].name == "x"`,
}

// FuzzRule: any expression compiles or fails with an *Error at an offset
// inside it, and one that compiles evaluates on any command line without
// a panic, the same way each time it is compiled.
func FuzzRule(f *testing.F) {
	for _, s := range ruleSeeds {
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
		m, err := r.Match(NewEnv(shellEvent(line)))
		// Compiled again, the expression answers the same: nothing of one
		// evaluation leaks into the next.
		r2, err2 := Compile(src)
		if err2 != nil {
			t.Fatalf("%q compiles once, then not: %v", src, err2)
		}
		m2, err2 := r2.Match(NewEnv(shellEvent(line)))
		if m != m2 || fmt.Sprint(err) != fmt.Sprint(err2) {
			t.Fatalf("%q on %q: compiled again gives %v %v, not %v %v", src, line, m2, err2, m, err)
		}
	})
}
