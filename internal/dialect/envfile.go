package dialect

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/hookshim/hookshim/internal/shellquote"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// A hook's session variables come in one of two ways: lines a Claude Code
// hook appends to CLAUDE_ENV_FILE (`export NAME=value`, sourced by the
// tool before the session's later commands), or the object a Cursor
// sessionStart hook answers in env. Each caller takes one or the other,
// or neither, so one is written as the other.

// EnvOfExports reads the variables an env file's lines set (`export
// NAME=value` and `NAME=value`, values quoted and expanded as sh would,
// against environ) as a JSON object of strings. skipped names what could
// not be read without running it (a command substitution, a line that is
// no assignment); err is for a file that is not shell at all.
func EnvOfExports(b []byte, environ []string) (obj []byte, skipped []string, err error) {
	f, err := parseEnvFile(b)
	if err != nil {
		return nil, nil, err
	}
	env := expand.ListEnviron(environ...)
	vars := map[string]string{}
	var order []string
	cfg := &expand.Config{Env: funcEnv{env, vars}}
	skip := func(what string) { skipped = append(skipped, what) }
	assignments(f, func(as *syntax.Assign) {
		v := ""
		if as.Value != nil {
			s, err := expand.Literal(cfg, unescaped(as.Value))
			if err != nil {
				var unexpected expand.UnexpectedCommandError
				if errors.As(err, &unexpected) {
					skip(as.Name.Value + " (set by a command, not run)")
				} else {
					skip(fmt.Sprintf("%s (%v)", as.Name.Value, err))
				}
				return
			}
			v = s
		}
		if _, ok := vars[as.Name.Value]; !ok {
			order = append(order, as.Name.Value)
		}
		vars[as.Name.Value] = v
	}, skip)
	if len(order) == 0 {
		return nil, skipped, nil
	}
	o := &wire.Object{}
	for _, k := range order {
		o.Str(k, vars[k])
	}
	return o.Bytes(), skipped, nil
}

// ExportNames names the variables an env file's lines set, as
// EnvOfExports reads them, each once in the order first set, with those
// whose value only running the file would give; nil for none, or for a
// file that is not shell.
func ExportNames(b []byte) []string {
	f, err := parseEnvFile(b)
	if err != nil {
		return nil
	}
	var names []string
	assignments(f, func(as *syntax.Assign) {
		if !slices.Contains(names, as.Name.Value) {
			names = append(names, as.Name.Value)
		}
	}, func(string) {})
	return names
}

func parseEnvFile(b []byte) (*syntax.File, error) {
	return syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(bytes.NewReader(b), "")
}

// assignments calls set for each plain variable f's lines set (`export
// NAME=value`, `NAME=value`), in order, and skip for what else the file
// holds.
func assignments(f *syntax.File, set func(*syntax.Assign), skip func(what string)) {
	each := func(as *syntax.Assign) {
		if as.Name == nil || as.Array != nil || as.Index != nil || as.Append {
			skip("a line that sets no plain variable")
			return
		}
		set(as)
	}
	for _, st := range f.Stmts {
		switch c := st.Cmd.(type) {
		case *syntax.DeclClause:
			if c.Variant == nil || c.Variant.Value != "export" {
				skip("a line that exports nothing")
				continue
			}
			for _, as := range c.Args {
				if as.Naked {
					continue // export NAME: no value of its own
				}
				each(as)
			}
		case *syntax.CallExpr:
			if len(c.Args) > 0 {
				skip("a command line")
				continue
			}
			for _, as := range c.Assigns {
				each(as)
			}
		default:
			skip("a line that is no assignment")
		}
	}
}

// funcEnv is the process's variables with the file's own, set so far, on
// top (a line may read one an earlier line set: PATH=$PATH:…).
type funcEnv struct {
	base expand.Environ
	own  map[string]string
}

func (e funcEnv) Get(name string) expand.Variable {
	if v, ok := e.own[name]; ok {
		return expand.Variable{Set: true, Exported: true, Kind: expand.String, Str: v}
	}
	return e.base.Get(name)
}

func (e funcEnv) Each(f func(name string, vr expand.Variable) bool) {
	e.base.Each(f)
}

// ExportsOfEnv writes an env object's variables as `export NAME=value`
// lines, each value quoted for sh, in name order; nil for none.
func ExportsOfEnv(obj []byte) []byte {
	doc := gjson.ParseBytes(obj)
	if !doc.IsObject() {
		return nil
	}
	var lines []string
	doc.ForEach(func(k, v gjson.Result) bool {
		if syntax.ValidName(k.Str) {
			lines = append(lines, "export "+k.Str+"="+shellquote.Word(v.String()))
		}
		return true
	})
	if len(lines) == 0 {
		return nil
	}
	sort.Strings(lines)
	return []byte(strings.Join(lines, "\n") + "\n")
}

// unescaped is w with the backslashes of its unquoted text removed, as sh
// removes them (expand.Literal keeps them).
func unescaped(w *syntax.Word) *syntax.Word {
	out := &syntax.Word{Parts: make([]syntax.WordPart, len(w.Parts))}
	for i, p := range w.Parts {
		lit, ok := p.(*syntax.Lit)
		if !ok || !strings.Contains(lit.Value, "\\") {
			out.Parts[i] = p
			continue
		}
		var b strings.Builder
		for j := 0; j < len(lit.Value); j++ {
			c := lit.Value[j]
			if c == '\\' && j+1 < len(lit.Value) {
				j++
				if lit.Value[j] == '\n' {
					continue // a line continued
				}
				c = lit.Value[j]
			}
			b.WriteByte(c)
		}
		l := *lit
		l.Value = b.String()
		out.Parts[i] = &l
	}
	return out
}
