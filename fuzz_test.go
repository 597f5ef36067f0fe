package hookshim_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	hookshim "github.com/hookshim/hookshim"
	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/detect"
	"github.com/hookshim/hookshim/internal/normalize"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/respond"
	"github.com/hookshim/hookshim/internal/run"
	"github.com/tidwall/gjson"
)

// Native fuzz tests of the stages that read untrusted input. The seed
// corpus is every fixture; `make fuzz` runs each target for a while.

func addPayloadSeeds(f *testing.F) {
	for _, s := range hookshim.Samples() {
		f.Add(s.Raw)
	}
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"hook_event_name":null,"tool_input":"{\"command\":1}"}`))
}

func noEnv(string) string { return "" }

// FuzzDetectNormalize: any JSON object is detected (or not) and
// normalized without panicking, and the canonical data is valid JSON.
func FuzzDetectNormalize(f *testing.F) {
	addPayloadSeeds(f)
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !gjson.ValidBytes(raw) || !gjson.ParseBytes(raw).IsObject() {
			return
		}
		p := provider.Payload{Raw: raw, Env: noEnv}
		det := detect.Detect(p, "")
		_ = det.Explain()
		for _, pr := range provider.All {
			native := pr.EventName(p)
			_, _, _ = pr.InferEvent(p) // a call without --event
			for i := range pr.Events {
				spec := &pr.Events[i]
				if native != "" && native != spec.Native {
					continue
				}
				ev := normalize.Event(pr, spec, p)
				data := normalize.Data(ev)
				if !json.Valid(data) {
					t.Fatalf("%s %s: canonical data is not JSON: %s", pr.ID, spec.Native, data)
				}
				env := normalize.Envelope(ev, "id", fixedTime, "test")
				if !json.Valid(env) {
					t.Fatalf("%s %s: envelope is not JSON: %s", pr.ID, spec.Native, env)
				}
			}
		}
	})
}

// FuzzConfig: any document parses or fails with an error, never a panic.
func FuzzConfig(f *testing.F) {
	files, _ := filepath.Glob("testdata/script/*.txtar")
	for _, name := range files {
		b, _ := os.ReadFile(name)
		f.Add(b)
	}
	f.Add([]byte(`{"openhook":"0.1","hooks":[{"command":"x","events":["*"],"matcher":[{"pattern":"a"},{"mcp":{"server":"s"}}]}]}`))
	f.Add([]byte(`{"spec":"hooks/0.1","hooks":[{"event":"tool:pre","handler":{"type":"command","command":"x","platform":{"linux":"y"},"env":{"A":"1"},"timeout":1.5}}]}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		cfg, err := config.Parse("fuzz.json", doc)
		if err == nil && cfg == nil {
			t.Fatal("no config and no error")
		}
	})
}

// FuzzRespond: whatever a handler prints, every provider's answer to every
// event is empty or one JSON document (or plain text where the tool reads
// text), and only a deny may use a non-zero exit code.
func FuzzRespond(f *testing.F) {
	f.Add([]byte(`{"decision":"deny","reason":"r"}`))
	f.Add([]byte(`{"decision":"ask","reason":"r","context":"c"}`))
	f.Add([]byte(`{"updated_input":{"command":"x"},"continue":false,"system_message":"m","suppress_output":true}`))
	f.Add([]byte(`{"context":"\u0000<>&"}`))
	f.Add([]byte(`not json`))
	f.Fuzz(func(t *testing.T, stdout []byte) {
		out, err := decision.Parse("fuzz", stdout)
		if err != nil {
			return
		}
		hook := &config.Hook{Name: "fuzz"}
		for _, pr := range provider.All {
			for i := range pr.Events {
				spec := &pr.Events[i]
				v := respond.Verdict(spec, []run.Result{{Hook: hook, Output: out}}, "allow")
				ans := respond.Encode(pr, spec, v)
				// A tool whose exit 0 approves has its own neutral exit
				// (Provider.NeutralExit), which is not a block.
				if ans.Exit != 0 && ans.Exit != pr.NeutralExit && v.Decision != decision.Deny {
					t.Fatalf("%s %s: exit %d without a deny", pr.ID, spec.Native, ans.Exit)
				}
				if len(ans.Stdout) > 0 && (ans.Stdout[0] == '{' || ans.Stdout[0] == '[') && !json.Valid(ans.Stdout) {
					t.Fatalf("%s %s: stdout looks like JSON but is not: %s", pr.ID, spec.Native, ans.Stdout)
				}
			}
			_ = respond.NoOpinion(pr, nil)
		}
	})
}

var fixedTime = time.Date(2026, 11, 22, 7, 0, 0, 0, time.UTC)
