package install

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/hookshim/hookshim/internal/private"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/tailscale/hujson"
	"github.com/tidwall/gjson"
)

// What hookshim import (internal/importer) takes from install: the way a
// tool's config files are read, how hookshim's own entries are known, and
// the gentle editing and writing of JSON with comments. It reads the
// tools' files and writes .openhook.json; the rules are install's.

// IsHookshim reports whether a hook command runs hookshim's run command,
// for any tool: an entry install wrote, whatever its program's path.
func IsHookshim(cmd string) bool {
	_, ok := parseCall(cmd)
	return ok
}

// StandardJSON reads a JSON document with comments and trailing commas
// (JSONC, as Gemini CLI, Cursor and VS Code read it) as plain JSON.
func StandardJSON(text string) (gjson.Result, error) {
	if err := checkJSON(text); err != nil {
		return gjson.Result{}, err
	}
	return gjson.Parse(standard(text)), nil
}

// TOMLAsJSON reads a TOML document (TOML 1.1, as Codex and Kimi Code read
// it) as JSON, so that its hook tables are walked like a JSON file's.
func TOMLAsJSON(text string) (gjson.Result, error) {
	m, err := parseTOML(text)
	if err != nil {
		return gjson.Result{}, err
	}
	b, err := json.Marshal(m)
	if err != nil {
		return gjson.Result{}, err
	}
	return gjson.ParseBytes(b), nil
}

// JSONC is a JSON document (comments and trailing commas allowed) edited
// as text: what is not edited stays byte for byte, and new values are
// written in the file's own indentation.
type JSONC struct{ d *jdoc }

// EditJSONC starts editing text; empty text starts a new file from
// skeleton, a JSON object laid out on several lines.
func EditJSONC(text, skeleton string) (*JSONC, error) {
	fresh := text == ""
	if fresh {
		d := &jdoc{unit: "  ", colon: ": ", nl: "\n"}
		text = d.render(skeleton, "", true) + "\n"
	}
	d, err := newJDoc(text)
	if err != nil {
		return nil, err
	}
	d.fresh = fresh
	return &JSONC{d: d}, nil
}

// Get returns the top-level member key as plain JSON.
func (j *JSONC) Get(key string) (gjson.Result, bool) { return j.d.get(path{key}) }

// Append adds raw, a JSON value, at the end of the array that is the
// top-level member key, which is created when absent.
func (j *JSONC) Append(key, raw string) error {
	if _, ok := j.d.get(path{key}); !ok {
		return j.d.set(path{key}, "["+raw+"]")
	}
	return j.d.appendTo(path{key}, raw)
}

// AppendBefore is Append, but a key that is created goes before the
// top-level member next (when there is one), in its layout: "extends"
// before "hooks", where people write it.
func (j *JSONC) AppendBefore(key, raw, next string) error {
	if _, ok := j.d.get(path{key}); ok {
		return j.d.appendTo(path{key}, raw)
	}
	obj := j.d.root.Value.(*hujson.Object)
	i := memberIndex(obj, next)
	if i < 0 {
		return j.d.set(path{key}, "["+raw+"]")
	}
	j.d.insertBefore(obj, i, key, "["+raw+"]")
	return nil
}

// Set puts raw, a JSON value, at the path of object keys (string) and
// array indexes (int) at: it replaces the value there, or adds the key to
// the object that holds it.
func (j *JSONC) Set(raw string, at ...any) error {
	if len(at) == 0 {
		return errors.New("no path to set")
	}
	return j.d.set(path(at), raw)
}

// Text is the document as it is now.
func (j *JSONC) Text() string { return j.d.s }

// ChangedError is a file that changed between reading and writing.
type ChangedError struct{ Path string }

func (e *ChangedError) Error() string {
	return e.Path + " changed while hookshim was writing it: nothing was written"
}

// Write replaces the file at path, which held old (oldExists: it
// existed), with data: under the file's lock, keeping the previous
// version as a backup, atomically, through symbolic links, with mode for
// a new file. It returns the backup ("" when there was none).
func (env Env) Write(path string, old []byte, oldExists bool, data []byte, mode fs.FileMode) (string, error) {
	target, err := private.LinkTarget(path)
	if err != nil {
		return "", err
	}
	unlock, err := env.lock(realPath(path))
	if err != nil {
		return "", fmt.Errorf("cannot lock %s against another hookshim: %v", env.Display(path), err)
	}
	defer unlock()
	now, exists, err := readFile(target)
	if err != nil {
		return "", err
	}
	if exists != oldExists || now != string(old) {
		return "", &ChangedError{Path: env.Display(path)}
	}
	backup := ""
	if exists {
		if err := checkWritable(target, env.Display(path)); err != nil {
			return "", err
		}
		if backup, err = env.backup(target, old); err != nil {
			return "", fmt.Errorf("cannot keep a backup of %s, so it is left as it was: %v", path, err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return backup, err
	}
	return backup, private.WriteThrough(target, data, mode)
}

// Entry is one entry of f as install writes it, running command for the
// native event with timeout (in the format's unit): hookshim export
// writes a config's own commands in the tool's format with it.
func Entry(f *provider.Format, command, event string, timeout time.Duration) (string, error) {
	return entry(f, command, event, timeout, false)
}
