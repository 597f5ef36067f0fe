package cli

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/detect"
	"github.com/hookshim/hookshim/internal/digest"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/normalize"
	"github.com/hookshim/hookshim/internal/once"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/respond"
	"github.com/hookshim/hookshim/internal/run"
	"github.com/hookshim/hookshim/internal/trust"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
)

// hookFlags are run's options.
type hookFlags struct {
	provider string
	event    string
	config   string
	explain  bool
	log      string
	timeout  float64 // the tool's hook timeout in seconds, when install wrote it
}

func cmdRun(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	var f hookFlags
	var flagErr error
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // never let flag print usage into a tool's stderr
	fs.StringVar(&f.provider, "provider", "", "provider id (a hint: a contradicting payload wins)")
	fs.StringVar(&f.event, "event", "", "native event name, for tools whose payload lacks it")
	fs.StringVar(&f.config, "config", "", "config file (skips discovery)")
	fs.BoolVar(&f.explain, "explain", false, "explain detection and decisions on stderr")
	fs.StringVar(&f.log, "log", "", "append a JSON line per call to this file")
	fs.Float64Var(&f.timeout, "timeout", 0, "the tool's timeout for this hook, in seconds (hookshim answers before it)")
	if err := fs.Parse(args); err != nil {
		// Bad flags must not turn into a tool's "block" code: carry on with
		// what was understood and answer in the tool's dialect.
		flagErr = fmt.Errorf("bad arguments to run: %v", err)
	} else if fs.NArg() > 0 {
		flagErr = fmt.Errorf("unexpected arguments to run: %s", strings.Join(fs.Args(), " "))
	}
	if f.log == "" {
		f.log = getenv("HOOKSHIM_LOG")
	}
	c := &hookCall{flags: f, getenv: getenv, started: time.Now()}
	if flagErr != nil {
		c.trace.problems = append(c.trace.problems, flagErr.Error())
	}
	raw, readErr := readPayload(stdin)
	ans := c.safeAnswer(raw, readErr)

	if len(ans.Stdout) > 0 {
		stdout.Write(ans.Stdout)
	}
	var diag bytes.Buffer
	if ans.Exit == 0 {
		// stderr is free for diagnostics only when it is not carrying a
		// block reason: on exit 0 no tool feeds it to the model (Claude
		// Code and Copilot log it, Gemini CLI shows it to the user).
		for _, p := range c.trace.problems {
			warningf(&diag, "%s", oneLine(p))
		}
	}
	if f.explain {
		diag.WriteString(c.trace.explain())
	}
	if ans.Stderr != "" {
		stderr.Write([]byte(ans.Stderr))
	}
	if diag.Len() > 0 {
		stderr.Write(diag.Bytes())
	}
	c.writeLog(ans)
	return ans.Exit
}

// hookCall is one run of the pipeline.
type hookCall struct {
	flags   hookFlags
	getenv  func(string) string
	started time.Time

	pr    *provider.Provider
	spec  *provider.Spec
	ev    *event.Event
	trace trace

	// configs, when set, replace discovery (simulate's example policy).
	configs []config.Found
}

// trace records what happened, for --explain and the log.
type trace struct {
	detection *detect.Result
	native    string
	canonical event.Name
	configs   []string
	matched   []string
	results   []run.Result
	verdict   *decision.Verdict
	problems  []string
	notes     []string
	onError   string
	untrusted []string
}

