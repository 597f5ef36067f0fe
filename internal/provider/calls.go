package provider

// Calls says where a payload that carries several tool calls in one hook
// call keeps them (VS Code's Agent Host: toolCalls[], see vscode.go). Each
// call is normalized into a canonical event of its own, every handler that
// matches it runs, and one answer speaks for all of them: the most
// restrictive decision wins. The zero value: one call per payload.
type Calls struct {
	// List is the path of the array of calls; Name and Input are the keys
	// of an entry's tool name and input (an object, or an object encoded
	// as a JSON string).
	List, Name, Input string

	// Tools maps the entries' tool names to canonical ones, before the
	// provider's Tools.
	Tools Renames

	// PowerShell lists the entry names whose command PowerShell runs
	// (event.Tool.Shell).
	PowerShell []string

	// Can is what the one answer to such a payload can express, on top of
	// what the event's Spec says: the answer names no call, so it cannot
	// carry a rewrite of one of them.
	Can Caps
}

// MaxCalls bounds the calls of one payload that are judged: each runs its
// matching handlers, all under the deadline of the one hook call. A
// payload with more is not judged call by call; its answer is unsure (ask).
const MaxCalls = 64

// CallsSpec is spec as it applies to a payload of several calls: what
// Calls.Can does not allow is left out, so that respond degrades it.
func (pr *Provider) CallsSpec(spec *Spec) *Spec {
	if spec == nil {
		return nil
	}
	s := *spec
	s.Can &= pr.Calls.Can
	return &s
}
