package doctor

import (
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/hookshim/hookshim"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/journal"
	"github.com/hookshim/hookshim/internal/provider"
)

// What doctor reads of the decision log: the newest records, at most
// this many, so that it answers in well under a second on a full log.
const doctorRecords = 20000

// SlowP95 is the 95th percentile of a handler's duration past which
// doctor calls it slow: every call it matches waits that long.
const SlowP95 = 500 * time.Millisecond

// LogReport is what doctor learnt from the decision log.
type LogReport struct {
	Path     string         `json:"path"`
	Calls    int            `json:"calls"` // records read
	Since    *time.Time     `json:"since"` // the oldest record read
	Drift    []Drift        `json:"drift"`
	Handlers []HandlerStats `json:"handlers"`
	Error    string         `json:"error,omitempty"` // why the log could not be read
}

// Drift is something a tool sent that this hookshim does not know.
type Drift struct {
	Provider string    `json:"provider"`
	Version  string    `json:"tool_version"` // "" when the tool does not say
	Kind     string    `json:"kind"`         // field, event, tool
	Name     string    `json:"name"`
	Calls    int       `json:"calls"`
	Last     time.Time `json:"last"`
}

// HandlerStats are one handler's runs in the log.
type HandlerStats struct {
	Name     string  `json:"name"`
	Pos      string  `json:"pos"`
	Runs     int     `json:"runs"`
	Failures int     `json:"failures"`
	P50      float64 `json:"p50_ms"`
	P95      float64 `json:"p95_ms"`
	Max      float64 `json:"max_ms"`
	Slow     bool    `json:"slow"`
}

// checkLog reads the decision log for what the stamps cannot say: which
// registered events never fired, payloads this version does not know
// (per tool version), and handlers that are slow. None of it is a
// problem (doctor's exit status stays), all of it is for the user to see.
func checkLog(r *Report, getenv func(string) string) {
	lr := &LogReport{Drift: []Drift{}, Handlers: []HandlerStats{}}
	r.Log = lr
	path, err := journal.ReadPath("", getenv)
	if err != nil {
		lr.Error = err.Error()
		return
	}
	lr.Path = path
	fired := map[string]bool{} // provider + "\x00" + native event
	known := knownPayloads()
	drifts := map[string]*Drift{}
	runs := map[string][]journal.Run{}
	var order []string // handlers by first seen, newest first
	err = journal.Scan(path, func(rec *journal.Record) bool {
		e := &rec.Entry
		lr.Calls++
		t := e.Time
		lr.Since = &t
		fired[e.Provider+"\x00"+e.Native] = true
		for _, d := range driftOf(e, known) {
			k := d.Provider + "\x00" + d.Version + "\x00" + d.Kind + "\x00" + d.Name
			if x, ok := drifts[k]; ok {
				x.Calls++
				continue
			}
			d.Calls, d.Last = 1, e.Time
			drifts[k] = &d
		}
		for _, run := range e.Runs {
			if run.Async || run.Reused {
				continue
			}
			k := run.Name + "\x00" + run.Pos
			if _, ok := runs[k]; !ok {
				order = append(order, k)
			}
			runs[k] = append(runs[k], run)
		}
		return lr.Calls < doctorRecords
	})
	if err != nil {
		lr.Error = err.Error()
	}
	for i := range r.Registrations {
		rg := &r.Registrations[i]
		rg.NeverFired = []string{}
		for _, ev := range rg.Events {
			if _, ok := rg.Calls[ev]; !ok && !fired[rg.Provider+"\x00"+ev] {
				rg.NeverFired = append(rg.NeverFired, ev)
			}
		}
	}
	for _, d := range drifts {
		lr.Drift = append(lr.Drift, *d)
	}
	sort.Slice(lr.Drift, func(i, j int) bool {
		a, b := lr.Drift[i], lr.Drift[j]
		if a.Provider != b.Provider {
			return a.Provider < b.Provider
		}
		if a.Version != b.Version {
			return a.Version < b.Version
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Name < b.Name
	})
	for _, k := range order {
		lr.Handlers = append(lr.Handlers, statsOf(runs[k]))
	}
}

func statsOf(runs []journal.Run) HandlerStats {
	s := HandlerStats{Name: runs[0].Name, Pos: runs[0].Pos, Runs: len(runs)}
	ms := make([]float64, 0, len(runs))
	for _, r := range runs {
		if r.Error != "" {
			s.Failures++
		}
		ms = append(ms, r.MS)
	}
	slices.Sort(ms)
	s.P50, s.P95, s.Max = percentile(ms, 50), percentile(ms, 95), ms[len(ms)-1]
	s.Slow = s.P95 >= float64(SlowP95.Milliseconds())
	return s
}

// percentile is the nearest-rank percentile of sorted values.
func percentile(sorted []float64, p float64) float64 {
	i := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	return sorted[max(i, 0)]
}

// known are, per provider, the payload keys and tool names this version
// has seen: its embedded sample payloads' and what its table reads.
type known struct {
	keys  map[string]bool
	tools map[string]bool
}

func knownPayloads() map[string]*known {
	out := map[string]*known{}
	get := func(p *provider.Provider) *known {
		k := out[p.ID]
		if k == nil {
			k = &known{keys: map[string]bool{}, tools: map[string]bool{}}
			out[p.ID] = k
			f := p.Fields
			for _, path := range []string{f.SessionID, f.Cwd, f.Transcript, f.Model, f.ToolName, f.ToolInput, f.ToolCallID, f.ToolOutput, f.ToolError, f.Prompt, p.VersionAt} {
				k.keys[top(path)] = true
			}
			for _, rs := range p.Keep {
				for _, r := range rs {
					k.keys[top(r.From)] = true
				}
			}
			for _, r := range p.Tools {
				k.tools[r.From] = true
			}
		}
		return k
	}
	for _, p := range provider.All {
		get(p)
	}
	for _, s := range hookshim.Samples() {
		k := get(s.Provider)
		pl := provider.NewPayload(s.Raw, nil)
		for _, key := range pl.Keys() {
			k.keys[key] = true
		}
		if s.Provider.Fields.ToolName != "" {
			if n := pl.Get(s.Provider.Fields.ToolName).Str; n != "" {
				k.tools[n] = true
			}
		}
	}
	return out
}

// top is the first key of a gjson path.
func top(path string) string {
	k, _, _ := strings.Cut(path, ".")
	return k
}

// driftOf lists what one call sent that this version does not know.
func driftOf(e *journal.Entry, known map[string]*known) []Drift {
	p := provider.Lookup(e.Provider)
	k := known[e.Provider]
	if p == nil || k == nil {
		return nil
	}
	var out []Drift
	add := func(kind, name string) {
		out = append(out, Drift{Provider: e.Provider, Version: e.Version, Kind: kind, Name: name})
	}
	if e.Native != "" && p.Spec(e.Native) == nil {
		add("event", e.Native)
	}
	if n := e.NativeTool; n != "" && !k.tools[n] && !strings.HasPrefix(e.Tool, "mcp__") && !slices.Contains(event.ToolNames, n) {
		add("tool", n)
	}
	for _, key := range e.Keys {
		if !k.keys[key] {
			add("field", key)
		}
	}
	return out
}
