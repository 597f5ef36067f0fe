package pipeline

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/dialect"
	"github.com/hookshim/hookshim/internal/normalize"
	"github.com/hookshim/hookshim/internal/run"
	"github.com/hookshim/hookshim/internal/shellcmd"
)

// jobs says, for each matched handler that runs as a job, what it is
// given and how its answer is read: the one place where handler types and
// dialects meet the call (rules and built-in policies are evaluated by
// runJobs itself). The envelope is built once, and only when a handler
// reads it.
func (c *call) jobs(hooks []*config.Hook, spoken *[]spokenDialect) []run.Job {
	jobs := make([]run.Job, len(hooks))
	var envelope [][]byte
	for i, h := range hooks {
		if err := c.pinErrs[h]; err != nil {
			jobs[i] = failJob(h, err) // trust.go: it cannot run what was allowed
			continue
		}
		j := run.Job{Hook: h}
		switch {
		case h.Type == "http" || h.Type == "prompt":
			if envelope == nil {
				envelope = normalize.EnvelopeParts(c.ev, c.rec.Call, time.Now(), c.version())
			}
			j = c.remoteJob(h, envelope)
		case h.Dialect != "":
			j = c.dialectJob(h, spoken)
		default: // "command", in the OpenHook envelope
			if envelope == nil {
				envelope = normalize.EnvelopeParts(c.ev, c.rec.Call, time.Now(), c.version())
			}
			j.Input = envelope
		}
		jobs[i] = j
	}
	return jobs
}

type spokenDialect struct {
	id   string
	call *dialect.Call
	err  error
}

// dialectJob runs a handler written for another tool's hooks: it reads
// that tool's payload and answers by that tool's contract (package
// dialect). What the payload lacks is noted once per dialect; a dialect
// that cannot be spoken here fails the handler, never the call.
func (c *call) dialectJob(h *config.Hook, spoken *[]spokenDialect) run.Job {
	var s *spokenDialect
	for i := range *spoken {
		if (*spoken)[i].id == h.Dialect {
			s = &(*spoken)[i]
		}
	}
	if s == nil {
		*spoken = append(*spoken, spokenDialect{id: h.Dialect})
		s = &(*spoken)[len(*spoken)-1]
		d, err := dialect.Lookup(h.Dialect)
		if err == nil {
			s.call, err = dialect.SpeakWith(d, c.pr, c.ev, c.dialectOptions())
		}
		s.err = err
		if err == nil && len(s.call.Gaps) > 0 {
			c.note(fmt.Sprintf("dialect %s (%s): not sent by %s, left out or filled in: %s",
				d.ID, s.call.Native, c.pr.ID, strings.Join(s.call.Gaps, ", ")))
		}
	}
	if s.err != nil {
		return failJob(h, s.err)
	}
	return run.Job{Hook: h, Input: s.call.Input, Env: s.call.Env, Read: s.call.Read,
		Shell: s.call.Shell, EnvFile: s.call.EnvFile}
}

// asyncSpeaks reports whether an async handler speaks dialect id.
func asyncSpeaks(hooks []*config.Hook, id string) bool {
	for _, h := range hooks {
		if h.Async && h.Dialect == id {
			return true
		}
	}
	return false
}

// perFile adds a job for each further file of a call that writes several
// (dialect.Call.More) to a dialect handler's: a hook written to judge the
// file in tool_input judges them all. of names, for each job added, the
// job it repeats.
func perFile(jobs []run.Job, spoken []spokenDialect) ([]run.Job, []int) {
	var of []int
	n := len(jobs)
	for k := 0; k < n; k++ {
		h := jobs[k].Hook
		if h.Dialect == "" || jobs[k].Read == nil {
			continue
		}
		for _, s := range spoken {
			if s.id != h.Dialect || s.call == nil {
				continue
			}
			for _, in := range s.call.More {
				j := jobs[k]
				j.Input = in
				jobs = append(jobs, j)
				of = append(of, k)
			}
		}
	}
	return jobs, of
}

// strongest is one handler's answer from its runs for the files of one
// call: the run with the strongest decision, a failure before no
// opinion; the context of every run.
func strongest(a, b run.Result) run.Result {
	keep, other := a, b
	switch {
	case b.Output.Decision > a.Output.Decision:
		keep, other = b, a
	case b.Output.Decision == a.Output.Decision && a.Err == nil && b.Err != nil:
		keep, other = b, a
	}
	if other.Output.Context != "" && other.Output.Context != keep.Output.Context {
		keep.Output.Context = strings.TrimSpace(keep.Output.Context + "\n" + other.Output.Context)
	}
	if keep.Output.Continue == nil {
		keep.Output.Continue = other.Output.Continue
	}
	keep.Duration = max(a.Duration, b.Duration)
	return keep
}

// dialectOptions is the process's part of a dialect handler's call: the
// working folder and a session for a tool that sends neither, and where
// a transcript written again in the dialect's format goes (hookshim's
// private state folder, removed after the call).
func (c *call) dialectOptions() dialect.Options {
	o := dialect.Options{Now: time.Now(), Home: c.getenv("HOME")}
	if o.Wd = c.opts.Wd; o.Wd == "" {
		o.Wd, _ = os.Getwd()
	}
	o.Session = dialect.ProcessSession(c.pr.ID, os.Getppid(), o.Wd)
	o.TempDir = dialect.TempDir(c.getenv)
	return o
}

