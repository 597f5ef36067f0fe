package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookshim/hookshim/internal/provider"
	"github.com/tidwall/gjson"
)

// Fixture paths stand in for the run's temporary folders, so a captured
// payload reads the same from run to run.
const (
	fixtureHome    = "/home/dev"
	fixtureProject = "/home/dev/project"
)

// scenarioRank orders the scenarios a fixture is preferably taken from:
// fail-open first, where every handler fails and hookshim answers nothing,
// so that no planted context shows up in a later payload (Gemini CLI puts
// SessionStart context into the prompt it sends on BeforeAgent); then the
// plain allow run; then the rest.
func scenarioRank(s string) int {
	switch s {
	case "fail-open":
		return 0
	case "allow":
		return 1
	}
	for i, sc := range scenarios {
		if sc.name == s {
			return 2 + i
		}
	}
	return 2 + len(scenarios)
}

// recordPayloads keeps one real payload per native event (from the
// preferred scenario that produced it) and compares each with the fixture
// testdata/payloads/<id>/<Event>-real.json. HOOKSHIM_E2E_RECORD=1 writes
// the fixtures that are new, changed shape or come from another client
// version, with their provenance lines; HOOKSHIM_E2E_RECORD=all writes
// every one.
func recordPayloads(t *testing.T, c *client, pr *provider.Provider, seen []payload) {
	sort.SliceStable(seen, func(i, j int) bool { return scenarioRank(seen[i].Scenario) < scenarioRank(seen[j].Scenario) })
	byEvent := map[string]payload{}
	var events []string
	for _, p := range seen {
		if p.Native == "" || len(p.Raw) == 0 || p.Source != pr.ID {
			continue
		}
		if _, ok := byEvent[p.Native]; !ok {
			byEvent[p.Native] = p
			events = append(events, p.Native)
		}
	}
	sort.Strings(events)
	mode := os.Getenv("HOOKSHIM_E2E_RECORD")
	dir := filepath.Join(root, "testdata", "payloads", pr.ID)
	readme, _ := os.ReadFile(filepath.Join(dir, "README.md"))
	pin := pinned[c.name]
	var drift []string
	var written []string
	for _, ev := range events {
		p := byEvent[ev]
		name := ev + "-real.json"
		path := filepath.Join(dir, name)
		fresh := sanitize(p.Raw, p.dir)
		old, err := os.ReadFile(path)
		changed := true
		switch {
		case err != nil:
			drift = append(drift, fmt.Sprintf("%s: new event (no fixture yet)", name))
		default:
			d := shapeDiff(name, old, fresh)
			drift = append(drift, d...)
			// Ids and times differ on every run: a fixture is rewritten
			// when its shape or the client's version moved, not for those.
			changed = len(d) > 0 || !strings.Contains(string(readme), "- `"+name+"`: "+pin.Package+" "+pin.Version+" ")
		}
		if mode == "all" || mode == "1" && changed {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, fresh, 0o644); err != nil {
				t.Fatal(err)
			}
			written = append(written, name)
		}
	}
	// Fixtures of events this version no longer sent.
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			n := e.Name()
			if strings.HasSuffix(n, "-real.json") {
				if _, ok := byEvent[strings.TrimSuffix(n, "-real.json")]; !ok {
					drift = append(drift, fmt.Sprintf("%s: not sent in this run (event gone, or not reached)", n))
				}
			}
		}
	}
	if len(written) > 0 {
		if err := provenance(dir, c, written, byEvent); err != nil {
			t.Fatal(err)
		}
	}
	report := fmt.Sprintf("## %s %s (%s)\n\nevents sent: %s\n\n", pin.Package, pin.Version, pr.ID, strings.Join(events, ", "))
	if len(written) > 0 {
		report += "re-recorded: " + strings.Join(written, ", ") + "\n\n"
	}
	if len(drift) == 0 {
		report += "no payload drift against the fixtures\n\n"
	} else {
		report += "- " + strings.Join(drift, "\n- ") + "\n\n"
	}
	appendDrift(report)
}

var (
	driftMu sync.Mutex
	// driftSections are the clients' sections of the drift report, printed
	// at the end of every run (not only with -v): a payload that moved is
	// news whether or not a test failed.
	driftSections []string
)

// appendDrift adds a client's section to the drift report printed at the
// end of the run, and to the file HOOKSHIM_E2E_DRIFT names, if any.
func appendDrift(section string) {
	driftMu.Lock()
	defer driftMu.Unlock()
	driftSections = append(driftSections, section)
	path := os.Getenv("HOOKSHIM_E2E_DRIFT")
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.WriteString(section)
}

// driftReport is every client's section, in name order.
func driftReport() string {
	driftMu.Lock()
	defer driftMu.Unlock()
	if len(driftSections) == 0 {
		return ""
	}
	sorted := slices.Clone(driftSections)
	sort.Strings(sorted)
	return "e2e: real payloads against the fixtures in testdata/payloads:\n\n" + strings.Join(sorted, "")
}

// pathEncoding is how Claude Code (and CodeBuddy Code, without the leading
// dash) turns a project path into a folder name.
var pathEncoding = regexp.MustCompile(`[^a-zA-Z0-9]`)

