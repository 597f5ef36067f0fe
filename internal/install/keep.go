package install

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/private"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/rogpeppe/go-internal/lockedfile"
	"github.com/tidwall/gjson"
)

// What install created, so that uninstall takes away only that.
//
// A config file hookshim writes into may have existed before, empty or
// holding a "hooks": {} of the user's, or be a link into a dotfiles
// repository. Nothing in the file tells which, so install keeps a record
// per file, keyed by its real path, in the state folder
// ($XDG_STATE_HOME/hookshim/installed, the backups' sibling): whether the
// file existed, its content before hookshim's first write (while that can
// still be given back as it was), the keys install added, and a digest of
// what hookshim last wrote. Folders install created get a marker there too.
// Writes to one file hold a lock beside its record, so two installs at once
// neither lose an entry nor leave a half-written record.

// record is what install knows about one config file.
type record struct {
	Path    string `json:"path"`    // the file, links resolved
	Existed bool   `json:"existed"` // it existed before hookshim first wrote it
	// Original is the content before hookshim's first write. It is kept
	// (Restorable) only while it held nothing of hookshim's and every change
	// since was hookshim's: then uninstall gives exactly it back.
	Original   []byte `json:"original,omitempty"`
	Restorable bool   `json:"restorable,omitempty"`
	// Keys are the containers install added ("hooks", "hooks.EVENT"), as
	// paths; uninstall removes one only when it is listed and empty.
	Keys [][]string `json:"keys,omitempty"`
	// Written is the SHA-256 of what hookshim last wrote.
	Written string `json:"written"`
}

