package provider

import (
	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/wire"
)

// JSON is an answer on stdout with exit 0: one JSON document and a newline.
func JSON(o *wire.Object) Answer { return Answer{Stdout: append(o.Bytes(), '\n')} }

// JSONOrEmpty is JSON(o), or nothing at all when o has no field: several
// tools read an empty stdout as "no opinion" and some reject {}.
func JSONOrEmpty(o *wire.Object) Answer {
	if o.Len() == 0 {
		return Answer{}
	}
	return JSON(o)
}

// permission is the verdict's decision as "allow", "ask" or "deny", "" for
// no opinion, with a rewrite and no decision counted as allow: the tools
// that read it (Copilot, Cursor) apply a rewritten input only with allow,
// and a policy that rewrites a call approves the call it rewrote.
func permission(v *decision.Verdict) string {
	if v.Decision == decision.None {
		if v.UpdatedInput != nil {
			return "allow"
		}
		return ""
	}
	return v.Decision.String()
}

// denyReason is the reason a denial shows: the verdict's, or a generic one
// for tools that show an empty reason as an empty message.
func denyReason(v *decision.Verdict) string {
	if v.Reason == "" {
		return "blocked by hookshim policy"
	}
	return v.Reason
}

// stopFields writes Claude's way of ending the agent's loop, which its
// imitators read too: continue false, and the stop reason if there is one.
func stopFields(top *wire.Object, v *decision.Verdict) {
	if v.Stop {
		top.Bool("continue", false)
		if v.StopReason != "" {
			top.Str("stopReason", v.StopReason)
		}
	}
}
