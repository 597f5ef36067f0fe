package decision

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	o, err := Parse("h", []byte(`  {"decision":"deny","reason":"r","continue":false,"context":"c","updated_input":{"a":1},"suppress_output":true,"system_message":"m","future_field":1}`))
	require.NoError(t, err)
	require.Equal(t, Deny, o.Decision)
	require.Equal(t, "r", o.Reason)
	require.False(t, *o.Continue)
	require.Equal(t, "c", o.Context)
	require.JSONEq(t, `{"a":1}`, string(o.UpdatedInput))
	require.True(t, o.SuppressOutput)
	require.Equal(t, "m", o.SystemMessage)

	o, err = Parse("h", []byte("\n"))
	require.NoError(t, err)
	require.True(t, o.Empty(), "empty stdout is no opinion")

	for in, msg := range map[string]string{
		`allow`:                      "stdout is not JSON",
		`[1]`:                        "not an object",
		`{"decision":"block"}`:       `decision "block" is not allow, deny, ask or defer`,
		`{"decision":1}`:             "decision must be a string",
		`{"continue":"no"}`:          "continue must be true or false",
		`{"updated_input":"cmd"}`:    "updated_input must be an object",
		`{"reason":["a"]}`:           "reason must be a string",
		`{"decision":"allow"} extra`: "stdout is not JSON",
	} {
		_, err := Parse("h", []byte(in))
		require.ErrorContainsf(t, err, msg, "input %s", in)
	}
}

func TestMerge(t *testing.T) {
	f := false
	v := Merge([]Output{
		{Handler: "a", Decision: Allow, Reason: "fine", Context: "ctx a"},
		{Handler: "b", Decision: Ask, Reason: "confirm"},
		{Handler: "c", Decision: Deny, Reason: "no"},
		{Handler: "d", Decision: Deny, Reason: "never", Context: "ctx d"},
		{Handler: "e", Continue: &f, Reason: "stop now"},
	})
	require.Equal(t, Deny, v.Decision, "deny beats ask beats allow")
	require.Equal(t, "no; never", v.Reason, "reasons of the winning decision, in config order")
	require.Equal(t, "ctx a\n\nctx d", v.Context, "contexts in config order")
	require.True(t, v.Stop, "continue:false wins")
	require.Equal(t, "stop now", v.StopReason)

	v = Merge([]Output{{Handler: "a", Decision: Allow}, {Handler: "b", Decision: Ask, Reason: "sure?"}})
	require.Equal(t, Ask, v.Decision)
	require.Equal(t, "sure?", v.Reason)

	// Claude Code's precedence: deny > defer > ask > allow.
	v = Merge([]Output{{Handler: "a", Decision: Ask, Reason: "sure?"}, {Handler: "b", Decision: Defer, Reason: "later"}, {Handler: "c", Decision: Allow}})
	require.Equal(t, Defer, v.Decision, "defer beats ask and allow")
	require.Equal(t, "later", v.Reason)
	v = Merge([]Output{{Handler: "a", Decision: Defer}, {Handler: "b", Decision: Deny, Reason: "no"}})
	require.Equal(t, Deny, v.Decision, "deny beats defer")

	v = Merge([]Output{{Handler: "a"}, {Handler: "b"}})
	require.Equal(t, None, v.Decision, "silence is no opinion, not allow")
}

// Each distinct reason is read once: several built-in policies that
// cannot read a line say the same, and are named together.
func TestMergeReasonsOnce(t *testing.T) {
	const unread = "this command line could not be read to its end (1:6: x); check it by hand"
	for _, tc := range []struct {
		name string
		outs []Output
		kind Kind
		want string
	}{
		{"policies named together", []Output{
			{Handler: "a", Decision: Ask, Reason: unread + " (hookshim/destructive-shell)"},
			{Handler: "b", Decision: Ask, Reason: unread + " (hookshim/pipe-to-shell)"},
			{Handler: "c", Decision: Ask, Reason: unread + " (hookshim/git-discard)"},
		}, Ask, unread + " (hookshim/destructive-shell, hookshim/pipe-to-shell, hookshim/git-discard)"},
		{"distinct reasons kept, in config order", []Output{
			{Handler: "a", Decision: Ask, Reason: unread + " (hookshim/destructive-shell)"},
			{Handler: "b", Decision: Ask, Reason: "`git push -f` may force-push a protected branch (hookshim/protected-branches)"},
			{Handler: "c", Decision: Ask, Reason: unread + " (hookshim/pipe-to-shell)"},
			{Handler: "d", Decision: Ask, Reason: "confirm"},
		}, Ask, unread + " (hookshim/destructive-shell, hookshim/pipe-to-shell); `git push -f` may force-push a protected branch (hookshim/protected-branches); confirm"},
		{"the same policy twice (two hooks) is named once", []Output{
			{Handler: "a", Decision: Ask, Reason: unread + " (hookshim/destructive-shell)"},
			{Handler: "b", Decision: Ask, Reason: unread + " (hookshim/destructive-shell)"},
		}, Ask, unread + " (hookshim/destructive-shell)"},
		{"a handler's reason given twice", []Output{
			{Handler: "a", Decision: Deny, Reason: "no"},
			{Handler: "b", Decision: Deny, Reason: "no"},
		}, Deny, "no"},
		{"a deny's reasons only, the asks' dropped as before", []Output{
			{Handler: "a", Decision: Ask, Reason: unread + " (hookshim/destructive-shell)"},
			{Handler: "b", Decision: Deny, Reason: "`rm -rf /` would delete the root folder (hookshim/destructive-shell)"},
			{Handler: "c", Decision: Ask, Reason: unread + " (hookshim/pipe-to-shell)"},
		}, Deny, "`rm -rf /` would delete the root folder (hookshim/destructive-shell)"},
		{"parentheses that name no policy are text", []Output{
			{Handler: "a", Decision: Deny, Reason: "tests failed (3 of 10)"},
			{Handler: "b", Decision: Deny, Reason: "tests failed (2 of 10)"},
		}, Deny, "tests failed (3 of 10); tests failed (2 of 10)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := Merge(tc.outs)
			require.Equal(t, tc.kind, v.Decision)
			require.Equal(t, tc.want, v.Reason)
		})
	}
}

