package cli

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// addEntry keeps the file as it was around the new entry: "extends" goes
// before "hooks", on a line of its own in the file's indentation.
func TestAddEntry(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"{\n  \"spec\": \"hooks/0.1\",\n  \"hooks\": []\n}\n",
			"{\n  \"spec\": \"hooks/0.1\",\n  \"extends\": [E],\n  \"hooks\": []\n}\n"},
		{"{\n\t\"spec\": \"hooks/0.1\", \"hooks\": []\n}",
			"{\n\t\"spec\": \"hooks/0.1\", \"extends\": [E], \"hooks\": []\n}"},
		{`{"spec": "hooks/0.1", "extends": [], "hooks": []}`,
			`{"spec": "hooks/0.1", "extends": [E], "hooks": []}`},
		{`{"spec": "hooks/0.1", "extends": ["a.json"], "hooks": []}`,
			`{"spec": "hooks/0.1", "extends": ["a.json",E], "hooks": []}`},
	} {
		got, err := addEntry([]byte(c.in), "E")
		require.NoError(t, err)
		require.Equal(t, c.want, string(got))
	}
}
