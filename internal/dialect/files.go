package dialect

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/patch"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
)

// A file tool's call, as another tool's hooks read it. Tools send what
// they write in shapes of their own: a patch (Codex's apply_patch and the
// tools that took its grammar), SEARCH/REPLACE blocks (Cline), a list of
// edits (Windsurf, VS Code's multi_replace_string_in_file) or their own
// key names (OpenCode's oldString, Kiro's text). A hook that checks what
// is written (content, new_string) sees nothing in a shape it was not
// written for, so the call is read into one call per file, each in the
// canonical keys of Claude Code's Write, Edit and MultiEdit, and those
// are written in the dialect's own tools and keys.

// fileCall is one file's part of a file tool call, in the canonical keys:
// Write's file_path and content, Edit's old_string and new_string,
// MultiEdit's edits.
type fileCall struct {
	tool  string // event.ToolFileWrite, event.ToolFileEdit or event.ToolFileRead
	multi bool   // several edits of the file, in edits
	path  string
	input *wire.Object
	op    patch.Op // from a patch: what it does to the file; 0 otherwise
}

// fileView is a file tool call read into calls per file.
type fileView struct {
	calls []fileCall
	// renamed are the caller's keys renamed to canonical ones, native to
	// canonical: a hook's rewrite of the input is given back in them.
	renamed provider.Renames
	// converted: the input was read from a patch, a diff or a list of
	// edits, so a rewrite of the calls cannot be given back to the caller.
	converted string
	notes     []string
	patchErr  error
}

// patchKeys hold a patch in the apply_patch grammar: Codex's command, the
// input of Copilot, VS Code, Factory Droid and Cline, OpenCode's patchText.
var patchKeys = []string{"command", "input", "patch", "patchText", "patch_text"}

// viewFiles reads a file tool's call into calls per file; nil when t is
// no file tool or its input is no object. callerKeys are the caller's own
// renames of this tool's input; cwd makes relative paths absolute, as the
// hooks of every tool that sends paths get them.
func viewFiles(t *event.Tool, callerKeys provider.Renames, cwd string) *fileView {
	switch t.Name {
	case event.ToolFileWrite, event.ToolFileEdit, event.ToolFileRead:
	default:
		return nil
	}
	in := gjson.ParseBytes(t.Input)
	if !in.IsObject() {
		return nil
	}
	v := &fileView{}
	abs := func(p string) string {
		if p == "" || filepath.IsAbs(p) || cwd == "" || strings.HasPrefix(p, "~") {
			return p
		}
		return filepath.Join(cwd, p)
	}
	if t.Name != event.ToolFileRead {
		for _, k := range patchKeys {
			if s := in.Get(k); s.Type == gjson.String && patch.IsEnvelope(s.Str) {
				v.fromPatch(s.Str, abs)
				v.converted = "a patch"
				return v
			}
		}
	}
	kv, renamed := canonicalKeys(in, t.Name, callerKeys)
	v.renamed = renamed
	path := abs(kv.str("file_path"))
	if path == "" {
		path = abs(t.FilePath)
	}
	if path != "" {
		kv.set("file_path", wire.Quote(path))
	}
	call := fileCall{tool: t.Name, path: path}
	switch {
	case t.Name == event.ToolFileRead:
	case kv.has("content"):
		call.tool = event.ToolFileWrite
	case kv.has("edits") && gjson.GetBytes(kv.get("edits"), "#").Int() > 0:
		edits := hunksOf(gjson.ParseBytes(kv.get("edits")))
		kv.del("edits")
		v.converted = "a list of edits"
		call.tool, call.multi = editTool(edits)
		setEdits(kv, edits, call.multi)
	case kv.has("replacements"):
		v.converted = "a list of replacements"
		v.fromReplacements(gjson.ParseBytes(kv.get("replacements")), abs)
		if len(v.calls) > 0 {
			return v
		}
	case kv.str("diff") != "" && patch.IsSearchReplace(kv.str("diff")):
		hunks, err := patch.SearchReplace(kv.str("diff"))
		if err != nil {
			v.notes = append(v.notes, "its diff could not be read ("+err.Error()+"): sent as it came")
			break
		}
		kv.del("diff")
		v.converted = "a diff"
		call.tool, call.multi = event.ToolFileEdit, len(hunks) > 1
		setEdits(kv, hunks, call.multi)
	case kv.has("old_string") || kv.has("new_string"):
		call.tool = event.ToolFileEdit
	}
	call.input = kv.object()
	v.calls = []fileCall{call}
	return v
}

