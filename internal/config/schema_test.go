package config

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"
	"github.com/tailscale/hujson"
)

// TestSchemaAcceptsEveryExample: schema/openhook.schema.json (what an
// editor checks .openhook.json against, through "$schema") accepts every
// whole config shown in the README and docs/, and hookshim parses each
// too, so that the two never disagree on an example; it refuses a typo.
func TestSchemaAcceptsEveryExample(t *testing.T) {
	c := jsonschema.NewCompiler()
	sch, err := c.Compile(filepath.Join("..", "..", "schema", "openhook.schema.json"))
	require.NoError(t, err)

	docs, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	require.NoError(t, err)
	docs = append(docs, filepath.Join("..", "..", "README.md"))
	n := 0
	for _, path := range docs {
		text, err := os.ReadFile(path)
		require.NoError(t, err)
		for _, ex := range examples(string(text)) {
			v, ok := configDoc(ex)
			if !ok {
				continue // a fragment: an entry, a tool's own file
			}
			n++
			require.NoError(t, sch.Validate(v), "%s: example\n%s", path, ex)
			_, err := Parse(filepath.Join(t.TempDir(), FileName), []byte(ex))
			require.NoError(t, err, "%s: example\n%s", path, ex)
		}
	}
	require.Greater(t, n, 5, "examples found")
	t.Logf("%d examples", n)

	for doc, want := range map[string]string{
		`{"spec": "hooks/0.1", "hooks": [{"event": "before_tool_execute", "matchr": "shell", "handler": {"command": "c"}}]}`: "matchr",
		`{"spec": "hooks/0.1", "hooks": [{"event": "before_tool_execute", "handler": {"command": "c", "timeout": "5"}}]}`:    "timeout",
		`{"hooks": [{"event": "before_tool_execute", "handler": {"command": "c"}}]}`:                                         "spec",
	} {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		require.NoError(t, err)
		err = sch.Validate(v)
		require.Error(t, err, doc)
		require.Contains(t, err.Error(), want, doc)
	}
	// "$schema" and "_comment" are accepted by both.
	doc := `{"$schema": "https://raw.githubusercontent.com/hookshim/hookshim/main/schema/openhook.schema.json", "_comment": "x", "spec": "hooks/0.1", "hooks": [{"use": "hookshim/destructive-shell"}]}`
	v, _ := configDoc(doc)
	require.NoError(t, sch.Validate(v))
	f, err := Parse("x.json", []byte(doc))
	require.NoError(t, err)
	require.Empty(t, f.Warnings)
}

// examples are the JSON code blocks of a Markdown text and the files
// written by heredoc in its shell blocks (cat > .openhook.json <<'EOF').
func examples(md string) []string {
	var out []string
	for _, m := range regexp.MustCompile("(?s)```(?:json|jsonc)\n(.*?)```").FindAllStringSubmatch(md, -1) {
		out = append(out, m[1])
	}
	for _, m := range regexp.MustCompile(`(?s)cat > \S*openhook\S*\.json <<'?EOF'?\n(.*?)\nEOF`).FindAllStringSubmatch(md, -1) {
		out = append(out, m[1])
	}
	return out
}

// configDoc reads an example as a whole config: an object that names its
// format ("openhook" or "spec"); comments and trailing commas allowed.
func configDoc(text string) (any, bool) {
	v, err := hujson.Parse([]byte(text))
	if err != nil {
		return nil, false
	}
	v.Standardize()
	b := v.Pack()
	var doc map[string]any
	if json.Unmarshal(b, &doc) != nil {
		return nil, false
	}
	if _, ok := doc["spec"]; !ok {
		if _, ok := doc["openhook"]; !ok {
			return nil, false
		}
	}
	out, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	return out, err == nil && !strings.Contains(text, "…")
}
