package install

import (
	"fmt"
	"slices"

	"github.com/hookshim/hookshim/internal/provider"
	"github.com/tidwall/gjson"
)

// item is one hook entry found in a file.
type item struct {
	event string
	raw   string   // the entry as JSON, to compare with the wanted one
	cmds  []string // the command strings it holds
	loc   any      // where it is, for the layout's editor
	// ignored: under Format.Ignored, where the tool never reads it.
	ignored bool
}

// editor edits the entries of one file.
type editor interface {
	items() ([]item, error)
	add(event, entry string) error
	replace(it item, entry string) error
	remove(it item) error
	text() string
}

// jsonEditor edits the JSON layouts.
type jsonEditor struct {
	d *jdoc
	f *provider.Format
	// mayRemove says whether a container left empty by a removal may go
	// (nil: yes); see Env.mayRemove.
	mayRemove func(path) bool
}

func (e *jsonEditor) removable(key path) bool { return e.mayRemove == nil || e.mayRemove(key) }

func newJSONEditor(text string, f *provider.Format, fresh bool) (*jsonEditor, error) {
	if fresh {
		skel := f.Skeleton
		if skel == "" {
			skel = "{}"
		}
		d := &jdoc{unit: "  ", colon: ": ", nl: "\n"}
		text = d.render(skel, "", true) + "\n"
	}
	d, err := newJDoc(text)
	if err != nil {
		return nil, err
	}
	d.fresh = fresh
	return &jsonEditor{d: d, f: f}, nil
}

func (e *jsonEditor) text() string { return e.d.s }

var hooksKey = path{"hooks"}

// base is where the event map is: the hooks key, or the whole file.
func (e *jsonEditor) base() path {
	if e.f.TopLevel {
		return path{}
	}
	return hooksKey
}

// at is a path under the event map.
func (e *jsonEditor) at(elems ...any) path {
	return append(append(path{}, e.base()...), elems...)
}

func (e *jsonEditor) commands(raw gjson.Result) []string {
	var out []string
	for _, k := range commandKeys(e.f) {
		if v := raw.Get(k); v.Type == gjson.String {
			out = append(out, v.Str)
		}
	}
	return out
}

func (e *jsonEditor) items() ([]item, error) {
	hooks, ok := e.d.get(e.base())
	if !ok || hooks.Type == gjson.Null {
		return nil, nil
	}
	var out []item
	switch e.f.Layout {
	case provider.LayoutArray:
		if !hooks.IsArray() {
			return nil, fmt.Errorf("its hooks value is not an array")
		}
		i := 0
		hooks.ForEach(func(_, v gjson.Result) bool {
			out = append(out, item{event: v.Get(e.f.EventKey).String(), raw: v.Raw, cmds: e.commands(v), loc: e.at(i)})
			i++
			return true
		})
		return out, nil
	}
	if !hooks.IsObject() {
		return nil, fmt.Errorf("its hooks value is not an object")
	}
	out, err := e.eventMap(hooks, e.base(), false)
	if err != nil || e.f.Ignored == "" || !e.f.TopLevel {
		return out, err
	}
	at := path{e.f.Ignored}
	if old, ok := e.d.get(at); ok && old.IsObject() {
		more, err := e.eventMap(old, at, true)
		if err != nil {
			return nil, err
		}
		out = append(out, more...)
	}
	return out, nil
}

// eventMap lists the entries of the event map hooks, found at base.
func (e *jsonEditor) eventMap(hooks gjson.Result, base path, ignored bool) ([]item, error) {
	top := len(base) == 0
	under := func(elems ...any) path { return append(append(path{}, base...), elems...) }
	var out []item
	var err error
	hooks.ForEach(func(k, list gjson.Result) bool {
		event := k.String()
		if !list.IsArray() {
			if top || slices.Contains(e.f.Settings, event) {
				return true // not an event: some other setting
			}
			err = fmt.Errorf("%s is not an array", under(event))
			return false
		}
		i := 0
		list.ForEach(func(_, v gjson.Result) bool {
			switch e.f.Layout {
			case provider.LayoutGroups:
				if !v.IsObject() {
					err = fmt.Errorf("%s[%d] is not an object", under(event), i)
					return false
				}
				if hs := v.Get("hooks"); hs.Exists() {
					if !hs.IsArray() {
						err = fmt.Errorf("%s[%d].hooks is not an array", under(event), i)
						return false
					}
					j := 0
					hs.ForEach(func(_, h gjson.Result) bool {
						out = append(out, item{event: event, raw: h.Raw, cmds: e.commands(h), loc: under(event, i, "hooks", j), ignored: ignored})
						j++
						return true
					})
				}
			default:
				out = append(out, item{event: event, raw: v.Raw, cmds: e.commands(v), loc: under(event, i), ignored: ignored})
			}
			i++
			return true
		})
		return err == nil
	})
	return out, err
}

func (e *jsonEditor) add(event, entry string) error {
	if e.f.Layout == provider.LayoutArray {
		if _, ok := e.d.get(hooksKey); !ok {
			return e.d.set(hooksKey, "["+entry+"]")
		}
		return e.d.appendTo(hooksKey, entry)
	}
	if e.f.Layout == provider.LayoutGroups {
		entry = `{"hooks": [` + entry + `]}`
	}
	if _, ok := e.d.get(e.base()); !ok {
		return e.d.set(hooksKey, "{"+quoteJSON(event)+": ["+entry+"]}")
	}
	if _, ok := e.d.get(e.at(event)); !ok {
		return e.d.set(e.at(event), "["+entry+"]")
	}
	return e.d.appendTo(e.at(event), entry)
}

func (e *jsonEditor) replace(it item, entry string) error {
	return e.d.set(it.loc.(path), entry)
}

// remove deletes an entry, then the group that only held it, and the
// list and hooks key it leaves empty when install added them: an install
// followed by an uninstall gives the file back as it was.
func (e *jsonEditor) remove(it item) error {
	p := it.loc.(path)
	if err := e.d.remove(p); err != nil {
		return err
	}
	n := len(e.base())
	if it.ignored {
		n = 1
	}
	if e.f.Layout == provider.LayoutGroups {
		group := p[:n+2]
		if e.d.length(append(append(path{}, group...), "hooks")) == 0 {
			if err := e.d.remove(group); err != nil {
				return err
			}
		}
	}
	if e.f.Layout != provider.LayoutArray {
		if list := p[:n+1]; e.d.length(list) == 0 && e.removable(list) {
			if err := e.d.remove(list); err != nil {
				return err
			}
		}
	}
	if it.ignored {
		// A key the tool does not read, left empty: nothing of the
		// user's to keep.
		if list := p[:n+1]; e.d.length(list) == 0 {
			if err := e.d.remove(list); err != nil {
				return err
			}
		}
		if e.d.length(p[:n]) == 0 {
			return e.d.remove(p[:n])
		}
		return nil
	}
	if n > 0 && e.d.length(hooksKey) == 0 && e.removable(hooksKey) {
		return e.d.remove(hooksKey)
	}
	return nil
}

// isSkeleton reports whether text is no more than the file hookshim would
// start from: then a file left so by an uninstall is removed.
func isSkeleton(text string, f *provider.Format) bool {
	skel := f.Skeleton
	if skel == "" {
		skel = "{}"
	}
	return jsonEqual(text, skel)
}
