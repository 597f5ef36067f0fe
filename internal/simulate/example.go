package simulate

import (
	"fmt"
	"regexp"
	"sync"

	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
)

// destructive matches shell commands the example policy refuses: deleting
// the root or home directory, formatting or overwriting a disk, a fork bomb.
// Compiled on first use, as every regexp of the binary: package variables
// are initialized on every hook call, which never needs them. A sync.Once
// in a zero value, not sync.OnceValue, whose closure would itself be
// allocated at every start.
var destructive struct {
	once sync.Once
	re   *regexp.Regexp
}

func destructiveRE() *regexp.Regexp {
	destructive.once.Do(func() {
		destructive.re = regexp.MustCompile(`(^|[;&|]\s*|\bsudo\s+)rm\s+(-[a-zA-Z]*\s+)*-[a-zA-Z]*[rR][a-zA-Z]*\s+(-[a-zA-Z]*\s+)*(/|~|\$HOME|/\*)(\s|$|;|&)` +
			`|\bmkfs(\.\w+)?\s` +
			`|\bdd\s.*\bof=/dev/(sd|nvme|hd|disk)` +
			`|>\s*/dev/(sd|nvme|hd)[a-z]` +
			`|:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:`)
	})
	return destructive.re
}

// ExampleContext is what the example policy adds to every prompt.
const ExampleContext = "Project policy (hookshim example): run the tests before you call a change done."

// ExampleAnswer is the answer of the example handler name
// (deny-destructive or prompt-context) to an OpenHook envelope, in the
// canonical schema; nil for no opinion.
func ExampleAnswer(name string, envelope []byte) ([]byte, error) {
	data := gjson.GetBytes(envelope, "data")
	o := &wire.Object{}
	switch name {
	case "deny-destructive":
		cmd := data.Get("command").Str
		if data.Get("tool_name").Str == "shell" && destructiveRE().MatchString(cmd) {
			o.Str("decision", "deny")
			o.Str("reason", fmt.Sprintf("destructive command refused by policy: %s", cmd))
		}
	case "prompt-context":
		o.Str("context", ExampleContext)
	default:
		return nil, fmt.Errorf("unknown example policy %q (known: deny-destructive, prompt-context)", name)
	}
	if o.Len() == 0 {
		return nil, nil
	}
	return o.Bytes(), nil
}