func digest(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// stateDir is hookshim's state folder: the backups' parent.
func (env Env) stateDir() string {
	b := env.BackupDir()
	if b == "" {
		return ""
	}
	return filepath.Dir(b)
}

// recordDir holds the records, the locks and the folder markers.
func (env Env) recordDir() string {
	d := env.stateDir()
	if d == "" {
		return ""
	}
	return filepath.Join(d, "installed")
}

// recordName is the file name for a path's record (a digest: paths can be
// longer than a file name may be).
func recordName(real string) string {
	return digest([]byte(real))[:32]
}

// realPath is p with every symbolic link resolved, as far as it exists:
// the file a record is about, whichever link it was reached through.
func realPath(p string) string {
	t, err := private.LinkTarget(p)
	if err != nil {
		t = p
	}
	if abs, err := filepath.Abs(t); err == nil {
		t = abs
	}
	// The part that exists, resolved, and the rest as it is: the same
	// key before install makes the folders and after.
	rest := ""
	for d := t; ; d = filepath.Dir(d) {
		if r, err := filepath.EvalSymlinks(d); err == nil {
			return filepath.Join(r, rest)
		}
		if filepath.Dir(d) == d {
			return t
		}
		rest = filepath.Join(filepath.Base(d), rest)
	}
}

// loadRecord reads the record of the file at real; nil when there is none.
func (env Env) loadRecord(real string) *record {
	dir := env.recordDir()
	if dir == "" {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(dir, recordName(real)+".json"))
	if err != nil {
		return nil
	}
	var r record
	if json.Unmarshal(b, &r) != nil || r.Path != real {
		return nil
	}
	return &r
}

func (env Env) saveRecord(r *record) error {
	dir := env.recordDir()
	if dir == "" {
		return errors.New("no home folder to keep install records in")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return private.WriteFile(filepath.Join(dir, recordName(r.Path)+".json"), append(b, '\n'), 0o600)
}

func (env Env) dropRecord(real string) {
	if dir := env.recordDir(); dir != "" {
		os.Remove(filepath.Join(dir, recordName(real)+".json"))
	}
}

// lock takes the lock of the file at real, waiting for another hookshim
// that holds it.
func (env Env) lock(real string) (func(), error) {
	dir := env.recordDir()
	if dir == "" {
		return nil, errors.New("no home folder to keep install records in")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	return lockedfile.MutexAt(filepath.Join(dir, recordName(real)+".lock")).Lock()
}

// has reports whether install added the container at key.
func (r *record) has(key path) bool {
	for _, k := range r.Keys {
		if len(k) == len(key) && hasPrefix(key, k) {
			return true
		}
	}
	return false
}

// mayRemove says whether uninstall may take away an emptied container of
// the file at real: one install added. A file without a record was
// written by a hookshim that kept none; there a container that held only
// hookshim's entries goes, as it always did.
func (env Env) mayRemove(real string) func(path) bool {
	rec := env.loadRecord(real)
	return func(key path) bool { return rec == nil || rec.has(key) }
}

// settle decides what uninstall leaves of a config file once hookshim's
// entries are out of text: the file as it was before install when nothing
// but hookshim changed it since, nothing when install created it and
// nothing else is left, else text. A file that existed before, or that is
// reached through a link, is never removed.
func (env Env) settle(c *Change, text string, empty bool) {
	if hookshimIn(text, c.Target.Format) {
		return // another tool's registration lives here too
	}
	rec := env.loadRecord(realPath(c.Path))
	if rec == nil || !c.OldExists {
		return
	}
	untouched := digest(c.Old) == rec.Written
	switch {
	case untouched && rec.Existed && rec.Restorable:
		c.New = rec.Original
	case !rec.Existed && (untouched || (empty && standard(text) == text)) && !isLink(c.Path):
		c.New, c.NewExists = nil, false
	}
}

func isLink(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

// hookshimIn reports whether text holds an entry that runs hookshim, for
// any tool.
func hookshimIn(text string, f *provider.Format) bool {
	ed, err := textEditor(text, f)
	if err != nil {
		return false
	}
	all, err := ed.items()
	if err != nil {
		return false
	}
	for _, it := range all {
		for _, c := range it.cmds {
			for _, p := range provider.All {
				if p.Install == nil {
					continue
				}
				if _, ok := ours(c, p); ok {
					return true
				}
			}
		}
	}
	return false
}

func textEditor(text string, f *provider.Format) (editor, error) {
	if f.Layout == provider.LayoutTOMLTables {
		return newTOMLEditor(text, f)
	}
	if strings.TrimSpace(text) == "" {
		return nil, errors.New("empty")
	}
	return newJSONEditor(text, f, false)
}

// containers are the keys of the containers of a JSON config: the hooks
// key and the event lists. ownOnly keeps those that hold entries and
// only hookshim's (for p).
func containers(text string, f *provider.Format, p *provider.Provider, ownOnly bool) [][]string {
	if f.Layout == provider.LayoutTOMLTables || strings.TrimSpace(text) == "" {
		return nil
	}
	e, err := newJSONEditor(text, f, false)
	if err != nil {
		return nil
	}
	all, err := e.items()
	if err != nil {
		return nil
	}
	var keys [][]string
	if !f.TopLevel {
		if _, ok := e.d.get(hooksKey); ok {
			keys = append(keys, []string{"hooks"})
		}
	}
	if f.Layout != provider.LayoutArray {
		if v, ok := e.d.get(e.base()); ok && v.IsObject() {
			v.ForEach(func(k, list gjson.Result) bool {
				if list.IsArray() {
					keys = append(keys, append(pathStrings(e.base()), k.String()))
				}
				return true
			})
		}
	}
	if !ownOnly {
		return keys
	}
	var out [][]string
	for _, k := range keys {
		n, mine := 0, 0
		for _, it := range all {
			loc := it.loc.(path)
			if !hasPrefix(loc, k) {
				continue
			}
			n++
			for _, c := range it.cmds {
				if _, ok := ours(c, p); ok {
					mine++
					break
				}
			}
		}
		if n > 0 && n == mine {
			out = append(out, k)
		}
	}
	return out
}

func pathStrings(p path) []string {
	var out []string
	for _, e := range p {
		out = append(out, fmt.Sprint(e))
	}
	return out
}

func hasPrefix(p path, k []string) bool {
	if len(p) < len(k) {
		return false
	}
	for i := range k {
		if s, ok := p[i].(string); !ok || s != k[i] {
			return false
		}
	}
	return true
}

func containsKey(keys [][]string, k []string) bool {
	return slices.ContainsFunc(keys, func(x []string) bool { return slices.Equal(x, k) })
}

// noteWrite updates the record of a config file hookshim just wrote (or
// removed): before and after are its content on either side.
func (env Env) noteWrite(c Change, real string, before []byte, beforeExists bool) error {
	f := c.Target.Format
	rec := env.loadRecord(real)
	if rec != nil && (!beforeExists || digest(before) != rec.Written) {
		// The file changed since hookshim last wrote it.
		if !beforeExists {
			rec = nil // removed: it starts anew
		} else {
			rec.Original, rec.Restorable = nil, false
		}
	}
	if rec == nil {
		rec = &record{Path: real, Existed: beforeExists}
		if beforeExists {
			if !hookshimIn(string(before), f) {
				rec.Original, rec.Restorable = before, true
			}
			// Lists that hold only hookshim's entries were made by a
			// hookshim before records were kept.
			rec.Keys = containers(string(before), f, c.Provider, true)
		}
	}
	if !c.NewExists || !hookshimIn(string(c.New), f) {
		env.dropRecord(real)
		return nil
	}
	now := containers(string(c.New), f, c.Provider, false)
	was := containers(string(before), f, c.Provider, false)
	var keys [][]string
	for _, k := range now {
		if containsKey(rec.Keys, k) || !containsKey(was, k) {
			keys = append(keys, k)
		}
	}
	rec.Keys = keys
	rec.Written = digest(c.New)
	return env.saveRecord(rec)
}

// Folders.

// mkdirs makes dir and its missing parents, and returns those it made,
// outermost first.
func mkdirs(dir string) ([]string, error) {
	var missing []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	slices.Reverse(missing)
	return missing, nil
}

func (env Env) dirMarker(dir string) string {
	d := env.recordDir()
	if d == "" {
		return ""
	}
	abs, _ := filepath.Abs(dir)
	return filepath.Join(d, recordName(abs)+".dir")
}

// markDirs remembers folders install made.
func (env Env) markDirs(dirs []string) error {
	for _, d := range dirs {
		m := env.dirMarker(d)
		if m == "" {
			return errors.New("no home folder to keep install records in")
		}
		if err := os.MkdirAll(filepath.Dir(m), 0o700); err != nil {
			return err
		}
		abs, _ := filepath.Abs(d)
		if err := private.WriteFile(m, []byte(abs+"\n"), 0o600); err != nil {
			return err
		}
	}
	return nil
}

// removeMadeDirs removes dir and its parents while install made them and
// they are empty: the folders an install created go with its files, and
// no other folder does.
func (env Env) removeMadeDirs(dir string) {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		m := env.dirMarker(d)
		if m == "" {
			return
		}
		if _, err := os.Stat(m); err != nil {
			return
		}
		fi, err := os.Lstat(d)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil || !fi.IsDir():
			os.Remove(m) // replaced by something else since: not install's
			return
		case os.Remove(d) != nil: // fails unless empty
			return
		}
		os.Remove(m)
		if filepath.Dir(d) == d {
			return
		}
	}
}

// ReadOnlyError is a file the user made read-only: hookshim does not
// write it.
type ReadOnlyError struct {
	Path string // as messages show it
	Abs  string // for the command that fixes it
}

func (e *ReadOnlyError) Error() string {
	return fmt.Sprintf("%s is read-only, so hookshim left it as it is; make it writable (chmod u+w %s) and run the command again", e.Path, e.Abs)
}

// checkWritable refuses a file without write permission: replacing it by
// a rename would work, but would go against what the user asked for.
func checkWritable(target, shown string) error {
	fi, err := os.Stat(target)
	if err != nil {
		return nil
	}
	abs, _ := filepath.Abs(target)
	if fi.Mode().Perm()&0o200 == 0 {
		return &ReadOnlyError{Path: shown, Abs: abs}
	}
	f, err := os.OpenFile(target, os.O_WRONLY, 0)
	if errors.Is(err, fs.ErrPermission) {
		return &ReadOnlyError{Path: shown, Abs: abs}
	}
	if err == nil {
		f.Close()
	}
	return nil
}
