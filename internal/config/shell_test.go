package config

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// SimpleCommands reads a line as the policies do: what a function, a
// subshell or sh -c runs is a command too.
func TestSimpleCommands(t *testing.T) {
	for _, tt := range []struct {
		line string
		want []string
	}{
		{`a && b | c; d`, []string{"a", "b", "c", "d"}},
		{`"$CLAUDE_PROJECT_DIR"/hooks/x.sh --flag`, []string{"$CLAUDE_PROJECT_DIR/hooks/x.sh --flag"}},
		{`f() { ./a.sh; }; (cd sub && ./b.sh)`, []string{"./a.sh", "cd sub", "./b.sh"}},
		{`sh -c 'node x.js' && env A=1 python3 y.py`, []string{"node x.js", "python3 y.py"}},
		{`cat <<EOF | jq .\n{}\nEOF`, []string{"cat", "jq ."}},
		{`./ok.sh && echo "unclosed`, []string{"./ok.sh", "echo"}},
	} {
		var got []string
		SimpleCommands(strings.ReplaceAll(tt.line, `\n`, "\n"), func(words []string) { got = append(got, strings.Join(words, " ")) })
		assert.Equal(t, tt.want, got, tt.line)
	}
}
