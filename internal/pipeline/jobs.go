package pipeline

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/dialect"
	"github.com/hookshim/hookshim/internal/normalize"
	"github.com/hookshim/hookshim/internal/run"
)

// jobs says, for each matched handler, what it is given and how its answer
// is read: the one place where handler types and dialects meet the call.
// The envelope is built once, and only when a handler reads it.
func (c *call) jobs(hooks []*config.Hook) []run.Job {
	jobs := make([]run.Job, len(hooks))
	var envelope [][]byte
	var spoken []spokenDialect // each dialect's payload, built once
	for i, h := range hooks {
		j := run.Job{Hook: h}
		switch {
		case h.Type == "http" || h.Type == "prompt":
			if envelope == nil {
				envelope = normalize.EnvelopeParts(c.ev, c.rec.Call, time.Now(), c.version())
			}
			j = c.remoteJob(h, envelope)
		case h.Dialect != "":
			j = c.dialectJob(h, &spoken)
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
			s.call, err = dialect.Speak(d, c.pr, c.ev, time.Now())
		}
		s.err = err
		if err == nil && len(s.call.Gaps) > 0 {
			c.note(fmt.Sprintf("dialect %s (%s): not sent by %s, left out or filled in: %s",
				d.ID, s.call.Native, c.pr.ID, strings.Join(s.call.Gaps, ", ")))
		}
	}
	if s.err != nil {
		err := s.err
		return run.Job{Hook: h, Eval: func(context.Context) (decision.Output, error) { return decision.Output{}, err }}
	}
	return run.Job{Hook: h, Input: s.call.Input, Env: s.call.Env, Read: s.call.Read}
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
	name, ok := dialect.ToolName(d, t)
	if !ok || name == t.Native {
		return false
	}
	ev, tool := *c.ev, *t
	tool.Native = name
	ev.Tool = &tool
	return h.Matches(&ev)
}
