// Package install registers hookshim in each tool's native hook config,
// and takes it out again.
//
// What a tool reads, and what one entry looks like, is data in the
// provider table (provider.Install, in internal/provider/*_install.go);
// this package reads those files, finds hookshim's own entries and edits
// them. The rules it keeps:
//
//   - hookshim's entries are recognised by what they run (a program named
//     hookshim, with run --provider ID), never by position or by a marker
//     field a tool might strip, so a moved binary is replaced, not
//     duplicated;
//   - everything else in a file stays byte for byte: the file is edited as
//     text, in its own indentation, never decoded and re-encoded; install
//     then uninstall gives the original file back (or removes a file
//     install created), and takes away only what install added (keep.go);
//   - a file that does not parse is never written;
//   - writes are atomic (temporary file and rename, same mode, through
//     symbolic links) and the previous version is kept as a backup.
package install

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hookshim/hookshim/internal/provider"
)

// Env is what install needs from the machine.
type Env struct {
	Getenv  func(string) string
	Home    string // the user's home directory
	Project string // the project root
	Bin     string // user scope: the absolute path of the hookshim entries run
	Now     func() time.Time

	// ProjectBin is the hookshim project-scope entries run: empty for
	// hookshim from PATH, else a path inside the project, relative to its
	// root with / separators. Project files are committed: no path of this
	// machine goes into them.
	ProjectBin string

	// Handlers is the longest timeout of the handlers in the configs in
	// force: an entry registers at least that where the tool lets a hook
	// run that long (see raised), so that the tool does not stop hookshim
	// while a handler it may wait for still runs. Zero: the provider's.
	Handlers time.Duration
}

// Change is the planned new content of one file.
type Change struct {
	Provider  *provider.Provider
	Target    provider.Target
	Path      string
	Old, New  []byte
	OldExists bool
	NewExists bool
	Mode      fs.FileMode // for a file install creates
	Events    []string    // events registered once the change is made
}

// Changed reports whether the change writes or removes anything.
func (c Change) Changed() bool {
	return c.OldExists != c.NewExists || string(c.Old) != string(c.New)
}

// Registration is what a target holds of hookshim now.
type Registration struct {
	Provider *provider.Provider
	Target   provider.Target
	Path     string
	Exists   bool     // the file (folder) exists
	Events   []string // events hookshim is registered for
	Problems []string // why it is not what install would write; empty when current
	Bins     []string // the programs hookshim's entries run, as they name them

	// Ignored are the events of hookshim's entries that sit where the
	// tool does not read them: stale, whatever they run.
	Ignored []string

	// Unread are the events of other entries that sit where the tool does
	// not read them (provider.Format.Ignored), so they never run.
	Unread []string
}

// Current reports whether install would change nothing.
func (r Registration) Current() bool { return len(r.Events) > 0 && len(r.Problems) == 0 }

// Path is where a target's file is.
func (env Env) Path(t provider.Target) (string, error) { return env.pathOn(runtime.GOOS, t) }

// pathOn is Path on the system goos.
func (env Env) pathOn(goos string, t provider.Target) (string, error) {
	var dir string
	switch t.Scope {
	case provider.ScopeProject:
		if env.Project == "" {
			return "", errors.New("no project folder")
		}
		dir = filepath.Join(env.Project, t.Dir)
	default:
		if goos == "windows" && t.AppData != "" && env.Getenv != nil {
			if v := env.Getenv("APPDATA"); v != "" && filepath.IsAbs(v) {
				dir = filepath.Join(v, t.AppData)
			}
		}
		if dir == "" && t.DirEnv != "" && env.Getenv != nil {
			if v := env.Getenv(t.DirEnv); v != "" && filepath.IsAbs(v) {
				dir = filepath.Join(v, t.DirSub)
			}
		}
		if dir == "" {
			if env.Home == "" {
				return "", errors.New("HOME is not set: no user scope")
			}
			dir = filepath.Join(env.Home, t.Dir)
		}
	}
	return filepath.Join(dir, t.File), nil
}

