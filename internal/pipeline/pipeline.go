// Package pipeline answers one hook call: the payload a tool wrote on
// hookshim's stdin goes in; the tool's native answer (stdout, stderr, exit
// code) and a Record of what happened come out. In between it runs the
// stages in order — detect the tool, normalize its payload into the
// canonical event, find the configs and keep the trusted ones, match the
// handlers, claim the call against duplicates, run the handlers, merge and
// encode their answers — and owns what spans them: the deadline, hookshim's
// own failures (answered "no opinion" unless fail-closed was asked for),
// the kill switch and the recursion guard. It may import the stage packages
// (detect, normalize, config, trust, dedupe, run, respond, seen) and what they
// share (provider, event, decision); only the command line and tests import
// it. It prints nothing: cli turns the Record into warnings, --explain and
// the log line.
package pipeline

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/dedupe"
	"github.com/hookshim/hookshim/internal/detect"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/normalize"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/respond"
	"github.com/hookshim/hookshim/internal/run"
	"github.com/hookshim/hookshim/internal/seen"
	"github.com/hookshim/hookshim/internal/trust"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
)

// Options are one call's settings: `hookshim run`'s flags, or simulate's.
type Options struct {
	Provider string        // --provider: a hint; a payload that contradicts it wins
	Event    string        // --event: the native event, for tools whose payload lacks it
	Config   string        // --config: this file alone, trusted, instead of discovery
	Explain  bool          // score every provider for the Record (--explain), not only the one that wins
	Timeout  time.Duration // the tool's hook timeout; 0: the provider's, else DefaultToolTimeout
	// Version is hookshim's version, for the handlers' envelope: asked
	// for only when a handler runs (reading the build info costs more than
	// a call that runs nothing); nil: "devel".
	Version func() string
	Started time.Time // when the call began, for the deadline; zero: now
	// Wd is the working folder a dialect handler's payload is given when
	// the tool sends none (Amplifier); "": hookshim's own.
	Wd string

	// Configs, when not nil, is the policy in force instead of the
	// discovered one; trust and duplicate detection are skipped
	// (simulate's example policy).
	Configs []config.Found
}

// Record is what happened in one call, for --explain, warnings and the log.
type Record struct {
	Started   time.Time
	Provider  *provider.Provider // the tool that was answered; nil when unknown
	Detection *detect.Result
	Keys      []string     // the payload's top-level keys (doctor's payload drift)
	Version   string       // the tool's version, when the payload or environment says it
	Native    string       // the native event name
	Canonical event.Name   // its canonical name ("" when it has none)
	Event     *event.Event // the normalized event, once there is one
	Configs   []string     // the configs in force, by path
	NoConfig  string       // "no config found (searched: …)" when discovery found none
	Matched   []string     // the handlers that matched, by name
	Results   []run.Result
	Verdict   *decision.Verdict

	ID         string // this call's id, every call: the decision log's key
	Call       string // this call's id (its handlers' envelope id), when it ran handlers
	ReusedFrom string // the id of the call whose handlers' answers this duplicate reused

	// Hooks are every hook of the configs in force, matched or not, for
	// the log's account of why each one did or did not run; Trust is each
	// config found and whether it may run; Redact are the record fields
	// the configs mark secret (their "redact").
	Hooks  []*config.Hook
	Trust  []ConfigTrust
	Redact []string

	// Problems are hookshim's own failures and the configs' warnings;
	// with the handlers that failed, they are the Warnings the user sees.
	// Notes are for --explain and the log only.
	Problems []string
	Notes    []string
}

// ConfigTrust is one config found and its trust state: "allowed",
// "not needed" (user config, --config), "HOOKSHIM_TRUST_ALL=1", or the
// state that kept it from running.
type ConfigTrust struct {
	Path  string
	State string
}

