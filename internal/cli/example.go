package cli

import (
	"io"

	"github.com/hookshim/hookshim/internal/simulate"
)

// cmdExamplePolicy is the built-in handler behind `hookshim simulate`. It
// reads the OpenHook envelope like any handler and answers in the canonical
// schema; users can point their own config at it to try hookshim out.
func cmdExamplePolicy(args []string, stdin io.Reader, stdout, stderr io.Writer, _ func(string) string) int {
	if len(args) != 1 {
		errorf(stderr, "example-policy takes one name: deny-destructive or prompt-context")
		hintf(stderr, "run 'hookshim example-policy --help' for its usage")
		return 1
	}
	env, err := io.ReadAll(io.LimitReader(stdin, MaxPayload))
	if err != nil {
		errorf(stderr, "reading the envelope: %v", err)
		return 1
	}
	out, err := simulate.ExampleAnswer(args[0], env)
	if err != nil {
		errorf(stderr, "%v", err)
		return 1
	}
	stdout.Write(out)
	return 0
}
