// Package hookshim carries the sample payloads that `hookshim simulate`
// feeds through the pipeline: the same files the golden tests check, one
// folder per provider under testdata/payloads.
package hookshim

import (
	"embed"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/hookshim/hookshim/internal/provider"
)

// Payloads holds testdata/payloads/<provider>/<NativeEvent>[-variant].json
// (and the golden files beside them).
//
//go:embed testdata/payloads
var Payloads embed.FS

// Sample is one embedded sample payload.
type Sample struct {
	Provider *provider.Provider
	Event    string // native event, from the file name
	Name     string // file name
	Raw      []byte
}

// Samples lists the embedded sample payloads, in registry order, then by
// file name.
func Samples() []Sample {
	var out []Sample
	for _, pr := range provider.All {
		dir := path.Join("testdata/payloads", pr.ID)
		entries, err := fs.ReadDir(Payloads, dir)
		if err != nil {
			continue
		}
		var names []string
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".json") {
				names = append(names, e.Name())
			}
		}
		sort.Strings(names)
		for _, n := range names {
			raw, err := fs.ReadFile(Payloads, path.Join(dir, n))
			if err != nil {
				continue
			}
			out = append(out, Sample{Provider: pr, Event: EventOfFile(n), Name: n, Raw: raw})
		}
	}
	return out
}

// EventOfFile is the native event a fixture file is named after:
// <NativeEvent>[-variant].json.
func EventOfFile(name string) string {
	name = strings.TrimSuffix(name, ".json")
	ev, _, _ := strings.Cut(name, "-")
	return ev
}
