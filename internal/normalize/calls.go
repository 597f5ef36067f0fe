package normalize

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/tidwall/gjson"
)

// withCalls is ev split into one event per tool call of list, a payload's
// array of calls (provider.Calls): each a copy of ev with its own Tool and
// per-call fields. The first is returned, with all of them in Calls. A
// call whose name or input cannot be read keeps its place, marked Unread:
// a list read in part would let the calls it drops through unjudged. At
// most provider.MaxCalls+1 calls are read, so that the pipeline sees that
// there were too many without this costing more than the bound.
func withCalls(pr *provider.Provider, p provider.Payload, ev *event.Event, list gjson.Result) *event.Event {
	var entries []gjson.Result
	if list.IsArray() {
		list.ForEach(func(_, v gjson.Result) bool {
			entries = append(entries, v)
			return len(entries) <= provider.MaxCalls
		})
	} else {
		// Not a list: one call that cannot be read.
		entries = []gjson.Result{list}
	}
	calls := make([]*event.Event, 0, len(entries))
	for i, entry := range entries {
		call := *ev
		call.Fields = slices.Clone(ev.Fields)
		var unread bool
		call.Tool, unread = callTool(pr, entry, i, list.IsArray())
		if unread {
			// For handlers that can make more of it than hookshim.
			call.Set("tool_input_unread", []byte(entry.Get(pr.Calls.Input).Raw))
		}
		finishTool(pr, p, &call)
		slices.SortFunc(call.Fields, func(a, b event.Field) int { return strings.Compare(a.Key, b.Key) })
		calls = append(calls, &call)
	}
	if len(calls) == 0 {
		ev.Calls = calls
		return ev
	}
	head := *calls[0]
	head.Calls = calls
	return &head
}

// callTool reads entry i of a payload's list of calls; unread: its input
// is there but could not be read.
func callTool(pr *provider.Provider, entry gjson.Result, i int, inList bool) (t *event.Tool, unread bool) {
	t = &event.Tool{Input: []byte("{}")}
	if !inList {
		t.Unread = fmt.Sprintf("%s is not a list of tool calls", pr.Calls.List)
		t.Also = event.ToolNames
		return t, false
	}
	if !entry.IsObject() {
		t.Unread = fmt.Sprintf("tool call %d is not an object", i+1)
		t.Also = event.ToolNames
		return t, false
	}
	if name := entry.Get(pr.Calls.Name); name.Type == gjson.String && name.Str != "" {
		t.Native = name.Str
		// The list's names are lowercase in what is known of it; a name
		// spelt otherwise must not escape the shell's policies.
		for _, n := range []string{t.Native, strings.ToLower(t.Native)} {
			if canonical, ok := pr.Calls.Tools.Get(n); ok {
				t.Name = canonical
				break
			}
			if canonical, ok := pr.Tools.Get(n); ok {
				t.Name = canonical
				break
			}
		}
	} else {
		// Nameless, it could be any tool: every tool's handlers judge it.
		t.Unread = fmt.Sprintf("tool call %d has no tool name", i+1)
		t.Also = event.ToolNames
	}
	for _, ps := range pr.Calls.PowerShell {
		if strings.EqualFold(t.Native, ps) {
			t.Shell = "powershell"
		}
	}
	switch in := entry.Get(pr.Calls.Input); {
	case !in.Exists() || in.Type == gjson.Null:
		// A call without input: nothing to read, nothing hidden.
	case in.IsObject():
		t.Input = provider.LastWins([]byte(in.Raw))
	case in.Type == gjson.String:
		s := strings.TrimSpace(in.Str)
		if s == "" {
			break
		}
		if strings.HasPrefix(s, "{") && gjson.Valid(s) {
			t.Input = provider.InputObject([]byte(in.Raw)) // the Agent Host's form
			break
		}
		t.Unread, unread = joinWhy(t.Unread, fmt.Sprintf("the input of tool call %d is not a JSON object", i+1)), true
	default:
		t.Unread, unread = joinWhy(t.Unread, fmt.Sprintf("the input of tool call %d is not a JSON object", i+1)), true
	}
	return t, unread
}

func joinWhy(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