// answer runs the pipeline: detect, normalize, run, respond. Every path
// returns an answer in the tool's dialect; hookshim's own failures answer
// "no opinion" unless the config asks for fail-closed.
func (c *hookCall) answer(raw []byte, readErr error) provider.Answer {
	if readErr != nil {
		return c.fail(readErr.Error())
	}
	raw = trimBOM(raw)
	if len(bytes.TrimSpace(raw)) == 0 {
		return c.fail("empty payload on stdin")
	}
	if !gjson.ValidBytes(raw) {
		return c.fail(fmt.Sprintf("payload is not JSON (%d bytes)", len(raw)))
	}
	if first := bytes.TrimLeft(raw, " \t\r\n"); len(first) == 0 || first[0] != '{' {
		return c.fail("payload is JSON but not an object")
	}
	if !utf8.Valid(raw) {
		// Handlers get well-formed JSON: invalid bytes become U+FFFD.
		raw = bytes.ToValidUTF8(raw, []byte("\uFFFD"))
		c.trace.notes = append(c.trace.notes, "payload had invalid UTF-8; replaced with U+FFFD")
	}
	p := provider.NewPayload(raw, c.getenv)
	if c.flags.provider != "" && provider.Lookup(c.flags.provider) == nil {
		c.trace.problems = append(c.trace.problems, fmt.Sprintf("unknown --provider %q (known: %s)", c.flags.provider, strings.Join(provider.IDs(), ", ")))
	}
	// --explain shows every tool's score; a plain call needs the outcome
	// only, and with the --provider that install writes that is usually
	// one tool's score.
	decide := detect.Decide
	if c.flags.explain {
		decide = detect.Detect
	}
	det := decide(p, c.flags.provider)
	c.trace.detection = &det
	c.pr = det.Provider
	if c.pr == nil {
		return c.fail("could not tell which tool sent this payload; register hookshim with --provider ID")
	}
	if det.Overruled {
		c.trace.notes = append(c.trace.notes, fmt.Sprintf("payload is from %s, not %s as --provider said", c.pr.ID, c.flags.provider))
	}

	native := c.pr.EventName(p)
	if native == "" {
		native = c.flags.event
	} else if c.flags.event != "" && c.flags.event != native {
		c.trace.notes = append(c.trace.notes, fmt.Sprintf("payload says event %q, --event said %q: the payload wins", native, c.flags.event))
	}
	if native == "" {
		n, note, err := c.pr.InferEvent(p)
		if err != nil {
			return c.fail(err.Error())
		}
		native = n
		c.trace.notes = append(c.trace.notes, note)
	}
	c.trace.native = native
	c.spec = c.pr.Spec(native)
	if c.spec == nil {
		c.trace.problems = append(c.trace.problems, fmt.Sprintf("%s event %q is unknown to hookshim; answering no opinion", c.pr.Name, native))
		return respond.NoOpinion(c.pr, nil)
	}
	c.trace.canonical = c.spec.Canonical
	if c.spec.Canonical == "" {
		c.trace.notes = append(c.trace.notes, fmt.Sprintf("%s has no canonical event: no handler can listen to it", native))
		return respond.NoOpinion(c.pr, c.spec)
	}
	if c.getenv("HOOKSHIM_DISABLE") == "1" || c.getenv("HOOKSHIM") == "0" {
		c.trace.notes = append(c.trace.notes, "hookshim is switched off (HOOKSHIM_DISABLE=1 or HOOKSHIM=0): no handler runs")
		return respond.NoOpinion(c.pr, c.spec)
	}
	if depth(c.getenv("HOOKSHIM_DEPTH")) > 0 {
		// A handler started an agent that called hookshim again: answering
		// that nested call from the same policy could loop forever.
		c.trace.notes = append(c.trace.notes, "called from inside a hookshim handler (HOOKSHIM_DEPTH set): no handler runs")
		return respond.NoOpinion(c.pr, c.spec)
	}

	c.ev = normalize.Event(c.pr, c.spec, p)
	configs := c.configs
	if configs == nil {
		var err error
		// "." last: the working directory, where the tools start hooks, for
		// payloads that name no directory (Amplifier, most Windsurf
		// events). Resolved only when the search gets there.
		configs, err = config.Discover(config.Sources{
			Flag:      c.flags.config,
			Getenv:    c.getenv,
			StartDirs: nonEmpty(c.ev.ProjectDir, c.ev.Cwd, "."),
		})
		if err != nil {
			return c.fail("config: " + err.Error())
		}
		configs = c.trusted(configs)
	}
	var hooks []*config.Hook
	skip := skipSet(c.getenv("HOOKSHIM_SKIP"))
	for _, f := range configs {
		c.trace.configs = append(c.trace.configs, f.Path)
		c.trace.problems = append(c.trace.problems, f.Warnings...)
		if f.OnError == "deny" {
			c.trace.onError = "deny"
		}
		for _, h := range f.Hooks {
			if !h.Matches(c.ev) {
				continue
			}
			if slices.Contains(skip, h.Name) {
				c.trace.notes = append(c.trace.notes, h.Name+" skipped (HOOKSHIM_SKIP)")
				continue
			}
			hooks = append(hooks, h)
			c.trace.matched = append(c.trace.matched, h.Name)
		}
	}
	if len(hooks) == 0 {
		return c.untrustedAnswer()
	}

	deadline := c.deadline()
	claim := c.claim(hooks)
	var results []run.Result
	if claim != nil && !claim.Won {
		shared, ok := claim.Wait(deadline)
		if ok {
			results, ok = run.Unmarshal(shared, hooks)
		}
		if !ok {
			// Running the handlers now would overrun the tool's deadline.
			return c.fail("this call duplicates one that did not answer in time")
		}
		c.trace.notes = append(c.trace.notes, "duplicate of a call already being answered: its handlers' answers are reused, not run again")
	} else {
		env := append(os.Environ(),
			"HOOKSHIM_PROVIDER="+c.pr.ID,
			"HOOKSHIM_EVENT="+string(c.ev.Name),
			"HOOKSHIM_NATIVE_EVENT="+native,
			"HOOKSHIM_SESSION_ID="+c.ev.SessionID,
			"HOOKSHIM_PROJECT_DIR="+c.ev.ProjectDir,
			"HOOKSHIM_DEPTH=1",
		)
		envelope := normalize.EnvelopeParts(c.ev, newID(), time.Now(), version())
		r := &run.Runner{Env: env, Deadline: deadline}
		results = r.Run(context.Background(), hooks, envelope)
		if claim != nil {
			_ = claim.Publish(run.Marshal(results))
		}
	}
	c.trace.results = results
	onError := c.trace.onError
	if onError == "" {
		onError = "allow"
	}
	v := respond.Verdict(c.spec, results, onError)
	c.trace.verdict = &v
	return respond.Encode(c.pr, c.spec, v)
}

