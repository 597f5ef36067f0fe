package provider

import (
	"time"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
)

// Junie CLI (JetBrains).
//
// Not run here: it needs a JetBrains account. From
// junie.jetbrains.com/docs/junie-cli-hooks.html:
//   - one event, SessionStart, fired once per session with source
//     "startup" (a fresh session) or "resume" (resumed in the same
//     process), in interactive, batch, server and ACP launches alike;
//   - stdin is one line of JSON in "the input format used by Gemini and
//     Codex hooks": hook_event_name, session_id, cwd and source are read,
//     whatever else arrives stays in the raw payload;
//   - neither the output nor the exit status of a hook changes anything:
//     a hook cannot block startup, and its stdout and stderr reach no
//     model. hookshim observes the event and answers nothing.
//
// Detection: nothing in the documented payload is Junie's own, so the
// --provider junie that install writes decides; the fixtures assume a
// transcript under ~/.junie/ (testdata/payloads/junie/README.md).
var Junie = &Provider{
	ID:       "junie",
	Name:     "Junie CLI",
	Verified: "from docs (https://junie.jetbrains.com/docs/junie-cli-hooks.html); not run here",
	Install:  junieInstall,
	Signals: []Signal{
		{Weight: 10, desc: `transcript_path is under "/.junie/"`, test: func(p Payload) bool {
			return containsPath(p.Get("transcript_path").Str, "/.junie/")
		}},
	},
	Events: []Spec{
		{"SessionStart", event.SessionStart, 0},
	},
	EventName: hookEventName,
	Fields: Fields{
		SessionID:  "session_id",
		Cwd:        "cwd",
		Transcript: "transcript_path",
	},
	Keep: []Renames{{{"source", "source"}}},
	// Junie reads no answer: an empty stdout and exit 0 whatever the
	// verdict, which the capabilities above have already reduced to
	// nothing.
	Encode:  func(*Spec, *decision.Verdict) Answer { return Answer{} },
	Dialect: junieDialect,
	Timeout: 10 * time.Second, // Junie's default, which install writes
}

// junieDialect is what a Junie hook reads: the Gemini- and Codex-style
// payload of its one event, named under hook_event_name.
var junieDialect = &Dialect{
	EventKey: "hook_event_name",
	Read:     readJunie,
}

// readJunie reads what Junie reads of an answer: nothing. A non-zero exit
// is still a failed hook for hookshim (said, and changing nothing, as
// there).
func readJunie(_ *Spec, exit int, _ []byte, stderr string) (decision.Output, error) {
	if exit != 0 {
		return decision.Output{}, exitFailed("Junie CLI", exit, stderr)
	}
	return decision.Output{}, nil
}