// InHome reports whether the project folder is the user's home folder,
// whose tool folders (.claude/, .gemini/…) hold the user's own settings.
func (env Env) InHome() bool {
	if env.Project == "" || env.Home == "" {
		return false
	}
	p, err1 := filepath.EvalSymlinks(env.Project)
	h, err2 := filepath.EvalSymlinks(env.Home)
	if err1 != nil || err2 != nil {
		return filepath.Clean(env.Project) == filepath.Clean(env.Home)
	}
	return p == h
}

// Display is a path as messages show it: relative to the project, or
// under ~ for the home directory, whichever is closer.
func (env Env) Display(p string) string {
	best, out := -1, p
	for _, base := range []struct{ dir, prefix string }{{env.Project, ""}, {env.Home, "~/"}} {
		if base.dir == "" {
			continue
		}
		rel, err := filepath.Rel(base.dir, p)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		if len(base.dir) > best {
			best, out = len(base.dir), base.prefix+filepath.ToSlash(rel)
		}
	}
	return out
}

// Target returns p's target for scope, or nil.
func Target(p *provider.Provider, scope provider.Scope) *provider.Target {
	if p.Install == nil {
		return nil
	}
	for i := range p.Install.Targets {
		if p.Install.Targets[i].Scope == scope {
			return &p.Install.Targets[i]
		}
	}
	return nil
}

// Plan computes the changes that register p for events (nil: none, i.e.
// uninstall) at target t, and what t holds now.
func Plan(env Env, p *provider.Provider, t provider.Target, events []string) ([]Change, Registration, error) {
	path, err := env.Path(t)
	if err != nil {
		return nil, Registration{}, err
	}
	reg := Registration{Provider: p, Target: t, Path: path}
	if len(events) > 0 {
		prog, err := env.program(p, t, events[0])
		if err != nil {
			return nil, reg, err
		}
		if _, ok := ours(commandLine(prog, p, events[0], 0), p); !ok {
			return nil, reg, fmt.Errorf("entries would run %s, which install could not recognise as hookshim later: the program must be named hookshim", prog)
		}
	}
	switch t.Format.Layout {
	case provider.LayoutScriptPerEvent:
		return planScripts(env, p, t, path, events, reg)
	case provider.LayoutGenerated:
		return planGenerated(env, p, t, path, events, reg)
	}
	return planEdit(env, p, t, path, events, reg)
}

// command is the command line of p's entry for event at t.
func (env Env) command(p *provider.Provider, t provider.Target, event string) (string, error) {
	prog, err := env.program(p, t, event)
	if err != nil {
		return "", err
	}
	return commandLine(prog, p, event, env.raised(p, t, event)), nil
}

// wantBin is the program of the entry install writes, as parseCall reads
// it; empty when there is none.
func wantBin(env Env, p *provider.Provider, t provider.Target, event string) string {
	cmd, err := env.command(p, t, event)
	if err != nil {
		return ""
	}
	c, _ := parseCall(cmd)
	return c.Bin
}

// readFile reads a file, telling "absent" apart from failures.
func readFile(path string) (string, bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return string(b), true, nil
}

// want is the entry install writes for each event.
type want struct {
	events []string
	entry  map[string]string // event -> entry text
	cmp    map[string]string // event -> entry as JSON, for comparison
	bin    string            // the program entries run, as parseCall reads it
}

func wanted(env Env, p *provider.Provider, t provider.Target, events []string) (want, error) {
	w := want{events: events, entry: map[string]string{}, cmp: map[string]string{}}
	f := t.Format
	isTOML := f.Layout == provider.LayoutTOMLTables
	for _, ev := range events {
		cmd, err := env.command(p, t, ev)
		if err != nil {
			return w, err
		}
		if c, ok := parseCall(cmd); ok && w.bin == "" {
			w.bin = c.Bin
		}
		timeout := eventTimeout(p, ev)
		if r := env.raised(p, t, ev); r > 0 {
			timeout = r
		}
		e, err := entry(f, cmd, ev, timeout, isTOML)
		if err != nil {
			return w, fmt.Errorf("%s: %v", p.ID, err)
		}
		w.entry[ev] = e
		w.cmp[ev] = e
		if isTOML {
			w.cmp[ev] = tableJSON(e)
		}
	}
	return w, nil
}