// matches reports whether the hook runs for this call. A dialect
// handler's matcher is also tried on the dialect's name of the tool: a
// Claude Code hook registered for "Bash" runs for Gemini CLI's
// run_shell_command, as it would for Claude's own Bash.
func (c *call) matches(h *config.Hook) bool {
	if h.Matches(c.ev) {
		return true
	}
	t := c.ev.Tool
	if h.Dialect == "" || t == nil {
		return false
	}
	d, err := dialect.Lookup(h.Dialect)
	if err != nil {
		return false
	}
	for _, name := range dialect.ToolNames(d, t) {
		if name == t.Native {
			continue
		}
		ev, tool := *c.ev, *t
		tool.Native = name
		ev.Tool = &tool
		if h.Matches(&ev) {
			return true
		}
	}
	return false
}

// runJobs runs the matched hooks and returns their results in order. The
// built-in policies ("use") and rules are evaluated here, one after the
// other, each under the call's deadline (evalInline): they share the
// reading of the command line and take microseconds each, less than the
// process groups, pipes and signal watch the runner sets up for handlers
// that may take seconds (measured in a fresh process: seven policies cost
// ~40 µs evaluated here, ~250 µs as jobs). The others run as jobs.
func (c *call) runJobs(r *run.Runner, hooks []*config.Hook) []run.Result {
	results := make([]run.Result, len(hooks))
	var rest []*config.Hook
	var at []int
	if c.ev.Shell == nil {
		c.ev.Shell = &shellcmd.Reader{} // the command line is read once for all
	}
	env := c.ruleEnv()
	for i, h := range hooks {
		switch h.Type {
		case "use":
			results[i] = evalInline(h, "failed: ", r.Deadline, func() (decision.Output, error) { return h.Policy.Eval(c.ev), nil })
			continue
		case "rule":
			eval := ruleEval(h, env)
			results[i] = evalInline(h, "rule failed: ", r.Deadline, func() (decision.Output, error) { return eval(context.Background()) })
			continue
		}
		rest = append(rest, h)
		at = append(at, i)
	}
	if len(rest) > 0 {
		var spoken []spokenDialect // each dialect's payload, built once
		jobs := c.jobs(rest, &spoken)
		jobs, of := perFile(jobs, spoken)
		res := r.RunJobs(context.Background(), jobs)
		for i, k := range of {
			res[k] = strongest(res[k], res[len(rest)+i])
		}
		for k := range rest {
			results[at[k]] = res[k]
		}
		for _, s := range spoken {
			if s.call != nil && !asyncSpeaks(rest, s.id) {
				// (An async handler may read its files after this call:
				// they are swept later, dialect.SweepAfter.)
				s.call.Cleanup()
			}
		}
	}
	return results
}

// evalInline answers for a hook evaluated in-process, a built-in policy or
// a rule: its time, and its failure (an error, or a panic), prefixed with
// failed, as that hook's, not the call's. One that has not answered by the
// call's deadline (zero: none) has timed out, as a handler would: its late
// answer is not read, and its "timeout_action" and the config's on_error
// say what that answers.
func evalInline(h *config.Hook, failed string, deadline time.Time, eval func() (decision.Output, error)) run.Result {
	start := time.Now()
	if deadline.IsZero() {
		res := evalNow(h, failed, eval)
		res.Duration = time.Since(start)
		return res
	}
	limit := time.Until(deadline)
	done := make(chan run.Result, 1)
	go func() { done <- evalNow(h, failed, eval) }()
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case res := <-done:
		res.Duration = time.Since(start)
		return res
	case <-timer.C:
	}
	res := run.Result{Hook: h, Exit: -1, TimedOut: true, Duration: time.Since(start)}
	if h.Blocking && h.TimeoutAction == "block" {
		res.Output = decision.Output{Handler: h.Name, Decision: decision.Deny,
			Reason: fmt.Sprintf("%s did not answer before the tool's deadline", h.Name)}
		return res
	}
	res.Err = &run.Error{Kind: run.TimedOut, Msg: fmt.Sprintf("did not answer within the %s left before the tool's deadline", limit.Round(time.Millisecond)),
		Hint: "the tool's own hook timeout cut it short: raise the tool's timeout for hookshim, or give it a shorter command line"}
	return res
}

// evalNow evaluates a hook on this goroutine; a panic is its failure.
func evalNow(h *config.Hook, failed string, eval func() (decision.Output, error)) (res run.Result) {
	res = run.Result{Hook: h, Exit: -1}
	defer func() {
		if p := recover(); p != nil {
			res.Output, res.Err = decision.Output{}, &run.Error{Kind: run.Failed, Msg: fmt.Sprintf("%s%v", failed, p)}
		}
	}()
	out, err := eval()
	if err != nil {
		res.Err = &run.Error{Kind: run.Failed, Msg: failed + err.Error()}
		return res
	}
	out.Handler = h.Name
	res.Output, res.Exit = out, 0
	return res
}

// inProcess reports whether every hook runs inside hookshim. Such a call
// takes no claim (package dedupe): a duplicate evaluates them again, which
// costs less than the claim file, and they have no side effects that
// could happen twice.
func inProcess(hooks []*config.Hook) bool {
	for _, h := range hooks {
		if h.Type != "use" && h.Type != "rule" {
			return false
		}
	}
	return len(hooks) > 0
}
