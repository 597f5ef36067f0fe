package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/trust"
)

// allowed is what the trust stage decided for one project config that
// runs: its verification, whose Copy its handlers' scripts run from, and,
// when the project changed since the allowance, what changed.
type allowed struct {
	v       trust.Verified
	changes []trust.Change // nil: unchanged
}

// admit is the trust gate's answer for a config with an allowance: the
// bytes to parse, or nil when none may run. A change since the allowance
// does not stop the policy: the allowed version runs from its copy, and
// every call says so (notice). Where that version cannot be had, the
// config is lost: every call says so too, and answers by the failure
// mode (lostAnswer).
func (c *call) admit(path string, v trust.Verified) []byte {
	switch {
	case v.State == trust.Allowed:
		c.keep(path, allowed{v: v})
		return v.Content
	case v.State == trust.Changed && v.Content != nil:
		c.keep(path, allowed{v: v, changes: v.Changes})
		return v.Content
	case v.State == trust.Changed || v.State == trust.Outdated:
		if v.FailsClosed {
			c.onError = "deny" // the allowed version asked for it
		}
		c.rec.Trust = append(c.rec.Trust, ConfigTrust{path, v.State.String()})
		c.lost = append(c.lost, fmt.Sprintf("%s is %s and no copy of the allowed version is kept: its hooks cannot run; review it, then run: hookshim allow %s", path, v.State, path))
	}
	return nil
}

func (c *call) keep(path string, a allowed) {
	if c.allowed == nil {
		c.allowed = map[string]allowed{}
	}
	c.allowed[path] = a
}