func (w want) has(ev string) bool { _, ok := w.entry[ev]; return ok }

// planEdit plans the edit of a JSON or TOML config file.
func planEdit(env Env, p *provider.Provider, t provider.Target, path string, events []string, reg Registration) ([]Change, Registration, error) {
	old, exists, err := readFile(path)
	if err != nil {
		return nil, reg, err
	}
	reg.Exists = exists
	fresh := strings.TrimSpace(old) == ""
	isTOML := t.Format.Layout == provider.LayoutTOMLTables
	var ed editor
	if isTOML {
		ed, err = newTOMLEditor(old, t.Format)
	} else {
		je, jerr := newJSONEditor(old, t.Format, fresh)
		if jerr == nil {
			je.mayRemove = env.mayRemove(realPath(path))
		}
		ed, err = je, jerr
	}
	kind := "JSON"
	if isTOML {
		kind = "TOML"
	}
	if err == nil && !fresh && t.Format.Refuse != nil {
		err = t.Format.Refuse(old)
	}
	if err != nil {
		return nil, reg, &UnreadableError{Path: path, Kind: kind, Err: err}
	}
	w, err := wanted(env, p, t, events)
	if err != nil {
		return nil, reg, err
	}
	var unread []string
	mine := func() ([]item, error) {
		all, err := ed.items()
		if err != nil {
			return nil, &UnreadableError{Path: path, Kind: kind, Err: err}
		}
		var out []item
		unread = unread[:0]
	next:
		for _, it := range all {
			for _, c := range it.cmds {
				if _, ok := ours(c, p); ok {
					out = append(out, it)
					continue next
				}
			}
			if it.ignored && !slices.Contains(unread, it.event) {
				unread = append(unread, it.event)
			}
		}
		return out, nil
	}
	found, err := mine()
	if err != nil {
		return nil, reg, err
	}
	judge(&reg, p, found, w, events)
	reg.Unread = slices.Clone(unread)
	reg.Bins = binsOf(found, p)

	// One step at a time, re-reading the file after each: every edit
	// moves what follows it.
	for step := 0; ; step++ {
		if step > 1000 {
			return nil, reg, fmt.Errorf("%s: the edit does not settle (a bug in hookshim)", path)
		}
		found, err := mine()
		if err != nil {
			return nil, reg, err
		}
		done, err := nextEdit(ed, found, w)
		if err != nil {
			return nil, reg, fmt.Errorf("%s: %v", path, err)
		}
		if done {
			break
		}
	}
	text := ed.text()
	ch := Change{Provider: p, Target: t, Path: path, Old: []byte(old), OldExists: exists,
		New: []byte(text), NewExists: true, Mode: fileMode(t, 0o644), Events: events}
	if len(events) == 0 && !exists {
		// Uninstall from a file that is not there: nothing to give back,
		// and the skeleton a fresh editor starts from is not the user's.
		ch.New, ch.NewExists = nil, false
	} else if text == old {
		ch.New = ch.Old
		ch.NewExists = exists
		if !exists {
			ch.New = nil
		}
	} else if len(events) == 0 {
		// Nothing of hookshim's is left: give back what the user had.
		env.settle(&ch, text, (isTOML && strings.TrimSpace(text) == "") || (!isTOML && isSkeleton(text, t.Format)))
	}
	if ch.NewExists {
		if isTOML {
			err = checkTOML(text)
		} else {
			err = checkJSON(text)
		}
		if err != nil {
			return nil, reg, fmt.Errorf("%s: hookshim made invalid %s (a bug): %v", path, kind, err)
		}
	}
	return []Change{ch}, reg, nil
}