// fromPatch reads an apply_patch text: an added file is a Write, an
// update an Edit (one hunk) or MultiEdit (several), a deleted file an
// Edit that says so.
func (v *fileView) fromPatch(text string, abs func(string) string) {
	p, err := patch.Parse(text)
	if err != nil {
		v.patchErr = err
		v.notes = append(v.notes, "its patch could not be read ("+err.Error()+"): the files it names are given without their changes")
	}
	for _, f := range p.Files {
		path := abs(f.Path)
		kv := &keyValues{}
		kv.set("file_path", wire.Quote(path))
		c := fileCall{tool: event.ToolFileEdit, path: path, op: f.Op}
		switch f.Op {
		case patch.Add:
			c.tool = event.ToolFileWrite
			kv.set("content", wire.Quote(f.Content))
		case patch.Delete:
			kv.set("hookshim_delete", []byte("true"))
			v.notes = append(v.notes, "a file deleted: given as an edit with hookshim_delete")
		case patch.Update:
			c.multi = len(f.Hunks) > 1
			setEdits(kv, f.Hunks, c.multi)
			if f.MoveTo != "" {
				kv.set("hookshim_move_to", wire.Quote(abs(f.MoveTo)))
				v.notes = append(v.notes, "a file moved: its new path in hookshim_move_to, and a call of its own for the new path, with hookshim_moved_from")
			}
		}
		c.input = kv.object()
		v.calls = append(v.calls, c)
		if f.Op == patch.Update && f.MoveTo != "" {
			// The new path is written too: a hook that guards paths
			// judges it.
			to := abs(f.MoveTo)
			kt := &keyValues{}
			kt.set("file_path", wire.Quote(to))
			setEdits(kt, f.Hunks, len(f.Hunks) > 1)
			kt.set("hookshim_moved_from", wire.Quote(path))
			tool := event.ToolFileEdit
			if kt.has("content") {
				tool = event.ToolFileWrite
			}
			v.calls = append(v.calls, fileCall{tool: tool, multi: len(f.Hunks) > 1, path: to, input: kt.object(), op: patch.Update})
		}
	}
	if err != nil {
		// The paths Parse did not reach: a hook that judges paths sees
		// them all.
		seen := map[string]bool{}
		for _, c := range v.calls {
			seen[c.path] = true
		}
		for _, p := range patch.Paths(text) {
			if p = abs(p); !seen[p] {
				seen[p] = true
				kv := &keyValues{}
				kv.set("file_path", wire.Quote(p))
				v.calls = append(v.calls, fileCall{tool: event.ToolFileEdit, path: p, input: kv.object()})
			}
		}
	}
}

// fromReplacements reads VS Code's multi_replace_string_in_file: a list of
// {filePath, oldString, newString}, one call per file.
func (v *fileView) fromReplacements(list gjson.Result, abs func(string) string) {
	if !list.IsArray() {
		return
	}
	var order []string
	byPath := map[string][]patch.Hunk{}
	list.ForEach(func(_, r gjson.Result) bool {
		kv, _ := canonicalKeys(r, event.ToolFileEdit, nil)
		p := abs(kv.str("file_path"))
		if _, ok := byPath[p]; !ok {
			order = append(order, p)
		}
		byPath[p] = append(byPath[p], patch.Hunk{Old: kv.str("old_string"), New: kv.str("new_string")})
		return true
	})
	for _, p := range order {
		kv := &keyValues{}
		kv.set("file_path", wire.Quote(p))
		c := fileCall{tool: event.ToolFileEdit, path: p, multi: len(byPath[p]) > 1}
		setEdits(kv, byPath[p], c.multi)
		c.input = kv.object()
		v.calls = append(v.calls, c)
	}
}

// hunksOf reads a list of edits, each in any tool's keys.
func hunksOf(list gjson.Result) []patch.Hunk {
	var out []patch.Hunk
	list.ForEach(func(_, e gjson.Result) bool {
		kv, _ := canonicalKeys(e, event.ToolFileEdit, nil)
		out = append(out, patch.Hunk{Old: kv.str("old_string"), New: kv.str("new_string")})
		return true
	})
	return out
}

