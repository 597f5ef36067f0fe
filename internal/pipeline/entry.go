package pipeline

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/detect"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/journal"
	"github.com/hookshim/hookshim/internal/respond"
)

// Entry is the decision log's record of the call, answered ans.
func (t *Record) Entry(ans respond.Answer) journal.Entry {
	e := journal.Entry{
		Time:       t.Started.UTC(),
		ID:         t.ID,
		MS:         ms(time.Since(t.Started)),
		Version:    t.Version,
		Native:     t.Native,
		Event:      string(t.Canonical),
		Keys:       t.Keys,
		NoConfig:   t.NoConfig,
		Handlers:   t.Matched,
		Call:       t.Call,
		ReusedFrom: t.ReusedFrom,
		Notes:      t.Notes,
		Problems:   t.Problems,
		Decision:   "none",
		Exit:       ans.Exit,
		Stdout:     string(ans.Stdout),
		Stderr:     ans.Stderr,
	}
	if t.Provider != nil {
		e.Provider = t.Provider.ID
	}
	if d := t.Detection; d != nil {
		e.Hint = d.Hint
		e.Detection = detectionOf(d)
	}
	if ev := t.Event; ev != nil {
		e.Session, e.Cwd = ev.SessionID, ev.Cwd
		if tl := ev.Tool; tl != nil {
			e.Tool, e.NativeTool = tl.Name, tl.Native
			e.Command, e.FilePath = tl.Command, tl.FilePath
			if len(tl.Input) > 0 {
				e.ToolInput = tl.Input
			}
		}
	}
	for _, c := range t.Trust {
		e.Configs = append(e.Configs, journal.Config{Path: c.Path, Trust: c.State})
	}
	for _, h := range t.Hooks {
		e.Hooks = append(e.Hooks, hookOf(h, t))
	}
	for _, r := range t.Results {
		run := journal.Run{
			Name:     r.Hook.Name,
			Pos:      r.Hook.Pos,
			MS:       ms(r.Duration),
			Exit:     r.Exit,
			Decision: r.Output.Decision.String(),
			Reason:   r.Output.Reason,
			Context:  r.Output.Context,
			Rewrite:  r.Output.UpdatedInput != nil,
			TimedOut: r.TimedOut,
			Async:    r.Async,
			Reused:   t.ReusedFrom != "",
		}
		if r.Err != nil {
			run.Error = r.Err.Error() + hint(r.Err)
			e.HandlerErrors = append(e.HandlerErrors, r.Hook.Name+": "+run.Error)
		}
		e.Runs = append(e.Runs, run)
	}
	if v := t.Verdict; v != nil {
		e.Decision = v.Decision.String()
		e.Reason, e.Context, e.Message = v.Reason, v.Context, v.SystemMessage
		e.Stop, e.Rewrite = v.Stop, v.UpdatedInput != nil
		e.Degraded = v.Notes
	}
	return e
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// detectionOf is the evidence detection weighed: the winner's signals,
// the runner-up, and why the outcome may be wrong.
func detectionOf(d *detect.Result) *journal.Detection {
	j := &journal.Detection{Hint: d.Hint, Overruled: d.Overruled}
	if d.Provider == nil {
		j.Doubt = "no tool could be told from the payload"
		return j
	}
	j.Provider = d.Provider.ID
	j.Confidence, j.Why = d.Confidence()
	for _, s := range d.Scores {
		if s.Provider == d.Provider {
			j.Score = s.Total()
			for _, m := range s.MatchedSignals() {
				j.Signals = append(j.Signals, weighed(m.Weight, m.Desc()))
			}
			if s.Hint != 0 {
				j.Signals = append(j.Signals, weighed(s.Hint, "--provider "+d.Hint))
			}
		} else if j.RunnerUp == "" && s.Total() > 0 {
			j.RunnerUp, j.RunnerUpAt = s.Provider.ID, s.Total()
		}
	}
	switch {
	case d.Overruled:
		j.Doubt = fmt.Sprintf("the payload overruled --provider %s", d.Hint)
	case j.Confidence != "" && j.Confidence != detect.Certain:
		j.Doubt = j.Confidence + ": " + j.Why
	}
	return j
}

// weighed is a signal as the log shows it, "+5 has cursor_version": what
// fmt's %+d gives, without fmt, whose first use on the call's path costs
// more than the rest of the record.
func weighed(weight int, desc string) string {
	b := make([]byte, 0, len(desc)+5)
	if weight >= 0 {
		b = append(b, '+')
	}
	b = strconv.AppendInt(b, int64(weight), 10)
	return string(append(append(b, ' '), desc...))
}

// hookOf says what a hook listens to and why it ran or did not.
func hookOf(h *config.Hook, t *Record) journal.Hook {
	j := journal.Hook{Name: h.Name, Pos: h.Pos}
	var matchers []string
	for _, b := range h.On {
		if !slices.Contains(j.Events, string(b.Event)) {
			j.Events = append(j.Events, string(b.Event))
		}
		if m := config.Describe(b.Matcher); m != "" && !slices.Contains(matchers, m) {
			matchers = append(matchers, m)
		}
	}
	if len(j.Events) == len(event.Names) {
		j.Events = []string{"*"}
	}
	j.Matcher = strings.Join(matchers, "; ")
	ev := t.Event
	switch {
	case ev == nil:
		j.Why = "no canonical event"
	case !h.Listens(ev.Name):
		j.Why = "listens to " + strings.Join(j.Events, ", ") + ", not " + string(ev.Name)
	case !h.Matches(ev):
		tool := "no tool"
		if ev.Tool != nil {
			tool = "tool " + ev.Tool.Native
			if ev.Tool.Name != ev.Tool.Native {
				tool += " (" + ev.Tool.Name + ")"
			}
		}
		j.Why = "matcher " + j.Matcher + " does not match " + tool
	case !slices.Contains(t.Matched, h.Name):
		j.Why = "skipped (HOOKSHIM_SKIP)"
	default:
		j.Matched = true
	}
	return j
}