// DefaultToolTimeout is the tool's hook timeout assumed when neither
// --timeout nor the provider table gives one.
const DefaultToolTimeout = 30 * time.Second

// deadline is when hookshim must have answered: before the tool's own
// timeout, with a margin for hookshim to write its answer. A tool that kills
// its hook leaves the outcome to its own default, which for some tools is a
// denial (Copilot) and for others an allow.
func (c *hookCall) deadline() time.Time {
	budget := DefaultToolTimeout
	switch {
	case c.flags.timeout > 0:
		budget = time.Duration(c.flags.timeout * float64(time.Second))
	case c.pr.Timeout > 0:
		budget = c.pr.Timeout
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
	return c.started.Add(budget - margin)
}

// claim makes duplicates of one tool call share one run of the handlers.
// A call is known by what it is about — the canonical event, the session,
// the tool and its input, the prompt — and by its tool call id where the
// tool gives one; the handlers that matched are part of the key, so a call
// under another policy is not a duplicate.
func (c *hookCall) claim(hooks []*config.Hook) *once.Claim {
	if c.configs != nil {
		return nil // simulate: every call is its own
	}
	parts := []string{c.pr.ID, string(c.ev.Name), c.ev.SessionID}
	window := once.DigestWindow
	if t := c.ev.Tool; t != nil {
		parts = append(parts, t.Name, t.Command, t.FilePath, canonicalJSON(t.Input))
		if t.CallID != "" && !c.pr.SplitEvents {
			parts = append(parts, "call:"+t.CallID)
			window = once.Window
		}
	}
	if c.ev.Prompt != nil {
		parts = append(parts, *c.ev.Prompt)
	}
	if c.ev.Tool == nil && c.ev.Prompt == nil {
		// Nothing but the payload says which call this is.
		sum := digest.Sum256(c.ev.Raw)
		parts = append(parts, hex.EncodeToString(sum[:]))
	}
	for _, f := range c.ev.Fields {
		if f.Key == "turn_id" {
			parts = append(parts, string(f.Value))
		}
	}
	for _, h := range hooks {
		parts = append(parts, h.Pos, h.Command)
	}
	cl, err := once.Take(once.Dir(c.getenv), once.Key(parts...), window)
	if err != nil {
		c.trace.problems = append(c.trace.problems, "duplicate detection unavailable: "+err.Error())
		return nil
	}
	return cl
}

// canonicalJSON spells a JSON value one way, whatever its key order and
// string escapes, so that the same input sent by two registrations
// compares equal. (Read with gjson, not decoded with encoding/json: its
// reflection is code a call touches for the first time, on every call
// that runs a handler.)
func canonicalJSON(b []byte) string {
	if !gjson.ValidBytes(b) {
		return string(b)
	}
	return string(appendCanonical(nil, gjson.ParseBytes(b)))
}

func appendCanonical(dst []byte, v gjson.Result) []byte {
	switch {
	case v.IsObject():
		type member struct {
			key string
			val gjson.Result
		}
		var ms []member
		v.ForEach(func(k, val gjson.Result) bool {
			ms = append(ms, member{k.Str, val})
			return true
		})
		// Sorted by key; of a repeated key the last one counts, as when
		// the input is decoded.
		slices.SortStableFunc(ms, func(a, b member) int { return strings.Compare(a.key, b.key) })
		dst = append(dst, '{')
		first := true
		for i, m := range ms {
			if i+1 < len(ms) && ms[i+1].key == m.key {
				continue
			}
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = wire.AppendQuote(dst, m.key)
			dst = append(dst, ':')
			dst = appendCanonical(dst, m.val)
		}
		return append(dst, '}')
	case v.IsArray():
		dst = append(dst, '[')
		i := 0
		v.ForEach(func(_, e gjson.Result) bool {
			if i > 0 {
				dst = append(dst, ',')
			}
			i++
			dst = appendCanonical(dst, e)
			return true
		})
		return append(dst, ']')
	case v.Type == gjson.String:
		return wire.AppendQuote(dst, v.Str)
	}
	return append(dst, v.Raw...) // numbers as sent, true, false, null
}

// trusted drops discovered project configs the user has not allowed.
func (c *hookCall) trusted(found []config.Found) []config.Found {
	var out []config.Found
	for _, f := range found {
		if !f.Discovered || c.getenv("HOOKSHIM_TRUST_ALL") == "1" {
			out = append(out, f)
			continue
		}
		store, err := trust.DefaultStore(c.getenv)
		state := trust.Unknown
		if err == nil {
			state, err = store.Check(f.File)
		}
		if err != nil {
			c.trace.problems = append(c.trace.problems, "trust: "+err.Error())
		}
		if state == trust.Allowed {
			out = append(out, f)
			continue
		}
		c.trace.untrusted = append(c.trace.untrusted, fmt.Sprintf("%s is %s: its hooks do not run; review it, then run: hookshim allow %s", f.Path, state, f.Path))
	}
	// Not a problem to repeat on every call: logged and explained, and
	// told to the user on session start.
	c.trace.notes = append(c.trace.notes, c.trace.untrusted...)
	return out
}

// untrustedAnswer is "no opinion", telling the user once per session (on
// session start, where the tool shows messages) how to allow the project's
// config.
func (c *hookCall) untrustedAnswer() provider.Answer {
	if len(c.trace.untrusted) == 0 || c.spec.Canonical != event.SessionStart {
		return respond.NoOpinion(c.pr, c.spec)
	}
	if !c.spec.Can.Has(provider.CanMessage) {
		c.trace.problems = append(c.trace.problems, c.trace.untrusted[0])
		return respond.NoOpinion(c.pr, c.spec)
	}
	return respond.Encode(c.pr, c.spec, decision.Verdict{SystemMessage: "hookshim: " + c.trace.untrusted[0]})
}

// safeAnswer is answer, with a bug in hookshim turned into its own
// failure: a Go panic exits 2, which several tools read as "block", and its
// stack trace would reach the model as the reason.
func (c *hookCall) safeAnswer(raw []byte, readErr error) (ans provider.Answer) {
	defer func() {
		if r := recover(); r != nil {
			ans = c.fail(fmt.Sprintf("internal error (please report it): %v\n%s", r, debug.Stack()))
		}
	}()
	return c.answer(raw, readErr)
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

// fail is hookshim's own failure: "no opinion" in the tool's dialect, the
// reason on the log (and stderr where the tool keeps it from the model).
// With HOOKSHIM_ON_ERROR=deny (or on_error: deny in a config already read)
// the failure blocks instead, in the tool's own way — fail-closed, for those
// who asked for it.
func (c *hookCall) fail(msg string) provider.Answer {
	c.trace.problems = append(c.trace.problems, msg)
	if c.pr == nil {
		// The payload could not tell the tool: trust the hint, so that a
		// tool that needs JSON even for "no opinion" (Cursor) gets it.
		c.pr = provider.Lookup(c.flags.provider)
	}
	if c.pr == nil {
		// Unknown tool: exit 0 with nothing on stdout is the one answer
		// every tool reads as "no opinion".
		return provider.Answer{}
	}
	if c.getenv("HOOKSHIM_ON_ERROR") == "deny" || c.trace.onError == "deny" {
		v := decision.Verdict{Decision: decision.Deny, Reason: "hookshim failed and fails closed: " + oneLine(msg)}
		respond.Finish(c.spec, &v)
		c.trace.verdict = &v
		return respond.Encode(c.pr, c.spec, v)
	}
	return respond.NoOpinion(c.pr, c.spec)
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

// newID is a random UUID v4, the envelope's idempotency key.
func newID() string {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], rand.Uint64())
	binary.LittleEndian.PutUint64(b[8:], rand.Uint64())
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
