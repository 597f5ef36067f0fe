package install

import (
	"fmt"
	"slices"

	"github.com/hookshim/hookshim/internal/provider"
)

// IDs are the ids of the tools install registers in, in registry order.
func IDs() []string {
	var ids []string
	for _, p := range Editable() {
		ids = append(ids, p.ID)
	}
	return ids
}

// Editable are the tools whose hook config install edits, in registry
// order: those `hookshim uninstall --all` looks at, registered or not.
func Editable() []*provider.Provider {
	var out []*provider.Provider
	for _, p := range provider.All {
		if p.Install != nil {
			out = append(out, p)
		}
	}
	return out
}

// Found are the tools `hookshim install --all` registers in: those that
// seem installed for this user, or that the project uses.
func Found(env Env) []*provider.Provider {
	var out []*provider.Provider
	for _, p := range provider.All {
		if p.Install != nil && (OnMachine(env, p) || InProject(env, p)) {
			out = append(out, p)
		}
	}
	return out
}

// TargetFor picks the target of p for a --scope value: the one asked for
// ("project" or "user"), or, for "", project where the tool has project
// hooks and user otherwise.
func TargetFor(p *provider.Provider, scope string) (*provider.Target, error) {
	if scope == "" {
		if t := Target(p, provider.ScopeProject); t != nil {
			return t, nil
		}
		if t := Target(p, provider.ScopeUser); t != nil {
			return t, nil
		}
		return nil, &ScopeError{Scope: "any"}
	}
	if t := Target(p, provider.Scope(scope)); t != nil {
		return t, nil
	}
	e := &ScopeError{Scope: scope}
	for _, t := range p.Install.Targets {
		e.Other = string(t.Scope)
	}
	return nil, e
}

// ScopeError is a scope a tool has no hook config for.
type ScopeError struct {
	Scope string // the scope asked for, "any" when none was
	Other string // the scope the tool has, "" when none
}

func (e *ScopeError) Error() string { return "no " + e.Scope + "-level hook config" }

// Job is the work for one tool, and how it went. Every tool's outcome is
// reported on its own: one tool's failure never stops the others.
type Job struct {
	Provider *provider.Provider
	Target   *provider.Target // nil when the tool has no target for the scope asked
	Events   []string
	Changes  []Change
	Reg      Registration
	Skip     string    // why the tool is left out
	Err      error     // why the tool failed
	Applied  []Applied // what was written
}

// Applied is a change written, and where the previous version was kept.
type Applied struct {
	Change Change
	Backup string
}

// Ready reports whether the job has work left: a target, and neither a
// reason to skip it nor a failure.
func (j *Job) Ready() bool { return j.Target != nil && j.Skip == "" && j.Err == nil }

// Plan plans the job's changes (Changes, Reg, Err).
func (j *Job) Plan(env Env) {
	j.Changes, j.Reg, j.Err = Plan(env, j.Provider, *j.Target, j.Events)
}

// Apply writes the job's changes, and stops at the first that fails.
func (j *Job) Apply(env Env) {
	for _, c := range j.Changes {
		if !c.Changed() {
			continue
		}
		backup, err := Apply(env, c)
		if err != nil {
			j.Err = err
			return
		}
		j.Applied = append(j.Applied, Applied{c, backup})
	}
}

// Path is the file the job's tool is registered in.
func (j *Job) Path(env Env) string {
	if j.Reg.Path != "" {
		return j.Reg.Path
	}
	p, _ := env.Path(*j.Target)
	return p
}

// PickOnce keeps, of tools that run each other's registrations (Copilot
// CLI runs VS Code's hook files), only one: with both, the tool that reads
// both calls hookshim twice per event. The one already registered wins;
// else the one whose file serves both tools when that tool is here. Where
// only one file serves both (Install.OneWay: Devin CLI runs Claude Code's
// project entries, never the reverse), that one always wins. The other
// job is skipped, with the reason.
func PickOnce(env Env, jobs []*Job) {
	find := func(p *provider.Provider) *Job {
		for _, j := range jobs {
			if j.Provider == p && j.Ready() {
				return j
			}
		}
		return nil
	}
	registered := func(j *Job) bool {
		_, reg, err := Plan(env, j.Provider, *j.Target, nil)
		return err == nil && len(reg.Events) > 0
	}
	for _, a := range jobs {
		if !a.Ready() {
			continue
		}
		for _, q := range a.Provider.Install.AlsoRunBy {
			b := find(q)
			if b == nil || b.Target.Scope != a.Target.Scope {
				continue
			}
			oneWay := a.Provider.Install.OneWay != nil
			if oneWay && !slices.Contains(a.Provider.Install.OneWay, a.Target.Scope) {
				continue
			}
			keep, drop := a, b
			ra, rb := registered(a), registered(b)
			switch {
			case oneWay:
				// a's file serves both tools, b's only b: a stays.
			case rb && !ra:
				keep, drop = b, a
			case ra == rb && !OnMachine(env, a.Provider):
				keep, drop = b, a
			}
			path, _ := env.Path(*keep.Target)
			drop.Skip = fmt.Sprintf("%s reads both %s's and %s's hook files: hookshim goes into %s (%s) only, or it would run twice per event", q.Name, a.Provider.ID, b.Provider.ID, keep.Provider.ID, env.Display(path))
			if ra && rb || oneWay && rb {
				drop.Skip += fmt.Sprintf("; it is registered for both now: run hookshim uninstall --provider %s", drop.Provider.ID)
			}
		}
	}
}
