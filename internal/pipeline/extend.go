package pipeline

import (
	"errors"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/extend"
)

// extend pulls in what the configs in force extend, from files and from
// the cache of fetched URLs: a hook call never fetches. A project config
// gets here only once trusted, and its allowance pins the files it
// extends (package trust); a URL is pinned by the content of the file
// that names it. An extension that cannot be read is a warning, or, when
// its on_error is deny, hookshim's failure in fail-closed mode.
func (c *call) extend(found []config.Found) error {
	var seen map[string]bool
	for _, f := range found {
		if len(f.Extends) == 0 {
			continue
		}
		cache, err := extend.DefaultCache(c.getenv)
		if err != nil {
			c.problem("extends: " + err.Error())
		}
		if seen == nil {
			seen = map[string]bool{}
		}
		rep, err := extend.Resolve(f.File, extend.Options{Cache: cache, Seen: seen})
		c.rec.Notes = append(c.rec.Notes, rep.Notes...)
		var deny *extend.UnavailableError
		if errors.As(err, &deny) {
			c.onError = "deny"
		}
		if err != nil {
			return err
		}
	}
	return nil
}