// Warnings are what the user should see, one line each: the problems, then
// every handler that failed, by name, with the fix where hookshim knows it
// (a failed handler is never silent, whatever the failure mode answers).
func (r *Record) Warnings() []string {
	out := slices.Clip(r.Problems)
	for _, res := range r.Results {
		if p := run.Problem(res); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// DefaultToolTimeout is the tool's hook timeout assumed when neither
// Options.Timeout nor the provider table gives one.
const DefaultToolTimeout = 30 * time.Second

// Call answers one hook call. raw is what was read from stdin and readErr
// why reading it failed, if it did; getenv is the process environment.
// Every path returns an answer in the tool's dialect, also a bug in
// hookshim: a Go panic would exit 2, which several tools read as "block",
// with a stack trace that would reach the model as the reason.
func Call(raw []byte, readErr error, getenv func(string) string, opts Options) (ans respond.Answer, rec *Record) {
	if opts.Started.IsZero() {
		opts.Started = time.Now()
	}
	c := &call{opts: opts, getenv: getenv, rec: Record{Started: opts.Started, ID: newID()}}
	defer func() {
		if r := recover(); r != nil {
			ans = c.fail(fmt.Sprintf("internal error (please report it): %v\n%s", r, debug.Stack()))
		}
		c.rec.Provider = c.pr
		rec = &c.rec
	}()
	return c.answer(raw, readErr), nil
}

// call is one run of the pipeline.
type call struct {
	opts   Options
	getenv func(string) string
	rec    Record

	pr   *provider.Provider
	spec *provider.Spec
	ev   *event.Event
	part int // which of the payload's tool calls ev is, from 1; 0: the payload's only one

	onError   string   // "deny" when a config in force fails closed
	untrusted []string // configs found but not allowed, with the fix

	// The trust stage (trust.go): what each config with an allowance
	// runs, the notices of configs that run their allowed version, the
	// configs whose allowed version cannot be had, and the handlers that
	// cannot run what was allowed.
	allowed      map[string]allowed
	trustNotices []string
	lost         []string
	pinErrs      map[*config.Hook]error

	// switched says, on session start, which handlers a switch in the
	// tool's environment keeps from running (HOOKSHIM_SKIP): the user is
	// told once per session, where the tool shows messages.
	switched []string
}

func (c *call) answer(raw []byte, readErr error) respond.Answer {
	if readErr != nil {
		return c.fail(readErr.Error())
	}
	raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(raw)) == 0 {
		return c.fail("empty payload on stdin")
	}
	p := provider.NewPayload(raw, c.getenv)
	if !p.IsObject() {
		return c.fail(notJSON(raw))
	}
	if c.opts.Provider != "" && provider.Lookup(c.opts.Provider) == nil {
		c.problem(fmt.Sprintf("unknown --provider %q (known: %s)", c.opts.Provider, strings.Join(provider.IDs(), ", ")))
	}
	// --explain shows every tool's score; a plain call needs the outcome
	// only, and with the --provider that install writes that is usually
	// one tool's score.
	decide := detect.Decide
	if c.opts.Explain {
		decide = detect.Detect
	}
	det := decide(p, c.opts.Provider)
	c.rec.Detection = &det
	c.pr = det.Provider
	if c.pr == nil {
		return c.fail("could not tell which tool sent this payload; register hookshim with --provider ID")
	}
	c.rec.Keys, c.rec.Version = p.Keys(), c.pr.Version(p)
	if det.Overruled {
		c.note(fmt.Sprintf("payload is from %s, not %s as --provider said", c.pr.ID, c.opts.Provider))
	}

	native := c.pr.EventName(p)
	if native == "" {
		native = c.opts.Event
	} else if c.opts.Event != "" && c.opts.Event != native {
		c.note(fmt.Sprintf("payload says event %q, --event said %q: the payload wins", native, c.opts.Event))
	}
	if native == "" {
		// Typed by hand without --event: the payload's shape may still
		// name the event unambiguously.
		n, note, err := c.pr.InferEvent(p)
		if err != nil {
			return c.fail(err.Error())
		}
		native = n
		c.note(note)
	}
	c.rec.Native = native
	if c.opts.Configs == nil {
		// The last-call stamp `hookshim doctor` reads: under the detected
		// tool, not the --provider hint, so that Cursor running Claude's
		// entries counts as Cursor. A stamp that cannot be written costs
		// the call nothing but a note.
		if err := seen.Mark(seen.Dir(c.getenv), c.pr.ID, native); err != nil {
			c.note("last-call stamp not written: " + err.Error())
		}
	}
	c.spec = c.pr.Spec(native)
	if c.spec == nil {
		c.problem(fmt.Sprintf("%s event %q is unknown to hookshim; answering no opinion", c.pr.Name, native))
		return respond.NoOpinion(c.pr, nil)
	}
	c.rec.Canonical = c.spec.Canonical
	if c.spec.Canonical == "" {
		c.note(fmt.Sprintf("%s has no canonical event: no handler can listen to it", native))
		return respond.NoOpinion(c.pr, c.spec)
	}
	if c.getenv("HOOKSHIM_DISABLE") == "1" || c.getenv("HOOKSHIM") == "0" {
		c.note("hookshim is switched off (HOOKSHIM_DISABLE=1 or HOOKSHIM=0): no handler runs")
		if c.spec.Canonical == event.SessionStart {
			// A guard that is off says so once a session, where the user
			// looks: whoever set the switch, the user learns of it.
			return c.tellSession("switched off (HOOKSHIM_DISABLE=1 or HOOKSHIM=0 in this tool's environment): no hook of yours runs in this session; unset it where it is set and start the tool again")
		}
		return respond.NoOpinion(c.pr, c.spec)
	}
	if in, stray := nestedCall(c.getenv); in {
		// A handler started an agent that called hookshim again: answering
		// that nested call from the same policy could loop forever.
		c.note("called from inside a hookshim handler (HOOKSHIM_DEPTH set by the hookshim running it): no handler runs")
		return respond.NoOpinion(c.pr, c.spec)
	} else if stray {
		c.problem("HOOKSHIM_DEPTH is set, but not by a hookshim running this call's parent: ignored, the policies run; unset it where it comes from (.envrc, a wrapper script)")
	}

	c.ev = normalize.Event(c.pr, c.spec, p)
	c.rec.Event = c.ev
	if c.ev.Calls != nil {
		return c.answerCalls(raw) // several tool calls in one (calls.go)
	}
	return c.judge(raw)
}

// judge answers the call's event: the configs in force, their handlers
// that match it, and their merged answer.
func (c *call) judge(raw []byte) respond.Answer {
	configs := c.opts.Configs
	if configs == nil {
		var err error
		configs, err = c.discover()
		if err != nil {
			return c.fail("config: " + err.Error())
		}
	}
	c.pinCommands(configs)
	c.trustProblems()
	var hooks []*config.Hook
	skip := skipSet(c.getenv("HOOKSHIM_SKIP"))
	if len(skip) > 0 && c.spec.Canonical == event.SessionStart {
		msg := "HOOKSHIM_SKIP=" + strings.Join(skip, ",") + " is set in this tool's environment: those handlers do not run in this session"
		if c.spec.Can.Has(provider.CanMessage) {
			c.switched = append(c.switched, msg)
			c.note(msg)
		} else {
			c.problem(msg)
		}
	}
	for _, f := range configs {
		c.rec.Configs = append(c.rec.Configs, f.Path)
		c.rec.Problems = append(c.rec.Problems, f.Warnings...)
		c.rec.Hooks = append(c.rec.Hooks, f.Hooks...)
		c.rec.Redact = append(c.rec.Redact, f.Redact...)
		c.rec.Trust = append(c.rec.Trust, ConfigTrust{f.Path, c.trustState(f)})
		if f.OnError == "deny" {
			c.onError = "deny"
		}
		for _, h := range f.Hooks {
			if !c.matches(h) {
				continue
			}
			if slices.Contains(skip, h.Name) {
				c.note(h.Name + " skipped (HOOKSHIM_SKIP)")
				continue
			}
			c.pinHook(f, h)
			hooks = append(hooks, h)
			c.rec.Matched = append(c.rec.Matched, h.Name)
		}
	}
	if len(c.lost) > 0 && (c.getenv("HOOKSHIM_ON_ERROR") == "deny" || c.onError == "deny") {
		// A policy that cannot run fails closed when asked to. The
		// reason, which the model reads, leaves out the fix (hookshim
		// allow): the problems and the log have it.
		c.rec.Problems = append(c.rec.Problems, c.lost...)
		reason, _, _ := strings.Cut(c.lost[0], "; review")
		return c.fail(reason)
	}
	c.rec.Problems = append(c.rec.Problems, c.lost...)
	if len(hooks) == 0 {
		return c.untrustedAnswer()
	}
	// A handler is about to see this payload: it must be JSON throughout,
	// and UTF-8. Checked here, not on entry, so that the calls that run
	// nothing (most of them) do not pay for reading a large tool output
	// twice. The depth bound comes first: the JSON check recurses once per
	// level.
	if TooDeep(raw) {
		return c.fail(fmt.Sprintf("payload nests arrays or objects more than %d levels deep; not read", MaxDepth))
	}
	if !gjson.ValidBytes(raw) {
		return c.fail(notJSON(raw))
	}
	if !utf8.Valid(raw) {
		// Handlers get well-formed JSON: invalid bytes become U+FFFD.
		raw = bytes.ToValidUTF8(raw, []byte("\uFFFD"))
		c.note("payload had invalid UTF-8; replaced with U+FFFD")
		c.ev = c.normalize(provider.NewPayload(raw, c.getenv))
		c.rec.Event = c.ev
	}

	deadline := c.deadline()
	claim := c.claim(hooks, configs)
	var results []run.Result
	if claim != nil && !claim.Won {
		shared, ok := claim.Wait(deadline)
		if ok {
			results, ok = run.Unmarshal(shared.Answers, hooks)
		}
		switch {
		case ok:
			// A duplicate of a call already being answered: its handlers'
			// answers are reused, not run again.
			c.rec.ReusedFrom = shared.Call
		case claim.Won:
			// The call it duplicates will never answer (killed, or its
			// answer torn): this one runs the handlers.
			c.note(claim.TookOver + "; its handlers run in this call")
		default:
			// Running the handlers now would overrun the tool's deadline.
			return c.fail("this call duplicates one that did not answer in time")
		}
	}
	if claim == nil || claim.Won {
		c.rec.Call = c.rec.ID
		r, done := c.runner(deadline)
		results = c.runJobs(r, hooks)
		done(results)
		c.applyExports(results)
		if claim != nil && run.Interrupted(results) {
			// Told to stop mid-call: a retry must run the handlers.
			claim.Release()
		} else if claim != nil {
			if err := claim.Publish(c.rec.Call, run.Marshal(results)); err != nil {
				// The duplicates run the handlers themselves then.
				c.problem("answer not shared with duplicates of this call: " + err.Error())
			}
		}
	}
	c.rec.Results = results
	onError := c.onError
	if onError == "" {
		onError = "allow"
	}
	v := respond.Verdict(c.spec, results, onError)
	if v.UpdatedInput != nil {
		r, done := c.runner(deadline)
		v = c.recheck(r, hooks, results, v, onError)
		done(nil)
	}
	c.tellUser(&v)
	c.rec.Verdict = &v
	return respond.Encode(c.pr, c.spec, v)
}

// runner runs this call's handlers, in the environment they are given,
// marked as this running hookshim's own (see guard); done ends the mark
// once they have answered, keeping it for async handlers still running.
func (c *call) runner(deadline time.Time) (r *run.Runner, done func([]run.Result)) {
	env := append(os.Environ(),
		"HOOKSHIM_PROVIDER="+c.pr.ID,
		"HOOKSHIM_EVENT="+string(c.ev.Name),
		"HOOKSHIM_NATIVE_EVENT="+c.rec.Native,
		"HOOKSHIM_SESSION_ID="+c.ev.SessionID,
		"HOOKSHIM_PROJECT_DIR="+c.ev.ProjectDir,
	)
	mark, unmark, err := guard(c.getenv)
	if err != nil {
		// Rare (no HOME): noted, not warned on every call.
		c.note("recursion guard: " + err.Error() + "; a hookshim call made by a handler runs its handlers too")
		mark = []string{"HOOKSHIM_DEPTH=1"}
	}
	env = append(env, mark...)
	return &run.Runner{Env: env, Deadline: deadline}, func(results []run.Result) {
		unmark(slices.ContainsFunc(results, func(r run.Result) bool { return r.Async }))
	}
}

// notJSON says what is wrong with a payload that is not one JSON object.
func notJSON(raw []byte) string {
	if gjson.ValidBytes(raw) {
		return "payload is JSON but not an object"
	}
	return fmt.Sprintf("payload is not JSON (%d bytes)", len(raw))
}

func (c *call) note(s string)    { c.rec.Notes = append(c.rec.Notes, s) }
func (c *call) problem(s string) { c.rec.Problems = append(c.rec.Problems, s) }

func (c *call) version() string {
	if c.opts.Version != nil {
		return c.opts.Version()
	}
	return "devel"
}

// discover finds the configs in force, a project config only when the
// user has allowed it (trusted decides before it is parsed). With none
// anywhere, the call is allowed (no opinion) and the Record says where
// hookshim looked.
func (c *call) discover() ([]config.Found, error) {
	// "." last: the working directory, where the tools start hooks, for
	// payloads that name no directory (Amplifier, most Windsurf events).
	// Resolved only when the search gets there.
	starts := nonEmpty(c.ev.ProjectDir, c.ev.Cwd, ".")
	found, err := config.Discover(config.Sources{
		Flag:      c.opts.Config,
		Getenv:    c.getenv,
		StartDirs: starts,
		Gate:      c.trusted,
	})
	if err == nil && c.opts.Config == "" && c.getenv("HOOKSHIM_CONFIG") == "" {
		found = c.removed(found, starts[0])
	}
	if err == nil {
		err = c.extend(found)
	}
	// Not a problem to repeat on every call: logged and explained, and
	// told to the user on session start.
	c.rec.Notes = append(c.rec.Notes, c.untrusted...)
	if err == nil && len(found) == 0 && len(c.untrusted) == 0 {
		c.rec.NoConfig = noConfig(config.UserPath(c.getenv), starts)
		c.note(c.rec.NoConfig)
	}
	return found, err
}

// noConfig says where discovery looked and found nothing.
func noConfig(user string, starts []string) string {
	var dirs []string // a few: a list, not a map
	for _, d := range starts {
		if abs, err := filepath.Abs(d); err == nil && !slices.Contains(dirs, abs) {
			dirs = append(dirs, abs)
		}
	}
	var b strings.Builder
	b.WriteString("no config found (searched: ")
	if user != "" {
		b.WriteString(user)
		b.WriteString(", ")
	}
	b.WriteString(config.FileName + " in " + strings.Join(dirs, ", "))
	if len(dirs) == 1 {
		b.WriteString(" and every folder above it)")
	} else {
		b.WriteString(" and every folder above them)")
	}
	return b.String()
}

// deadline is when hookshim must have answered: before the tool's own
// timeout, with a margin for hookshim to write its answer. A tool that kills
// its hook leaves the outcome to its own default, which for some tools is a
// denial (Copilot) and for others an allow.
func (c *call) deadline() time.Time {
	return deadline(c.opts, c.pr)
}

// Deadline is when a call with these options must have answered, as far
// as they tell before the payload is read (the --provider hint's timeout):
// what reading stdin may take at most.
func Deadline(opts Options) time.Time {
	if opts.Started.IsZero() {
		opts.Started = time.Now()
	}
	return deadline(opts, provider.Lookup(opts.Provider))
}

func deadline(opts Options, pr *provider.Provider) time.Time {
	budget := DefaultToolTimeout
	switch {
	case opts.Timeout > 0:
		budget = opts.Timeout
	case pr != nil && pr.Timeout > 0:
		budget = pr.Timeout
	}
	margin := budget / 10
	if margin < 500*time.Millisecond {
		margin = 500 * time.Millisecond
	}
	if margin > 5*time.Second {
		margin = 5 * time.Second
	}
	if budget-margin < budget/2 {
		margin = budget / 2
	}
	return opts.Started.Add(budget - margin)
}

// claim makes duplicates of one tool call share one run of the handlers
// (package dedupe). The policy in force is part of the call's key — the
// configs' content as read now, the handlers' files, the trust records —
// so a duplicate is never answered by a policy the user has just changed.
func (c *call) claim(hooks []*config.Hook, configs []config.Found) *dedupe.Claim {
	if c.opts.Configs != nil {
		return nil // simulate: every call is its own
	}
	if inProcess(hooks) {
		return nil // nothing to share (jobs.go)
	}
	dc := dedupe.Call{Provider: c.pr.ID, Event: c.ev, SplitEvents: c.pr.SplitEvents, Hooks: hooks}
	for _, f := range configs {
		dc.Configs = append(dc.Configs, f.File)
		dc.Configs = append(dc.Configs, f.Extended...)
		if f.Discovered && c.getenv("HOOKSHIM_TRUST_ALL") != "1" {
			// The record that allowed it: a new allow is a new policy.
			if store, err := trust.DefaultStore(c.getenv); err == nil {
				dc.Files = append(dc.Files, store.Allowance(f.Path))
			}
		}
	}
	for _, h := range hooks {
		dc.Files = append(dc.Files, run.Files(h)...)
	}
	dc.Files = append(dc.Files, c.changedFiles(configs)...)
	key, window := dedupe.Key(dc)
	cl, err := dedupe.Take(dedupe.Dir(c.getenv), key, window)
	if err != nil {
		c.problem("duplicate detection unavailable: " + err.Error())
		return nil
	}
	return cl
}

// trusted is discovery's gate for a project config: the bytes to parse
// when the user has allowed the file as it is (checked by hash before a
// byte is parsed, so that a broken or huge untrusted file cannot stop the
// user's own config from running), else config.ErrSkip.
func (c *call) trusted(path string) ([]byte, error) {
	if c.getenv("HOOKSHIM_TRUST_ALL") == "1" {
		return config.ReadFile(path)
	}
	store, err := trust.DefaultStore(c.getenv)
	var v trust.Verified
	if err == nil {
		v, err = store.Verify(path)
	}
	if err != nil {
		c.problem("trust: " + err.Error())
	}
	if content := c.admit(path, v); content != nil {
		return content, nil
	}
	if v.State == trust.Changed || v.State == trust.Outdated {
		return nil, config.ErrSkip // lost: said on every call (admit)
	}
	c.rec.Trust = append(c.rec.Trust, ConfigTrust{path, v.State.String()})
	c.untrusted = append(c.untrusted, fmt.Sprintf("%s is %s: its hooks do not run; review it, then run: hookshim allow %s", path, v.State, path))
	return nil, config.ErrSkip
}

// trustState is why a config in force may run, for the log.
func (c *call) trustState(f config.Found) string {
	switch {
	case !f.Discovered || c.opts.Configs != nil:
		return "not needed"
	case c.getenv("HOOKSHIM_TRUST_ALL") == "1":
		return "HOOKSHIM_TRUST_ALL=1"
	case c.allowed[f.Path].changes != nil:
		return "changed since allowed: the allowed version runs"
	}
	return trust.Allowed.String()
}

// untrustedAnswer is "no opinion", telling the user once per session (on
// session start, where the tool shows messages) how to allow the project's
// config.
func (c *call) untrustedAnswer() respond.Answer {
	var v decision.Verdict
	if c.tellUser(&v); v.SystemMessage != "" {
		// A policy that runs an older version, or none, says so on
		// every call, also one it has no handler for.
		return respond.Encode(c.pr, c.spec, v)
	}
	if len(c.untrusted) == 0 || c.spec.Canonical != event.SessionStart {
		return respond.NoOpinion(c.pr, c.spec)
	}
	return c.tellSession(c.untrusted[0])
}

// tellSession answers a session start with msg for the user where the
// tool shows one, else with no opinion and msg on stderr.
func (c *call) tellSession(msg string) respond.Answer {
	if !c.spec.Can.Has(provider.CanMessage) {
		c.problem(msg)
		return respond.NoOpinion(c.pr, c.spec)
	}
	return respond.Encode(c.pr, c.spec, decision.Verdict{SystemMessage: "hookshim: " + msg})
}

// fail is hookshim's own failure: "no opinion" in the tool's dialect, the
// reason in the Record's problems. With HOOKSHIM_ON_ERROR=deny (or on_error:
// deny in a config already read) the failure blocks instead, in the tool's
// own way — fail-closed, for those who asked for it. A payload that cannot
// be read is denied too when --provider and --event name the tool and the
// event; without the event, the tool's way of denying is unknown and the
// answer stays neutral.
func (c *call) fail(msg string) respond.Answer {
	c.problem(msg)
	if c.pr == nil {
		// The payload could not tell the tool: trust the hint, so that a
		// tool that needs JSON even for "no opinion" (Cursor) gets it.
		c.pr = provider.Lookup(c.opts.Provider)
	}
	if c.pr == nil {
		// Unknown tool: exit 0 with nothing on stdout is the one answer
		// every tool reads as "no opinion".
		return respond.Answer{}
	}
	if c.getenv("HOOKSHIM_ON_ERROR") == "deny" || c.onError == "deny" {
		if c.spec == nil && c.opts.Event != "" {
			// The payload did not say which event this is (it could not
			// be read): the flags the tool was registered with do, and
			// a denial needs the event's way of saying it.
			if c.spec = c.pr.Spec(c.opts.Event); c.spec != nil && c.rec.Native == "" {
				c.rec.Native, c.rec.Canonical = c.opts.Event, c.spec.Canonical
			}
		}
		v := decision.Verdict{Decision: decision.Deny, Reason: "hookshim failed and fails closed: " + wire.OneLine(msg)}
		respond.Finish(c.spec, &v)
		c.rec.Verdict = &v
		return respond.Encode(c.pr, c.spec, v)
	}
	return respond.NoOpinion(c.pr, c.spec)
}

// depth reads HOOKSHIM_DEPTH. Unset on almost every call, where
// strconv.Atoi would allocate an error for the empty string.
func depth(s string) int {
	if s == "" {
		return 0
	}
	n, _ := strconv.Atoi(s)
	return n
}

func nonEmpty(s ...string) []string {
	var out []string
	for _, x := range s {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}

// skipSet lists the handler names in HOOKSHIM_SKIP. (A list, not a map:
// it is empty on almost every call, and a map's code and memory would be
// touched for nothing in a process that lives for one call.)
func skipSet(s string) []string {
	var names []string
	for _, name := range strings.Split(s, ",") {
		if name = strings.TrimSpace(name); name != "" {
			names = append(names, name)
		}
	}
	return names
}

// newID is a random UUID v4: the call's id, the envelope's idempotency key.
func newID() string {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], rand.Uint64())
	binary.LittleEndian.PutUint64(b[8:], rand.Uint64())
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
