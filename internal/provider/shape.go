package provider

import (
	"fmt"
	"strings"
)

// Shape names the native event of a payload that carries no event name,
// from the top-level keys it has and has not. Some tools (Copilot CLI's
// camelCase format, Amplifier's hook-shell) name no event: `hookshim
// install` registers them with --event, but a hook written by hand without
// it still deserves an answer where the payload can only be one event.
//
// A shape must fit no other event of its tool: every documented and
// recorded payload of the tool is matched against all its shapes by the
// tests, and a payload that fits two shapes, or none, is not guessed.
type Shape struct {
	Event string   // the native event
	Has   []string // keys that are all present
	Not   []string // keys that are all absent
}

func (s Shape) fits(p Payload) bool {
	for _, k := range s.Has {
		if !p.Get(k).Exists() {
			return false
		}
	}
	for _, k := range s.Not {
		if p.Get(k).Exists() {
			return false
		}
	}
	return true
}

// String is the rule as docs/providers.md states it, e.g.
// "`toolName` and `toolArgs`; no `toolResult` or `error`: `preToolUse`".
func (s Shape) String() string { return s.keys() + ": `" + s.Event + "`" }

// keys is the rule without the event.
func (s Shape) keys() string {
	k := codeList(s.Has, " and ")
	if len(s.Not) > 0 {
		k += "; no " + codeList(s.Not, " or ")
	}
	return k
}

// codeList is "`a`, `b` and `c`" (last is " and " or " or ").
func codeList(keys []string, last string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = "`" + k + "`"
	}
	return joinList(q, last)
}

// InferEvent names the native event of a payload that carries no event
// name and came without --event. It returns the event and a note saying
// which rule named it; or, when no rule or more than one fits, an error
// that names the flag to add.
func (pr *Provider) InferEvent(p Payload) (native, note string, err error) {
	var fits []Shape
	for _, s := range pr.Shapes {
		if s.fits(p) {
			fits = append(fits, s)
		}
	}
	if len(fits) == 1 {
		s := fits[0]
		return s.Event, fmt.Sprintf("event %s inferred from the payload's shape (%s): the payload names no event and no --event was given", s.Event, strings.ReplaceAll(s.keys(), "`", "")), nil
	}
	if len(pr.Shapes) == 0 {
		return "", "", fmt.Errorf("%s sent no event name; register hookshim with --event NAME", pr.Name)
	}
	if len(fits) == 0 {
		return "", "", fmt.Errorf("%s sent no event name and the payload's shape names none: add --event NAME to hookshim's command, NAME being the event it is registered for (hookshim providers --events lists %s's)", pr.Name, pr.ID)
	}
	flags := make([]string, len(fits))
	for i, s := range fits {
		flags[i] = "--event " + s.Event
	}
	return "", "", fmt.Errorf("%s sent no event name and the payload's shape fits more than one event: add %s to hookshim's command, whichever it is registered for", pr.Name, joinList(flags, " or "))
}

// joinList is "a, b" + last + "c".
func joinList(names []string, last string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + last + names[len(names)-1]
}
