package trust

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/hookshim/hookshim/internal/config"
)

// What a script loads from beside it, when the interpreter is known. A
// script in a folder below the project root is pinned with its whole
// folder, neighbours included; one in the root itself is pinned alone,
// and the modules it imports from the root must be pinned by name. The
// scan is by pattern, not by parsing the language: it may pin a file the
// script never loads (harmless: a change of it is a change), and a module
// named at run time (importlib, a computed require) is not seen.
//
// The patterns are compiled when first used, not when hookshim starts:
// every hook call links this package, and only allow, trust and doctor
// read scripts. (A sync.Once, not sync.OnceValue, whose closures every
// process would allocate at start.)
func pythonImport() *regexp.Regexp {
	importsOnce.Do(compileImports)
	return pythonImportRE
}

func jsImport() *regexp.Regexp {
	importsOnce.Do(compileImports)
	return jsImportRE
}

var (
	importsOnce                sync.Once
	pythonImportRE, jsImportRE *regexp.Regexp
)

func compileImports() {
	// import a, b / from a import b / from a.b import c
	pythonImportRE = regexp.MustCompile(`(?m)^[ \t]*(?:from[ \t]+([A-Za-z_][A-Za-z0-9_]*)|import[ \t]+([A-Za-z_][A-Za-z0-9_]*(?:[ \t]*,[ \t]*[A-Za-z_][A-Za-z0-9_]*)*))`)
	// require('./x') / import … from './x' / import('./x')
	jsImportRE = regexp.MustCompile(`(?:require[ \t]*\(|from|import[ \t]*\(?)[ \t]*['"](\.\.?/[^'"\n]+)['"]`)
}

// maxImportDepth bounds how far imports of imports are followed.
const maxImportDepth = 3

// maxScan is how much of a script is read for its imports.
const maxScan = 1 << 20

// pythonModule is where a module imported by name lives beside the
// script: a file or a package folder.
func pythonModule(dir, name string) []string {
	return []string{filepath.Join(dir, name+".py"), filepath.Join(dir, name)}
}

// jsModule is where a relative import resolves, by Node's rules for
// files: as written, with an extension, or a folder's index.
func jsModule(dir, name string) []string {
	p := filepath.Join(dir, name)
	return []string{p, p + ".js", p + ".mjs", p + ".cjs", p + ".ts", filepath.Join(p, "index.js")}
}

// imports pins the modules the script at path loads from beside it, and
// theirs in turn.
func (p *pinner) imports(path string, pattern func() *regexp.Regexp, where func(dir, name string) []string, depth int) {
	if depth > maxImportDepth {
		return
	}
	b, err := config.ReadFileMax(path, maxScan)
	if err != nil {
		return
	}
	for _, m := range pattern().FindAllSubmatch(b, -1) {
		var names []string
		for _, g := range m[1:] {
			for _, n := range strings.Split(string(g), ",") {
				if n = strings.TrimSpace(n); n != "" {
					names = append(names, n)
				}
			}
		}
		for _, n := range names {
			for _, cand := range where(filepath.Dir(path), n) {
				st, err := os.Stat(cand)
				if err != nil {
					continue
				}
				if _, inside := p.resolve(cand, p.root); !inside {
					break
				}
				p.pin(cand, st.IsDir())
				if !st.IsDir() {
					p.imports(cand, pattern, where, depth+1)
				}
				break
			}
		}
	}
}

// scriptArg is the script an interpreter is given: its first argument
// that is not an option. (An option's value, `python -W x s.py`, is taken
// for the script: it names nothing, and nothing is pinned for it.)
func scriptArg(words []string) string {
	for _, w := range words[1:] {
		if w == "-m" || w == "-c" || w == "-e" || w == "--eval" {
			return ""
		}
		if !strings.HasPrefix(w, "-") {
			return w
		}
	}
	return ""
}