func TestMergeRewrites(t *testing.T) {
	v := Merge([]Output{
		{Handler: "a", UpdatedInput: []byte(`{"command":"ls","x":[1,2]}`)},
		{Handler: "b", UpdatedInput: []byte(`{ "x" : [1, 2], "command" : "ls" }`)},
	})
	require.Equal(t, None, v.Decision, "the same rewrite twice is no conflict")
	require.JSONEq(t, `{"command":"ls","x":[1,2]}`, string(v.UpdatedInput))

	v = Merge([]Output{
		{Handler: "a", UpdatedInput: []byte(`{"command":"ls"}`)},
		{Handler: "b", UpdatedInput: []byte(`{"command":"ls -la"}`)},
	})
	require.Equal(t, Deny, v.Decision, "two different rewrites are a conflict, settled by denying")
	require.Contains(t, v.Reason, `handlers "a" and "b" rewrote the tool input differently`)
	require.Nil(t, v.UpdatedInput)

	v = Merge([]Output{
		{Handler: "a", UpdatedInput: []byte(`{"command":"ls"}`)},
		{Handler: "b", Decision: Deny, Reason: "no"},
	})
	require.Equal(t, Deny, v.Decision)
	require.Nil(t, v.UpdatedInput, "a denied call is not rewritten")
}

// A field given twice reads as two handlers' answers merged: the most
// restrictive wins, whichever comes last.
func TestParseDuplicateKeys(t *testing.T) {
	for _, c := range []struct {
		in       string
		decision Kind
		stop     bool
	}{
		{`{"decision":"deny","decision":"allow"}`, Deny, false},
		{`{"decision":"allow","decision":"deny"}`, Deny, false},
		{`{"decision":"ask","decision":"allow"}`, Ask, false},
		{`{"decision":"deny","decision":"ask","decision":"allow"}`, Deny, false},
		{`{"continue":false,"continue":true}`, None, true},
		{`{"continue":true,"continue":false}`, None, true},
	} {
		o, err := Parse("h", []byte(c.in))
		require.NoError(t, err, c.in)
		require.Equal(t, c.decision, o.Decision, c.in)
		if c.stop {
			require.False(t, *o.Continue, c.in)
		}
	}

	o, err := Parse("h", []byte(`{"suppress_output":true,"suppress_output":false,"reason":"a","reason":"b","reason":"a","reason":null}`))
	require.NoError(t, err)
	require.True(t, o.SuppressOutput)
	require.Equal(t, "a; b; a", o.Reason)

	o, err = Parse("h", []byte(`{"decision":"allow","updated_input":{"a":1},"updated_input":{"a": 1}}`))
	require.NoError(t, err)
	require.Equal(t, Allow, o.Decision, "the same rewrite twice is one rewrite")
	require.JSONEq(t, `{"a":1}`, string(o.UpdatedInput))

	o, err = Parse("h", []byte(`{"decision":"allow","updated_input":{"a":1},"updated_input":{"a":2}}`))
	require.NoError(t, err)
	require.Equal(t, Deny, o.Decision, "two different rewrites deny")
	require.Nil(t, o.UpdatedInput)
	require.Contains(t, o.Reason, "updated_input twice")

	// A second value of the wrong type is still an error.
	_, err = Parse("h", []byte(`{"decision":"deny","decision":1}`))
	require.ErrorContains(t, err, "decision must be a string")
}

// Two rewrites that differ only in how their members would read if keys
// were written bare are still two rewrites.
func TestSameJSONKeysQuoted(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{`{"a:1,b":2}`, `{"a":1,"b":2}`, false},
		{`{"x":{"y":1}}`, `{"x":{"y" : 1}}`, true},
		{`{"b":1,"a":[1,"2"]}`, `{"a":[1,"2"],"b":1}`, true},
		{`{"a":"1"}`, `{"a":1}`, false},
	} {
		require.Equal(t, c.same, sameJSON([]byte(c.a), []byte(c.b)), "%s vs %s", c.a, c.b)
	}
}

// Session variables of several handlers are one object: a later
// handler's value of a name wins, as if the tool had run both.
func TestMergeEnv(t *testing.T) {
	v := Merge([]Output{
		{Handler: "a", Env: []byte(`{"A":"1","B":"x"}`)},
		{Handler: "b"},
		{Handler: "c", Env: []byte(`{"B":"y","C":"2"}`)},
	})
	require.JSONEq(t, `{"A":"1","B":"y","C":"2"}`, string(v.Env))
	require.Nil(t, Merge([]Output{{Handler: "a"}}).Env)
	o := Output{Env: []byte(`{}`)}
	require.False(t, o.Empty())
}
