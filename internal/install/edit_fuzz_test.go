package install

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hookshim/hookshim/internal/provider"
)

// FuzzJSONCEdit: whatever JSON with comments a user's file holds, adding
// hookshim's entries and taking them out again give files that parse.
func FuzzJSONCEdit(f *testing.F) {
	for _, p := range installable() {
		for _, name := range []string{"existing", "jsonc", "stale"} {
			if b, err := os.ReadFile(filepath.Join(goldenDir, p.ID, name+".json")); err == nil {
				f.Add(string(b))
			}
		}
	}
	f.Add("{\"a\":1,//x\n\"hooks\":{/*y*/}}")
	p := provider.Gemini
	tg := *Target(p, provider.ScopeProject)
	f.Fuzz(func(t *testing.T, text string) {
		if _, err := newJDoc(text); err != nil {
			return
		}
		ed, err := newJSONEditor(text, tg.Format, false)
		if err != nil {
			return
		}
		if _, err := ed.items(); err != nil {
			return
		}
		for _, ev := range []string{"BeforeTool", "AfterTool"} {
			if err := ed.add(ev, `{"type": "command", "command": "/opt/hookshim run --provider gemini-cli"}`); err != nil {
				return
			}
		}
		installed := ed.text()
		if err := checkJSON(installed); err != nil {
			t.Fatalf("install made invalid JSON: %v\n%s", err, installed)
		}
		ed2, err := newJSONEditor(installed, tg.Format, false)
		if err != nil {
			t.Fatal(err)
		}
		for {
			all, err := ed2.items()
			if err != nil {
				t.Fatal(err)
			}
			var mine *item
			for i := range all {
				for _, c := range all[i].cmds {
					if _, ok := ours(c, p); ok {
						mine = &all[i]
					}
				}
			}
			if mine == nil {
				break
			}
			if err := ed2.remove(*mine); err != nil {
				t.Fatal(err)
			}
		}
		if err := checkJSON(ed2.text()); err != nil {
			t.Fatalf("uninstall made invalid JSON: %v\n%s", err, ed2.text())
		}
	})
}