// nextEdit makes the first edit still needed; done when there is none.
func nextEdit(ed editor, found []item, w want) (bool, error) {
	byEvent := map[string][]item{}
	for i := len(found) - 1; i >= 0; i-- {
		// Entries the tool never reads go first: rewriting them in place
		// would keep them dead.
		if found[i].ignored {
			return false, ed.remove(found[i])
		}
	}
	for _, it := range found {
		byEvent[it.event] = append(byEvent[it.event], it)
	}
	for _, ev := range w.events {
		its := byEvent[ev]
		switch {
		case len(its) == 0:
			return false, ed.add(ev, w.entry[ev])
		case !jsonEqual(its[0].raw, w.cmp[ev]):
			return false, ed.replace(its[0], w.entry[ev])
		case len(its) > 1:
			return false, ed.remove(its[len(its)-1])
		}
	}
	for i := len(found) - 1; i >= 0; i-- {
		if !w.has(found[i].event) {
			return false, ed.remove(found[i])
		}
	}
	return true, nil
}

// judge describes how far what a file holds is from what install writes.
func judge(reg *Registration, p *provider.Provider, found []item, w want, events []string) {
	byEvent := map[string][]item{}
	var order, ignored []string
	for _, it := range found {
		if it.ignored {
			if !slices.Contains(ignored, it.event) {
				ignored = append(ignored, it.event)
			}
			continue
		}
		if len(byEvent[it.event]) == 0 {
			order = append(order, it.event)
		}
		byEvent[it.event] = append(byEvent[it.event], it)
	}
	reg.Events = order
	var missing, extra, dup []string
	stale := map[string][]string{} // reason -> events
	var reasons []string
	for _, ev := range events {
		its := byEvent[ev]
		switch {
		case len(its) == 0:
			missing = append(missing, ev)
			continue
		case len(its) > 1:
			dup = append(dup, ev)
		}
		if !jsonEqual(its[0].raw, w.cmp[ev]) {
			r := staleReason(its[0].cmds, p, reg.Target, w.bin)
			if _, seen := stale[r]; !seen {
				reasons = append(reasons, r)
			}
			stale[r] = append(stale[r], ev)
		}
	}
	for _, ev := range order {
		if !w.has(ev) {
			extra = append(extra, ev)
		}
	}
	if len(missing) > 0 && len(order) > 0 {
		reg.Problems = append(reg.Problems, "not registered for "+strings.Join(missing, ", "))
	} else if len(missing) > 0 {
		reg.Problems = append(reg.Problems, "not installed")
	}
	for _, r := range reasons {
		reg.Problems = append(reg.Problems, r+" ("+strings.Join(stale[r], ", ")+")")
	}
	if len(dup) > 0 {
		reg.Problems = append(reg.Problems, "registered more than once for "+strings.Join(dup, ", "))
	}
	if len(extra) > 0 {
		reg.Problems = append(reg.Problems, "registered for events install no longer writes: "+strings.Join(extra, ", "))
	}
	reg.Ignored = ignored
	if len(ignored) > 0 {
		reg.Problems = append(reg.Problems, fmt.Sprintf("has entries under %q, which %s does not read, so they never run (%s)",
			reg.Target.Format.Ignored, p.Name, strings.Join(ignored, ", ")))
	}
}

// staleReason says why an entry (its command strings) differs from the
// wanted one, whose program is want.
func staleReason(cmds []string, p *provider.Provider, t provider.Target, want string) string {
	for _, c := range cmds {
		call, ok := ours(c, p)
		if !ok {
			continue
		}
		bin := call.Bin
		switch {
		case bin == want:
			return "runs " + bin + " with other options"
		case t.Scope == provider.ScopeProject && filepath.IsAbs(bin):
			// What versions before project-relative entries wrote.
			return "runs " + bin + ", a path on this machine only: teammates' tools cannot find it"
		case !strings.Contains(bin, "/"):
			return "runs " + bin + " from PATH, not " + describeBin(want)
		case !filepath.IsAbs(bin):
			return "runs " + bin + ", not " + describeBin(want)
		}
		if _, err := os.Stat(bin); err != nil {
			return "runs " + bin + ", which does not exist"
		}
		return "runs " + bin + " (another hookshim), not " + describeBin(want)
	}
	return "differs from what install writes"
}

// describeBin names a wanted program in a message.
func describeBin(bin string) string {
	switch {
	case bin == "":
		return "what install writes"
	case !strings.Contains(bin, "/"):
		return bin + " from PATH"
	case filepath.IsAbs(bin):
		return "this hookshim (" + bin + ")"
	}
	return bin
}