// editTool is the tool that makes edits: one edit of nothing writes a
// new file (Windsurf's edits of a file it creates).
func editTool(edits []patch.Hunk) (tool string, multi bool) {
	if len(edits) == 1 && edits[0].Old == "" {
		return event.ToolFileWrite, false
	}
	return event.ToolFileEdit, len(edits) > 1
}

// setEdits puts hunks into kv: one as old_string and new_string (an
// empty old_string writes the file: content), several as edits.
func setEdits(kv *keyValues, hunks []patch.Hunk, multi bool) {
	switch {
	case multi:
		list := make([][]byte, len(hunks))
		for i, h := range hunks {
			list[i] = (&wire.Object{}).Str("old_string", h.Old).Str("new_string", h.New).Bytes()
		}
		kv.set("edits", jsonArray(list))
	case len(hunks) == 1 && hunks[0].Old == "":
		kv.set("content", wire.Quote(hunks[0].New))
	case len(hunks) == 1:
		kv.set("old_string", wire.Quote(hunks[0].Old))
		kv.set("new_string", wire.Quote(hunks[0].New))
	}
}

func jsonArray(items [][]byte) []byte {
	b := []byte{'['}
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, it...)
	}
	return append(b, ']')
}

// canonicalKeys renames an input object's keys to the canonical ones: by
// the caller's own table, then by provider.FileInputAliases where the
// canonical key is not there already. It returns the keys renamed.
func canonicalKeys(in gjson.Result, tool string, callerKeys provider.Renames) (*keyValues, provider.Renames) {
	var aliases provider.Renames
	for _, a := range provider.FileInputAliases {
		if a.Tool == tool {
			aliases = a.Keys
		}
	}
	kv := &keyValues{}
	var renamed provider.Renames
	in.ForEach(func(k, v gjson.Result) bool {
		kv.set(k.Str, []byte(v.Raw))
		return true
	})
	for i := range kv.keys {
		key := kv.keys[i]
		to, ok := callerKeys.Get(key)
		if !ok {
			to, ok = aliases.Get(key)
		}
		if ok && to != key && !kv.has(to) {
			kv.keys[i] = to
			renamed = append(renamed, provider.Rename{From: key, To: to})
		}
	}
	return kv, renamed
}

// keyValues is a JSON object's members in order, for a few renames and
// replacements before it is written.
type keyValues struct {
	keys []string
	vals [][]byte
}

func (kv *keyValues) index(k string) int {
	for i, key := range kv.keys {
		if key == k {
			return i
		}
	}
	return -1
}

func (kv *keyValues) has(k string) bool { return kv.index(k) >= 0 }

func (kv *keyValues) get(k string) []byte {
	if i := kv.index(k); i >= 0 {
		return kv.vals[i]
	}
	return nil
}

// str is a string member's value, "" for anything else.
func (kv *keyValues) str(k string) string {
	if v := gjson.ParseBytes(kv.get(k)); v.Type == gjson.String {
		return v.Str
	}
	return ""
}

func (kv *keyValues) set(k string, v []byte) {
	if i := kv.index(k); i >= 0 {
		kv.vals[i] = v
		return
	}
	kv.keys = append(kv.keys, k)
	kv.vals = append(kv.vals, v)
}

func (kv *keyValues) del(k string) {
	if i := kv.index(k); i >= 0 {
		kv.keys = append(kv.keys[:i], kv.keys[i+1:]...)
		kv.vals = append(kv.vals[:i], kv.vals[i+1:]...)
	}
}

func (kv *keyValues) object() *wire.Object {
	o := &wire.Object{}
	for i, k := range kv.keys {
		o.Raw(k, kv.vals[i])
	}
	return o
}

// spokenFile is a file call in the dialect's tool and keys: its tool name and
// input.
type spokenFile struct {
	name  string
	tool  event.Tool // the call as the dialect's tool, for its Finish
	input []byte
}