// sanitize rewrites the run's folders to the fixture folders. The payload
// otherwise stays as the tool sent it (compact, in its key order), so that
// its golden shows what hookshim does with the real bytes.
func sanitize(raw []byte, r *runDir) []byte {
	s := string(raw)
	pairs := [][2]string{
		{r.proj, fixtureProject},
		{r.home, fixtureHome},
		// Relative to the root: OpenCode's session path, from its
		// worktree "/" (replaced after the absolute paths, which hold it).
		{strings.TrimPrefix(r.proj, "/"), strings.TrimPrefix(fixtureProject, "/")},
		{strings.TrimPrefix(r.home, "/"), strings.TrimPrefix(fixtureHome, "/")},
		{pathEncoding.ReplaceAllString(r.proj, "-"), pathEncoding.ReplaceAllString(fixtureProject, "-")},
		// CodeBuddy Code's encoding drops the leading dash.
		{strings.TrimLeft(pathEncoding.ReplaceAllString(r.proj, "-"), "-"), strings.TrimLeft(pathEncoding.ReplaceAllString(fixtureProject, "-"), "-")},
		{r.root, "/tmp/e2e"},
	}
	for _, p := range pairs {
		// Paths appear inside JSON strings, where "/" may be escaped.
		s = strings.ReplaceAll(s, p[0], p[1])
		s = strings.ReplaceAll(s, strings.ReplaceAll(p[0], "/", `\/`), p[1])
	}
	return []byte(strings.TrimSpace(s) + "\n")
}

// shape lists a JSON document's paths with their types, arrays collapsed.
func shape(doc []byte) map[string]string {
	out := map[string]string{}
	var walk func(path string, v gjson.Result)
	walk = func(path string, v gjson.Result) {
		switch {
		case v.IsObject():
			out[path] = "object"
			v.ForEach(func(k, e gjson.Result) bool {
				walk(path+"."+k.Str, e)
				return true
			})
		case v.IsArray():
			out[path] = "array"
			v.ForEach(func(_, e gjson.Result) bool {
				walk(path+"[]", e)
				return true
			})
		default:
			out[path] = typeOf(v)
		}
	}
	walk("", gjson.ParseBytes(doc))
	return out
}

func typeOf(v gjson.Result) string {
	switch v.Type {
	case gjson.String:
		return "string"
	case gjson.Number:
		return "number"
	case gjson.True, gjson.False:
		return "boolean"
	case gjson.Null:
		return "null"
	}
	return "?"
}

// shapeDiff reports keys added, removed or retyped between two payloads.
func shapeDiff(name string, old, fresh []byte) []string {
	a, b := shape(old), shape(fresh)
	var out []string
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	var sorted []string
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		ta, inA := a[k]
		tb, inB := b[k]
		switch {
		case !inA:
			out = append(out, fmt.Sprintf("%s: new field %s (%s)", name, k, tb))
		case !inB:
			out = append(out, fmt.Sprintf("%s: field gone %s (was %s)", name, k, ta))
		case ta != tb:
			out = append(out, fmt.Sprintf("%s: field %s is now %s (was %s)", name, k, tb, ta))
		}
	}
	return out
}

// provenanceHeading is the README section that lists the captured fixtures.
const provenanceHeading = "## Captured from the real client"

// provenance writes one line per captured fixture under the heading of the
// folder's README.md, replacing that file's earlier line.
func provenance(dir string, c *client, names []string, byEvent map[string]payload) error {
	path := filepath.Join(dir, "README.md")
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	text := string(b)
	if !strings.Contains(text, provenanceHeading) {
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		if text != "" {
			text += "\n"
		}
		text += provenanceHeading + "\n\n"
	}
	p := pinned[c.name]
	date := time.Now().UTC().Format("2006-01-02")
	for _, n := range names {
		line := fmt.Sprintf("- `%s`: %s %s run headless by `make e2e` (scenario %s), %s; its temporary folders renamed %s and %s.",
			n, p.Package, p.Version, byEvent[strings.TrimSuffix(n, "-real.json")].Scenario, date, fixtureHome, fixtureProject)
		prefix := "- `" + n + "`:"
		lines := strings.Split(text, "\n")
		replaced := false
		for i, l := range lines {
			if strings.HasPrefix(l, prefix) {
				lines[i] = line
				replaced = true
			}
		}
		if replaced {
			text = strings.Join(lines, "\n")
			continue
		}
		// Append at the end of the section.
		at := strings.Index(text, provenanceHeading) + len(provenanceHeading)
		rest := text[at:]
		end := strings.Index(rest, "\n## ")
		if end < 0 {
			text = strings.TrimRight(text, "\n") + "\n" + line + "\n"
		} else {
			text = text[:at] + strings.TrimRight(rest[:end], "\n") + "\n" + line + "\n" + rest[end:]
		}
	}
	text = strings.Replace(text, provenanceHeading+"\n-", provenanceHeading+"\n\n-", 1)
	return os.WriteFile(path, []byte(text), 0o644)
}
