package doctor

import (
	"slices"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/extend"
	"github.com/hookshim/hookshim/internal/wire"
)

// Extends is the check Options.Extends takes: it pulls in what the
// configs in force extend, as a hook call does (from the cache only, never
// fetching), so that their handlers are checked too; an extension that a
// call could not read is a problem.
func Extends(getenv func(string) string) func(r *Report, found []config.Found) {
	return func(r *Report, found []config.Found) {
		if !slices.ContainsFunc(found, func(f config.Found) bool { return len(f.Extends) > 0 }) {
			return
		}
		cache, err := extend.DefaultCache(getenv)
		if err != nil {
			r.Add(Problem{Area: "extends", Message: wire.OneLine(err.Error()), Fix: "set HOME or XDG_CACHE_HOME"})
			return
		}
		for _, f := range found {
			rep, err := extend.Resolve(f.File, extend.Options{Cache: cache})
			if err != nil {
				r.Add(Problem{Area: "extends", Path: f.Path, Message: wire.OneLine(err.Error()), Fix: "fix the entry (docs/config.md, \"extends\"); until then every call answers as on_error says"})
			}
			for _, u := range rep.Unavailable {
				r.Add(Problem{Area: "extends", Path: f.Path, Message: wire.OneLine(u), Fix: "hookshim fetch"})
			}
		}
	}
}
