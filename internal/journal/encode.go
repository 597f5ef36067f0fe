package journal

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"

	"github.com/hookshim/hookshim/internal/wire"
)

// marshal writes e as encoding/json would with its tags (what the readers
// decode it with), by hand: the encoder's reflection costs more on its
// first use than the rest of the record, in a process that lives for one
// call (TestEncodeRoundTrip holds the two together).
//
// Secrets go through the fields that carry what the tool sent and what
// the handlers answered (secret, secrets); the rest is hookshim's own
// words, the config's names and places, and ids, which it does not scan:
// scanning the whole line was a third of what logging a call cost.
func marshal(e *Entry) []byte {
	o := &wire.Object{}
	// Room for the whole record, so that it is written once: a record is
	// about 1 KiB, and 200 bytes more per hook and handler run.
	o.Grow(1536 + 200*(len(e.Hooks)+len(e.Runs)) + len(e.ToolInput) + len(e.Stdout))
	o.Str("time", e.Time.Format(time.RFC3339Nano))
	o.Str("id", e.ID)
	o.Raw("ms", num(e.MS))
	str(o, "provider", e.Provider)
	str(o, "tool_version", e.Version)
	str(o, "provider_hint", e.Hint)
	str(o, "native_event", e.Native)
	str(o, "event", e.Event)
	str(o, "tool", e.Tool)
	str(o, "native_tool", e.NativeTool)
	secret(o, "command", e.Command)
	secret(o, "file_path", e.FilePath)
	if len(e.ToolInput) > 0 {
		var c bytes.Buffer
		if json.Compact(&c, e.ToolInput) == nil {
			o.Raw("tool_input", Secrets(c.Bytes()))
		} else {
			// Not JSON (the payload around it was not checked, as no
			// handler ran): kept as text.
			secret(o, "tool_input", string(e.ToolInput))
		}
	}
	secret(o, "session", e.Session)
	secret(o, "cwd", e.Cwd)
	strs(o, "keys", e.Keys)
	if d := e.Detection; d != nil {
		o.Nest("detection", func(o *wire.Object) {
			str(o, "provider", d.Provider)
			str(o, "hint", d.Hint)
			flag(o, "overruled", d.Overruled)
			str(o, "confidence", d.Confidence)
			str(o, "why", d.Why)
			o.Raw("score", strconv.AppendInt(nil, int64(d.Score), 10))
			strs(o, "signals", d.Signals)
			str(o, "runner_up", d.RunnerUp)
			if d.RunnerUpAt != 0 {
				o.Raw("runner_up_score", strconv.AppendInt(nil, int64(d.RunnerUpAt), 10))
			}
			str(o, "doubt", d.Doubt)
		})
	}
	if len(e.Configs) > 0 {
		o.NestList("configs", len(e.Configs), func(i int, o *wire.Object) {
			o.Str("path", e.Configs[i].Path).Str("trust", e.Configs[i].Trust)
		})
	}
	secret(o, "no_config", e.NoConfig)
	if len(e.Hooks) > 0 {
		o.NestList("hooks", len(e.Hooks), func(i int, o *wire.Object) {
			h := &e.Hooks[i]
			o.Str("name", h.Name).Str("pos", h.Pos)
			o.Strs("events", h.Events)
			str(o, "matcher", h.Matcher)
			o.Bool("matched", h.Matched)
			str(o, "why", h.Why)
		})
	}
	strs(o, "handlers", e.Handlers)
	str(o, "call", e.Call)
	str(o, "reused_from", e.ReusedFrom)
	if len(e.Runs) > 0 {
		o.NestList("runs", len(e.Runs), func(i int, o *wire.Object) {
			r := &e.Runs[i]
			o.Str("name", r.Name)
			str(o, "pos", r.Pos)
			o.Raw("ms", num(r.MS))
			o.Raw("exit", strconv.AppendInt(nil, int64(r.Exit), 10))
			o.Str("decision", r.Decision)
			secret(o, "reason", r.Reason)
			secret(o, "context", r.Context)
			flag(o, "rewrite", r.Rewrite)
			secret(o, "error", r.Error)
			flag(o, "timed_out", r.TimedOut)
			flag(o, "async", r.Async)
			flag(o, "reused", r.Reused)
		})
	}
	secrets(o, "handler_errors", e.HandlerErrors)
	o.Str("decision", e.Decision)
	secret(o, "reason", e.Reason)
	secret(o, "context", e.Context)
	secret(o, "system_message", e.Message)
	flag(o, "stop", e.Stop)
	flag(o, "rewrite", e.Rewrite)
	secrets(o, "degraded", e.Degraded)
	secrets(o, "notes", e.Notes)
	secrets(o, "problems", e.Problems)
	o.Raw("exit", strconv.AppendInt(nil, int64(e.Exit), 10))
	o.Raw("stdout", Secrets(wire.Quote(e.Stdout)))
	secret(o, "stderr", e.Stderr)
	strs(o, "truncated", e.Truncated)
	return o.Close()
}

// secret and secrets add a field unless it is empty, with what looks like
// a secret in it redacted.
func secret(o *wire.Object, k, v string) {
	if v != "" {
		o.Raw(k, Secrets(wire.Quote(v)))
	}
}

func secrets(o *wire.Object, k string, v []string) {
	if len(v) > 0 {
		o.Raw(k, Secrets(wire.AppendStrs(nil, v)))
	}
}

// str, strs and flag add a field unless it is empty (omitempty).
func str(o *wire.Object, k, v string) {
	if v != "" {
		o.Str(k, v)
	}
}

func strs(o *wire.Object, k string, v []string) {
	if len(v) > 0 {
		o.Strs(k, v)
	}
}

func flag(o *wire.Object, k string, v bool) {
	if v {
		o.Bool(k, true)
	}
}

func num(f float64) []byte { return strconv.AppendFloat(nil, f, 'f', -1, 64) }