// binsOf are the programs of hookshim's entries among items, each once.
func binsOf(items []item, p *provider.Provider) []string {
	var out []string
	for _, it := range items {
		for _, c := range it.cmds {
			if call, ok := ours(c, p); ok && !slices.Contains(out, call.Bin) {
				out = append(out, call.Bin)
			}
		}
	}
	return out
}

// UnreadableError is a file hookshim will not touch because it cannot
// read it.
type UnreadableError struct {
	Path string
	Kind string
	Err  error
}

func (e *UnreadableError) Error() string {
	return fmt.Sprintf("%s is not valid %s hookshim can edit: %v", e.Path, e.Kind, e.Err)
}

func fileMode(t provider.Target, def fs.FileMode) fs.FileMode {
	if t.Mode != 0 {
		return t.Mode
	}
	return def
}

// planScripts plans the executables of LayoutScriptPerEvent.
func planScripts(env Env, p *provider.Provider, t provider.Target, dir string, events []string, reg Registration) ([]Change, Registration, error) {
	if fi, err := os.Stat(dir); err == nil {
		reg.Exists = fi.IsDir()
	}
	wantSet := map[string]bool{}
	for _, ev := range events {
		wantSet[ev] = true
	}
	// Every event file that is hookshim's, wanted or not.
	var changes []Change
	var missing, stale []string
	names := map[string]bool{}
	for _, ev := range events {
		names[ev] = true
	}
	for _, s := range p.Events {
		names[s.Native] = true
	}
	var sorted []string
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	file := func(ev string) string {
		if f, ok := p.Install.Files.Get(ev); ok {
			return f
		}
		return ev
	}
	for _, ev := range sorted {
		path := filepath.Join(dir, file(ev))
		old, exists, err := readFile(path)
		if err != nil {
			return nil, reg, err
		}
		mine := exists && strings.Contains(old, t.Format.Marker)
		if exists && !mine {
			if wantSet[ev] {
				return nil, reg, &ConflictError{Path: path}
			}
			continue
		}
		ch := Change{Provider: p, Target: t, Path: path, Old: []byte(old), OldExists: exists,
			Mode: fileMode(t, 0o755), Events: events}
		if mine {
			reg.Events = append(reg.Events, ev)
		}
		if mine {
			for _, b := range binsOf([]item{{cmds: quotedStrings(old)}}, p) {
				if !slices.Contains(reg.Bins, b) {
					reg.Bins = append(reg.Bins, b)
				}
			}
		}
		if wantSet[ev] {
			cmd, err := env.command(p, t, ev)
			if err != nil {
				return nil, reg, err
			}
			ch.New, ch.NewExists = t.Format.Script(cmd), true
			switch {
			case !exists:
				missing = append(missing, ev)
			case old != string(ch.New):
				stale = append(stale, ev)
			}
		} else if mine {
			reg.Problems = append(reg.Problems, "registered for an event install no longer writes: "+ev)
		}
		if !exists && !ch.NewExists {
			continue
		}
		changes = append(changes, ch)
	}
	if len(missing) > 0 {
		if len(reg.Events) == 0 {
			reg.Problems = append([]string{"not installed"}, reg.Problems...)
		} else {
			reg.Problems = append(reg.Problems, "not registered for "+strings.Join(missing, ", "))
		}
	}
	if len(stale) > 0 {
		old, _, _ := readFile(filepath.Join(dir, file(stale[0])))
		reg.Problems = append(reg.Problems, staleReason(quotedStrings(old), p, t, wantBin(env, p, t, stale[0]))+" ("+strings.Join(stale, ", ")+")")
	}
	return alsoRead(env, p, t, dir, sorted, file, events, changes, reg)
}

// Twice starts the problem of a registration that the tool runs twice
// per event: doctor reports it as a duplicate.
const Twice = "registered twice"