// removed finds an allowed project config that is no longer there, nearer
// to start than the project config discovery found (or with none found):
// deleting .openhook.json is a change like any other, and its allowed
// version keeps running. One stat of an allow record per folder above
// start, up to the config found.
func (c *call) removed(found []config.Found, start string) []config.Found {
	if c.getenv("HOOKSHIM_TRUST_ALL") == "1" {
		return found
	}
	store, err := trust.DefaultStore(c.getenv)
	if err != nil {
		return found
	}
	dir, err := filepath.Abs(start)
	if err != nil {
		return found
	}
	stop := ""
	for _, f := range found {
		if f.Discovered {
			stop = filepath.Dir(f.Path)
		}
	}
	for ; dir != stop; dir = filepath.Dir(dir) {
		path := filepath.Join(dir, config.FileName)
		if _, err := os.Lstat(store.Allowance(path)); err == nil {
			if _, err := os.Lstat(path); err != nil {
				if f := c.lostConfig(store, path); f != nil {
					out := slices.DeleteFunc(slices.Clone(found), func(f config.Found) bool { return f.Discovered })
					return append(out, config.Found{File: f, Discovered: true})
				}
				return found
			}
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	return found
}

// lostConfig is the allowed version of a removed config, parsed; nil
// when it cannot be had (said on every call by admit).
func (c *call) lostConfig(store trust.Store, path string) *config.File {
	v, err := store.Verify(path)
	if err != nil {
		c.problem("trust: " + err.Error())
	}
	content := c.admit(path, v)
	if content == nil {
		return nil
	}
	f, err := config.Parse(path, content)
	if err != nil {
		c.problem("trust: the allowed version of " + path + ": " + err.Error())
		return nil
	}
	return f
}

// notice says, for one config that runs its allowed version, what
// changed since and how to allow it.
func notice(path string, changes []trust.Change) string {
	dir := filepath.Dir(path)
	var what []string
	for i, ch := range changes {
		if i == 3 {
			what = append(what, fmt.Sprintf("and %d more", len(changes)-i))
			break
		}
		p := ch.Path
		if rel, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(rel, "..") {
			p = rel
		}
		what = append(what, p+" "+ch.How)
	}
	return fmt.Sprintf("%s: %s since allowed; the allowed version keeps running until you review the change and run: hookshim allow %s",
		path, strings.Join(what, ", "), path)
}

// pinCommands collects what the configs that run from an allowance must
// say on this call, and fails the handlers of one whose extended file
// changed (its allowed version cannot be had).
func (c *call) pinCommands(configs []config.Found) {
	for _, f := range configs {
		a, ok := c.allowed[f.Path]
		if !f.Discovered || !ok {
			continue
		}
		if a.changes == nil {
			// unchanged
		} else if i := slices.IndexFunc(f.Extended, func(x *config.File) bool {
			return slices.ContainsFunc(a.changes, func(ch trust.Change) bool { return ch.Path == x.Path })
		}); i >= 0 {
			// What it extends is read as it is now, not from the copy:
			// its hooks cannot run the allowed version, and fail as
			// their on_error says.
			x := f.Extended[i].Path
			c.lost = append(c.lost, fmt.Sprintf("%s: %s, which it extends, changed since allowed: its hooks cannot run; review the change, then run: hookshim allow %s", f.Path, x, f.Path))
			for _, h := range f.Hooks {
				c.unpinned(h, fmt.Errorf("%s, which %s extends, changed since allowed", x, f.Path))
			}
		} else {
			c.trustNotices = append(c.trustNotices, notice(f.Path, a.changes))
		}
	}
}

// pinHook makes a matched handler of a config that runs from an
// allowance run what was allowed: its command pointed at the copy
// (trust.Copy.Command; done for the handlers that run only, as reading a
// command line costs). A handler whose command still reads a pinned file
// from the project fails, as its on_error says, when that file may have
// changed since.
func (c *call) pinHook(f config.Found, h *config.Hook) {
	a, ok := c.allowed[f.Path]
	if !f.Discovered || !ok {
		return
	}
	if h.Type != "command" && h.Type != "" || h.Command == "" || c.pinErrs[h] != nil {
		return
	}
	// Looked up here, for a handler that runs: not on the calls that
	// match none.
	cp := a.v.Copy()
	if cp == nil {
		return // an allowance older than copies, unchanged: runs as before
	}
	line, unsure, err := cp.Command(h.Command, h.Dir, c.projectVar)
	switch {
	case err != nil:
		c.unpinned(h, fmt.Errorf("%w; run the tool from %s, or allow a config of that folder", err, filepath.Dir(f.Path)))
	case len(unsure) > 0 && a.changes != nil:
		// The fix (hookshim allow) is in the notice the user sees, not in
		// the failure, which may reach the model as a reason.
		c.unpinned(h, fmt.Errorf("cannot run the allowed version: its command reads %s from the project, which changed since allowed",
			strings.Join(unsure, ", ")))
	default:
		h.Command = line
		if d := cp.Dir(h.Dir); d != "" {
			// A handler whose working folder is a pinned one (its "cwd")
			// works in its copy, for what its scripts read relative to it.
			h.Dir = d
		}
	}
}

// projectVar is a project variable's value as the handler's shell will
// see it.
func (c *call) projectVar(name string) string {
	if name == "HOOKSHIM_PROJECT_DIR" {
		return c.ev.ProjectDir
	}
	return c.getenv(name)
}

func (c *call) unpinned(h *config.Hook, err error) {
	if c.pinErrs == nil {
		c.pinErrs = map[*config.Hook]error{}
	}
	if _, ok := c.pinErrs[h]; !ok {
		c.pinErrs[h] = err
	}
}

// trustProblems puts the notices of the configs that run their allowed
// version among the warnings, on every call: a policy that runs an older
// version is never silent. (The configs that cannot run at all are told
// where the call decides how to answer for them.)
func (c *call) trustProblems() {
	c.rec.Problems = append(c.rec.Problems, c.trustNotices...)
}

// tellUser adds the trust notices to the answer where the tool shows the
// user a message (not the model: it must not be told how to change its
// guardrails).
func (c *call) tellUser(v *decision.Verdict) {
	msgs := slices.Concat(c.trustNotices, c.lost, c.switched)
	if len(msgs) == 0 || c.spec == nil || !c.spec.Can.Has(provider.CanMessage) {
		return
	}
	for _, m := range msgs {
		if v.SystemMessage != "" {
			v.SystemMessage += "\n"
		}
		v.SystemMessage += "hookshim: " + m
	}
}

// changedFiles are the files changed since the allowances of the configs
// in force: part of the duplicate key, as a change is a change of what
// answers (a handler that now fails, a notice).
func (c *call) changedFiles(configs []config.Found) []string {
	var out []string
	for _, f := range configs {
		for _, ch := range c.allowed[f.Path].changes {
			out = append(out, ch.Path)
		}
	}
	return out
}
