package cli

import (
	"fmt"
	"io"
	"regexp"
	"sync"

	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
)

// destructive matches shell commands the example policy refuses: deleting
// the root or home directory, formatting or overwriting a disk, a fork bomb.
// Compiled on first use, as every regexp of the binary: package variables
// are initialized on every hook call, which never needs them.
var destructive = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(^|[;&|]\s*|\bsudo\s+)rm\s+(-[a-zA-Z]*\s+)*-[a-zA-Z]*[rR][a-zA-Z]*\s+(-[a-zA-Z]*\s+)*(/|~|\$HOME|/\*)(\s|$|;|&)` +
		`|\bmkfs(\.\w+)?\s` +
		`|\bdd\s.*\bof=/dev/(sd|nvme|hd|disk)` +
		`|>\s*/dev/(sd|nvme|hd)[a-z]` +
		`|:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:`)
})

// ExampleContext is what the example policy adds to every prompt.
const ExampleContext = "Project policy (hookshim example): run the tests before you call a change done."

// cmdExamplePolicy is the built-in handler behind `hookshim simulate`. It
// reads the OpenHook envelope like any handler and answers in the canonical
// schema; users can point their own config at it to try hookshim out.
func cmdExamplePolicy(args []string, stdin io.Reader, stdout, stderr io.Writer, _ func(string) string) int {
	if len(args) != 1 {
		errorf(stderr, "usage: hookshim example-policy deny-destructive|prompt-context")
		return 1
	}
	env, err := io.ReadAll(io.LimitReader(stdin, MaxPayload))
	if err != nil {
		errorf(stderr, "reading the envelope: %v", err)
		return 1
	}
	data := gjson.GetBytes(env, "data")
	o := &wire.Object{}
	switch args[0] {
	case "deny-destructive":
		cmd := data.Get("command").Str
		if data.Get("tool_name").Str == "shell" && destructive().MatchString(cmd) {
			o.Str("decision", "deny")
			o.Str("reason", fmt.Sprintf("destructive command refused by policy: %s", cmd))
		}
	case "prompt-context":
		o.Str("context", ExampleContext)
	default:
		errorf(stderr, "unknown example policy %q (known: deny-destructive, prompt-context)", args[0])
		return 1
	}
	if o.Len() > 0 {
		stdout.Write(o.Bytes())
	}
	return 0
}