// alsoRead finds hookshim's own scripts in the folder the tool also reads
// (Target.AlsoRead): install and uninstall take them away, since the
// tool runs every copy, and the registration reports them.
func alsoRead(env Env, p *provider.Provider, t provider.Target, dir string, names []string, file func(string) string,
	events []string, changes []Change, reg Registration) ([]Change, Registration, error) {
	if t.AlsoRead == "" {
		return changes, reg, nil
	}
	base := env.Home
	if t.Scope == provider.ScopeProject {
		base = env.Project
	}
	if base == "" {
		return changes, reg, nil
	}
	other := filepath.Join(base, t.AlsoRead)
	var twice, only []string
	for _, ev := range names {
		path := filepath.Join(other, file(ev))
		old, exists, err := readFile(path)
		if err != nil {
			return nil, reg, err
		}
		if !exists || !strings.Contains(old, t.Format.Marker) {
			continue // not hookshim's: the user's own script stays
		}
		changes = append(changes, Change{Provider: p, Target: t, Path: path, Old: []byte(old), OldExists: true,
			Mode: fileMode(t, 0o755), Events: events})
		if slices.Contains(reg.Events, ev) {
			twice = append(twice, ev)
		} else {
			only = append(only, ev)
		}
	}
	if len(twice) > 0 {
		reg.Problems = append(reg.Problems, fmt.Sprintf("%s, in %s and in %s (%s): %s runs every copy, so it calls hookshim twice per event",
			Twice, env.Display(dir), env.Display(other), strings.Join(twice, ", "), p.Name))
	}
	if len(only) > 0 {
		reg.Events = append(reg.Events, only...)
		sort.Strings(reg.Events)
		reg.Problems = append(reg.Problems, fmt.Sprintf("registered in %s (%s), which only some %s versions read: install moves it to %s",
			env.Display(other), strings.Join(only, ", "), p.Name, env.Display(dir)))
	}
	return changes, reg, nil
}

// planGenerated plans the file of LayoutGenerated.
func planGenerated(env Env, p *provider.Provider, t provider.Target, path string, events []string, reg Registration) ([]Change, Registration, error) {
	old, exists, err := readFile(path)
	if err != nil {
		return nil, reg, err
	}
	reg.Exists = exists
	mine := exists && strings.Contains(old, t.Format.Marker)
	if exists && !mine {
		if len(events) > 0 {
			return nil, reg, &ConflictError{Path: path}
		}
		return nil, reg, nil
	}
	ch := Change{Provider: p, Target: t, Path: path, Old: []byte(old), OldExists: exists, Mode: fileMode(t, 0o644), Events: events}
	if len(events) > 0 {
		cmd, err := env.command(p, t, "")
		if err != nil {
			return nil, reg, err
		}
		ch.New, ch.NewExists = t.Format.Render(cmd), true
	}
	if mine {
		reg.Bins = binsOf([]item{{cmds: quotedStrings(old)}}, p)
		reg.Events = events
		if len(events) == 0 {
			reg.Events = []string{"all"}
		}
		if ch.NewExists && string(ch.New) != old {
			reg.Problems = append(reg.Problems, staleReason(quotedStrings(old), p, t, wantBin(env, p, t, ""))+" (the generated file)")
		}
	} else if len(events) > 0 {
		reg.Problems = append(reg.Problems, "not installed")
	}
	if !exists && !ch.NewExists {
		return nil, reg, nil
	}
	return []Change{ch}, reg, nil
}

// ConflictError is a file in hookshim's way that is not hookshim's.
type ConflictError struct{ Path string }

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%s exists and is not hookshim's: hookshim will not overwrite it", e.Path)
}

// quotedStrings are the double-quoted strings of a generated file, and its
// lines: where a command hides in code.
func quotedStrings(text string) []string {
	var out []string
	for _, m := range quotedRE().FindAllString(text, -1) {
		var v string
		if json.Unmarshal([]byte(m), &v) == nil {
			out = append(out, v)
		}
	}
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, "exec "); i >= 0 {
			out = append(out, strings.TrimSpace(line[i+5:]))
		}
	}
	return out
}

// quotedRE is compiled on first use (see destructive in internal/simulate).
func quotedRE() *regexp.Regexp {
	quotedOnce.Do(func() { quoted = regexp.MustCompile(`"(?:[^"\\\n]|\\.)*"`) })
	return quoted
}

var (
	quotedOnce sync.Once
	quoted     *regexp.Regexp
)
