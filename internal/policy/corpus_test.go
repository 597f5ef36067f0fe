package policy

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/stretchr/testify/require"
)

// corpusDir holds the labelled commands, tool calls and prompts gathered
// from public guard projects and incident reports (see its README.md).
const corpusDir = "../../testdata/corpus"

// The corpus goals: a policy must catch at least minRecall of its block
// cases and flag at most maxFlagged of its allow cases.
const (
	minRecall  = 0.90
	maxFlagged = 0.01
)

// corpusCase is one line of a corpus file.
type corpusCase struct {
	Tool   string          `json:"tool"`
	Input  string          `json:"input"`
	Expect string          `json:"expect"`
	Source string          `json:"source"`
	Note   string          `json:"note"`
	Cwd    string          `json:"cwd"`
	With   json.RawMessage `json:"with"`

	file string
	line int
}

// corpusTools are the tools a case may name: the canonical vocabulary, and
// "prompt" for a prompt.
var corpusTools = append([]string{"prompt"}, event.ToolNames...)

func readCorpus(t *testing.T) map[string][]corpusCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(corpusDir, "*.jsonl"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "no corpus files in %s", corpusDir)
	out := map[string][]corpusCase{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		name := "hookshim/" + strings.TrimSuffix(filepath.Base(f), ".jsonl")
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<20)
		for n := 1; sc.Scan(); n++ {
			if len(bytes.TrimSpace(sc.Bytes())) == 0 {
				continue
			}
			var c corpusCase
			dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
			dec.DisallowUnknownFields()
			require.NoError(t, dec.Decode(&c), "%s:%d", f, n)
			c.file, c.line = filepath.Base(f), n
			require.Contains(t, []string{"block", "allow"}, c.Expect, "%s:%d: expect", f, n)
			require.Contains(t, corpusTools, c.Tool, "%s:%d: tool", f, n)
			require.NotEmpty(t, c.Input, "%s:%d: input", f, n)
			require.NotEmpty(t, c.Source, "%s:%d: source", f, n)
			out[name] = append(out[name], c)
		}
		require.NoError(t, sc.Err())
	}
	return out
}

// corpusStats counts one policy's answers.
type corpusStats struct {
	block, caught, allow, flagged int
	missed, wrong                 []string
}

func (s corpusStats) recall() float64 {
	if s.block == 0 {
		return 1
	}
	return float64(s.caught) / float64(s.block)
}

func (s corpusStats) flaggedRate() float64 {
	if s.allow == 0 {
		return 0
	}
	return float64(s.flagged) / float64(s.allow)
}

// TestCorpus runs every corpus case through its policy and holds each
// policy, and the whole pack, to the corpus goals. A deny or an ask counts
// as a finding. A file for a policy that does not exist fails the test: its
// cases are measured the day the policy lands, never skipped.
func TestCorpus(t *testing.T) {
	corpus := readCorpus(t)
	dirs := repos(t)
	names := make([]string, 0, len(corpus))
	for n := range corpus {
		names = append(names, n)
	}
	slices.Sort(names)

	var total corpusStats
	var table strings.Builder
	fmt.Fprintf(&table, "%-30s %6s %6s %8s %6s %8s\n", "policy", "block", "caught", "recall", "allow", "flagged")
	for _, name := range names {
		cases := corpus[name]
		if _, ok := Lookup(name); !ok {
			t.Errorf("%s: %d corpus cases (testdata/corpus/%s.jsonl) for a policy that does not exist", name, len(cases), strings.TrimPrefix(name, "hookshim/"))
			continue
		}
		var s corpusStats
		for _, c := range cases {
			ex := Example{Tool: c.Tool, Text: c.Input, Cwd: c.Cwd, With: string(c.With)}
			if c.Tool == "prompt" {
				ex.Tool = ""
			}
			p, err := Compile(name, []byte(ex.With))
			require.NoError(t, err, "%s:%d", c.file, c.line)
			out := p.Eval(eventFor(ex, dirs))
			found := !out.Empty()
			what := fmt.Sprintf("%s:%d %s: %q", c.file, c.line, c.Tool, c.Input)
			if c.Source == "hookshim" && found != (c.Expect == "block") {
				// A case of our own is a promise the docs make: each holds,
				// not only the rate.
				t.Errorf("%s: expected %s, got %q", what, c.Expect, out.Reason)
			}
			if c.Expect == "block" {
				s.block++
				if found {
					s.caught++
				} else {
					s.missed = append(s.missed, what)
				}
			} else {
				s.allow++
				if found {
					s.flagged++
					s.wrong = append(s.wrong, what+" -> "+out.Reason)
				}
			}
		}
		fmt.Fprintf(&table, "%-30s %6d %6d %7.1f%% %6d %7.1f%%\n", name, s.block, s.caught, 100*s.recall(), s.allow, 100*s.flaggedRate())
		total.block += s.block
		total.caught += s.caught
		total.allow += s.allow
		total.flagged += s.flagged
		if s.recall() < minRecall {
			t.Errorf("%s: recall %.1f%% is under %.0f%%; missed block cases:\n%s", name, 100*s.recall(), 100*minRecall, firstLines(s.missed, 300))
		}
		if s.flaggedRate() > maxFlagged {
			t.Errorf("%s: %.1f%% of allow cases flagged, over %.0f%%:\n%s", name, 100*s.flaggedRate(), 100*maxFlagged, firstLines(s.wrong, 300))
		}
	}
	fmt.Fprintf(&table, "%-30s %6d %6d %7.1f%% %6d %7.1f%%\n", "all", total.block, total.caught, 100*total.recall(), total.allow, 100*total.flaggedRate())
	t.Log("\n" + table.String())
	if total.recall() < minRecall {
		t.Errorf("overall recall %.1f%% is under %.0f%%", 100*total.recall(), 100*minRecall)
	}
	if total.flaggedRate() > maxFlagged {
		t.Errorf("overall %.1f%% of allow cases flagged, over %.0f%%", 100*total.flaggedRate(), 100*maxFlagged)
	}
}

// firstLines lists up to n lines, saying how many more there are.
func firstLines(lines []string, n int) string {
	more := ""
	if len(lines) > n {
		more = fmt.Sprintf("\n\t… and %d more", len(lines)-n)
		lines = lines[:n]
	}
	return "\t" + strings.Join(lines, "\n\t") + more
}
