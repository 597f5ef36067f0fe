package cli

import (
	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/dialect"
)

// checkHandlers is f.Check and the dialect checks: what keeps a handler
// from starting, or from ever being given a payload.
func checkHandlers(f *config.File, cwd string) []config.Problem {
	out := f.Check(cwd, nil)
	for _, h := range f.Hooks {
		if p := dialect.Check(h); p != nil {
			p.Pos = displayPath(cwd, p.Pos)
			out = append(out, *p)
		}
	}
	return out
}