// speakFiles writes the view's calls in the dialect d: one call per file,
// or, for a dialect that writes every file through a patch, the one patch.
func speakFiles(d *provider.Provider, t *event.Tool, v *fileView) []spokenFile {
	dd := d.Dialect
	if dd.PatchTool != "" && t.Name != event.ToolFileRead {
		p := patch.Patch{}
		for _, c := range v.calls {
			if gjson.GetBytes(c.input.Bytes(), "hookshim_moved_from").Exists() {
				continue // the Move to of its source's file
			}
			p.Files = append(p.Files, asPatchFile(c))
		}
		in := (&wire.Object{}).Str(dd.PatchKey, patch.Format(p)).Bytes()
		tool := *t
		tool.Name, tool.Native, tool.Input, tool.FilePath = event.ToolFileEdit, dd.PatchTool, in, v.calls[0].path
		if v.converted == "" {
			v.converted = "a patch"
		}
		return []spokenFile{{name: dd.PatchTool, tool: tool, input: in}}
	}
	out := make([]spokenFile, 0, len(v.calls))
	for _, c := range v.calls {
		tool := *t
		tool.Name, tool.FilePath = c.tool, c.path
		if c.tool != t.Name || v.converted != "" {
			// The caller's own tool took another shape (its patch tool):
			// the dialect's tool for what the call does.
			tool.Native = ""
		}
		name, _ := ToolName(d, &tool)
		if c.multi && dd.MultiEdit != "" {
			name = dd.MultiEdit
		} else if c.multi {
			// No tool takes several edits: the dialect's edit tool gets
			// the first, and all of them in edits.
			first := gjson.GetBytes(c.input.Bytes(), "edits.0")
			kv, _ := canonicalKeys(gjson.ParseBytes(c.input.Bytes()), c.tool, nil)
			kv.set("old_string", wire.Quote(first.Get("old_string").Str))
			kv.set("new_string", wire.Quote(first.Get("new_string").Str))
			c.input = kv.object()
		}
		if name == "" {
			name = t.Native
		}
		tool.Native = name
		in := dialectKeys(c.input.Bytes(), dd.InputKeysFor(c.tool))
		tool.Input = in
		out = append(out, spokenFile{name: name, tool: tool, input: in})
	}
	return out
}

// asPatchFile is a file call as one file of a patch.
func asPatchFile(c fileCall) patch.File {
	in := gjson.ParseBytes(c.input.Bytes())
	f := patch.File{Op: c.op, Path: c.path}
	switch {
	case f.Op == patch.Delete:
	case in.Get("hookshim_move_to").Exists():
		f.Op, f.MoveTo = patch.Update, in.Get("hookshim_move_to").Str
	case c.tool == event.ToolFileWrite:
		f.Op, f.Content = patch.Add, in.Get("content").Str
	default:
		f.Op = patch.Update
	}
	if f.Op == patch.Update {
		if e := in.Get("edits"); e.IsArray() {
			f.Hunks = hunksOf(e)
		} else if in.Get("old_string").Exists() || in.Get("new_string").Exists() {
			f.Hunks = []patch.Hunk{{Old: in.Get("old_string").Str, New: in.Get("new_string").Str}}
		}
	}
	return f
}

// dialectKeys renames canonical keys to the dialect's, in the edits of a
// list too.
func dialectKeys(input []byte, to provider.Renames) []byte {
	if len(to) == 0 {
		return input
	}
	out := rekey(input, nil, to)
	if e := gjson.GetBytes(out, "edits"); e.IsArray() {
		var list [][]byte
		e.ForEach(func(_, x gjson.Result) bool {
			list = append(list, rekey([]byte(x.Raw), nil, to))
			return true
		})
		kv, _ := canonicalKeys(gjson.ParseBytes(out), "", nil)
		kv.set("edits", jsonArray(list))
		out = kv.object().Bytes()
	}
	return out
}

// ToolNames are the names a hook written for d is called with for t:
// ToolName's, and for a file tool call read into calls per file (a patch
// that adds one file and edits another), the name of each, once each. A
// hook registered for Write runs for a patch that adds a file.
func ToolNames(d *provider.Provider, t *event.Tool) []string {
	first, _ := ToolName(d, t)
	names := []string{first}
	if d.Dialect == nil {
		return names
	}
	if v := viewFiles(t, nil, ""); v != nil && len(v.calls) > 0 {
		names = names[:0]
		for _, s := range speakFiles(d, t, v) {
			if !slices.Contains(names, s.name) {
				names = append(names, s.name)
			}
		}
	}
	return names
}
