package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/hookshim/hookshim/internal/completion"
)

// cmdCompletion prints a shell's completion script, read from the usage
// text's blocks: the commands, their flags and the words they take.
func cmdCompletion(args []string, _ io.Reader, stdout, stderr io.Writer, _ func(string) string) int {
	if len(args) == 1 {
		if script, err := completion.Script(args[0], completion.Commands(usageBlocks())); err == nil {
			fmt.Fprint(stdout, script)
			return 0
		}
	}
	errorf(stderr, "completion takes one shell: %s", strings.Join(completion.Shells, ", "))
	hintf(stderr, "run 'hookshim completion --help' for its usage")
	return 2
}
