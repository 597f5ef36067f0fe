package rule

import (
	"fmt"
	"testing"

	"github.com/tidwall/gjson"
)

// ruleSeeds are FuzzRule's seeds, which the cache tests round-trip too.
var ruleSeeds = []string{
	`any(commands, .name == "rm" && "r" in .flags && "/" in .operands)`,
	"command matches `rm\\s+-rf`",
	`glob(path, "src/**/*.go") || runs("git", "push", "--force")`,
	`input.timeout > 1 && len(paths) == 0`,
	`filter(commands, len(.via) > 0)[0].name == "x"`,
}

// FuzzRule: any expression compiles or fails with an *Error at an offset
// inside it, and one that compiles evaluates on any command line without
// a panic, and its program, if the cache keeps it, is rebuilt the same.
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
		p, perr := r.program()
		if perr != nil {
			return
		}
		enc, ok := encodeProgram(p)
		if !ok {
			return
		}
		p2 := decodeProgram(src, gjson.Parse(string(enc)))
		if p2 == nil {
			t.Fatalf("%q: %s does not decode", src, enc)
		}
		if p.Disassemble() != p2.Disassemble() {
			t.Fatalf("%q: rebuilt as\n%s\nnot\n%s", src, p2.Disassemble(), p.Disassemble())
		}
		r2 := &Rule{Source: src, prog: p2}
		r2.once.Do(func() {})
		m2, err2 := r2.Match(NewEnv(shellEvent(line)))
		if m != m2 || fmt.Sprint(err) != fmt.Sprint(err2) {
			t.Fatalf("%q on %q: rebuilt gives %v %v, not %v %v", src, line, m2, err2, m, err)
		}
	})
}
