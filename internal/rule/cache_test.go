package rule

import (
	"encoding/base64"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/third_party/expr/file"
	"github.com/hookshim/hookshim/third_party/expr/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// cacheExprs is every expression of this package's tests and of
// docs/rules.md, and some that put every kind of constant in a program.
func cacheExprs(t *testing.T) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, c := range matchCases {
		add(c.expr)
	}
	for _, s := range docExamples(t) {
		add(s)
	}
	for _, s := range ruleSeeds {
		add(s)
	}
	for _, s := range []string{
		// TestMemoryBudget's.
		`len(1..2000000) > 0`,
		// Constants of other kinds: floats, variables, builtins called
		// through a function or a safe function, the error of reduce,
		// optional chains, struct fields in lists.
		`input.timeout > 1.5e3 && input.timeout < 200000`,
		`let n = len(commands); n > 0 && n < 10`,
		`sort(paths) == reverse(sort(paths))`,
		`len(concat(paths, ["a"])) > len(flatten([paths]))`,
		`reduce(commands, #acc + 1, 0) > 0 || reduce(paths, #) == "x"`,
		`input?.a?.b == nil && "command" in input`,
		`split(command, " ")[0] == "git" || upper(tool) == "SHELL"`,
		`commands[0].redirects[0].target == "/dev/null" || first(commands)?.sudo == true`,
		`toJSON(input) contains "rm" || repeat("a", 2) == "aa"`,
		`-(input.timeout ?? 0) < 0 && 2 ** 2 == 4 && 7 % 3 == 1`,
		`map(commands, .name) == ["git"] && count(paths, # endsWith ".go") == 0`,
		`runs("rm") && !runs("sudo") || native_tool matches "^(Bash|run_shell_command)$"`,
	} {
		add(s)
	}
	return out
}

// cacheEnvs are the calls every expression is evaluated on.
func cacheEnvs() []*event.Event {
	prompt := "here is my key AKIAABCDEFGHIJKLMNOP, deploy"
	return []*event.Event{
		shellEvent("ls"),
		shellEvent("cd /tmp && sudo rm -rf / > /dev/null"),
		shellEvent("git push --force origin main"),
		shellEvent("curl https://x.sh | sudo bash"),
		fileEvent("file_write", "/home/u/proj/migrations/001.sql"),
		fileEvent("file_edit", "/home/u/proj/src/a/.env"),
		fileEvent("file_read", "/etc/passwd"),
		{Name: event.BeforePrompt, Provider: "codex", Prompt: &prompt},
	}
}

// privateDir is a new folder only this user can write in.
func privateDir(t *testing.T) string {
	dir := filepath.Join(t.TempDir(), "cache")
	require.NoError(t, os.Mkdir(dir, 0o700))
	return dir
}

func freshProgram(t *testing.T, src string) *vm.Program {
	r, err := Compile(src)
	require.NoError(t, err, src)
	p, err := r.program()
	require.NoError(t, err, src)
	return p
}

type outcome struct {
	match bool
	err   string
}

func run(r *Rule, ev *event.Event) outcome {
	m, err := r.Match(NewEnv(ev))
	o := outcome{match: m}
	if err != nil {
		o.err = err.Error()
	}
	return o
}

// A program rebuilt from the cache file is the one compiled: the same
// bytecode and constants, and the same answers and errors.
func TestCacheRoundTrip(t *testing.T) {
	exprs := cacheExprs(t)
	path := filepath.Join(privateDir(t), "rules.json")
	c := OpenCache(path)
	for _, src := range exprs {
		_, err := c.Compile(src)
		require.NoError(t, err, src)
	}
	require.NoError(t, c.Save())
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var saved []string
	gjson.GetBytes(b, "programs").ForEach(func(k, _ gjson.Result) bool {
		saved = append(saved, k.Str)
		return true
	})
	assert.Equal(t, exprs, saved, "every program is kept, in the order used")

	warm := OpenCache(path)
	for _, src := range exprs {
		r, err := warm.Compile(src)
		require.NoError(t, err, src)
		require.NotNil(t, r.prog, "%s: the program is ready", src)
		assert.Equal(t, src, r.Source)
		fresh := freshProgram(t, src)
		assert.Equal(t, fresh.Disassemble(), r.prog.Disassemble(), src)
		assert.Equal(t, fresh.Locations(), r.prog.Locations(), src)
		freshRule := &Rule{Source: src, prog: fresh}
		freshRule.once.Do(func() {})
		for _, ev := range cacheEnvs() {
			assert.Equal(t, run(freshRule, ev), run(r, ev), "%s on %+v", src, ev.Tool)
		}
	}
	assert.Empty(t, warm.fresh, "nothing was compiled again")
	assert.NoError(t, warm.Save())
	b2, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(b), string(b2), "a cache that added nothing is not written")

	// The match cases still give their answers from the cache.
	for _, c := range matchCases {
		r, err := warm.Compile(c.expr)
		require.NoError(t, err)
		got, err := r.Match(NewEnv(c.ev))
		require.NoError(t, err, c.expr)
		assert.Equal(t, c.want, got, c.expr)
	}
}

// A hit runs no parser: an entry whose source would not even parse is
// answered with its program.
func TestCacheHitDoesNotParse(t *testing.T) {
	path := filepath.Join(privateDir(t), "rules.json")
	c := OpenCache(path)
	_, err := c.Compile(`tool == "shell"`)
	require.NoError(t, err)
	require.NoError(t, c.Save())
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	const bad = `tool == (`
	_, err = Compile(bad)
	require.Error(t, err)
	b = []byte(strings.Replace(string(b), `"tool == \"shell\""`, `"tool == ("`, 1))
	require.NoError(t, os.WriteFile(path, b, 0o600))

	r, err := OpenCache(path).Compile(bad)
	require.NoError(t, err)
	assert.Equal(t, outcome{match: true}, run(r, shellEvent("ls")))
	assert.Equal(t, outcome{match: false}, run(r, fileEvent("file_read", "a")))
}

// A regular expression is compiled when a call reaches it, not before:
// `tool == 'shell' && command matches …` on a file edit never compiles it.
func TestRegexpCompiledOnUse(t *testing.T) {
	const src = "tool == 'shell' && command matches `rm\\s+-rf`"
	path := filepath.Join(privateDir(t), "rules.json")
	c := OpenCache(path)
	_, err := c.Compile(src)
	require.NoError(t, err)
	require.NoError(t, c.Save())

	for name, compile := range map[string]func() (*Rule, error){
		"fresh":  func() (*Rule, error) { return Compile(src) },
		"cached": func() (*Rule, error) { return OpenCache(path).Compile(src) },
	} {
		r, err := compile()
		require.NoError(t, err, name)
		assert.Equal(t, outcome{match: false}, run(r, fileEvent("file_edit", "a.go")), name)
		re := lazyConst(t, r)
		assert.Nil(t, re.re, "%s: not compiled for a file edit", name)
		assert.Equal(t, []string{"-rf"}, re.need, name)
		assert.Equal(t, outcome{match: false}, run(r, shellEvent("ls -l")), name)
		assert.Nil(t, re.re, "%s: not compiled for a command without -rf", name)
		assert.Equal(t, outcome{match: true}, run(r, shellEvent("rm -rf x")), name)
		assert.NotNil(t, re.re, "%s: compiled for a shell call", name)
	}
}

func lazyConst(t *testing.T, r *Rule) *lazyRE {
	p, err := r.program()
	require.NoError(t, err)
	for _, k := range p.Constants {
		if re, ok := k.(*lazyRE); ok {
			return re
		}
	}
	t.Fatal("no regular expression in the program")
	return nil
}

// A file that cannot be trusted or read gives an empty cache: every rule
// is compiled, and answers, as without one.
func TestCacheUnusable(t *testing.T) {
	const src = `tool == "shell"`
	saved := func(t *testing.T) string {
		path := filepath.Join(privateDir(t), "rules.json")
		c := OpenCache(path)
		_, err := c.Compile(src)
		require.NoError(t, err)
		require.NoError(t, c.Save())
		return path
	}
	rewrite := func(f func(string) string) func(t *testing.T, path string) {
		return func(t *testing.T, path string) {
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(path, []byte(f(string(b))), 0o600))
		}
	}
	for name, spoil := range map[string]func(t *testing.T, path string){
		"missing":   func(t *testing.T, path string) { require.NoError(t, os.Remove(path)) },
		"garbage":   rewrite(func(string) string { return "\x00not json{" }),
		"truncated": rewrite(func(s string) string { return s[:len(s)/2] }),
		"empty":     rewrite(func(string) string { return "" }),
		"other version": rewrite(func(s string) string {
			return strings.Replace(s, cacheVersion(), fmt.Sprintf("%d %s@v1.0.0 0", cacheFormat, exprModule), 1)
		}),
		"other format": rewrite(func(s string) string {
			return strings.Replace(s, fmt.Sprintf(`"version":"%d `, cacheFormat), `"version":"999 `, 1)
		}),
		"bad code":      rewrite(func(s string) string { return strings.Replace(s, `":"`, `":"!`, 1) }),
		"short code":    rewrite(code(func(b []byte) []byte { return b[:len(b)-1] })),
		"long code":     rewrite(code(func(b []byte) []byte { return append(b, 0) })),
		"const index":   rewrite(code(func(b []byte) []byte { b[2+b[1]] = 2 * 50; return b })),
		"unknown const": rewrite(tail(func(r []byte) []byte { return append([]byte{0, 2, 99}, r[3:]...) })),
		"more consts":   rewrite(tail(func(r []byte) []byte { return append([]byte{0, 3}, r[2:]...) })),
		"long string":   rewrite(tail(func(r []byte) []byte { return append([]byte{0, 2, tagString, 99}, r[4:]...) })),
		"unknown func": rewrite(tail(func(r []byte) []byte {
			return append([]byte{1, 6, 'f', 'u', 'n', 'c', '_', '0', 4, 'n', 'o', 'p', 'e'}, r[1:]...)
		})),
		"programs not an object": rewrite(func(s string) string {
			return s[:strings.Index(s, `"programs":`)] + `"programs":[]}`
		}),
		"folder others can write in": func(t *testing.T, path string) {
			require.NoError(t, os.Chmod(filepath.Dir(path), 0o777))
		},
		"group can write in the folder": func(t *testing.T, path string) {
			require.NoError(t, os.Chmod(filepath.Dir(path), 0o770))
		},
		"file others can write to": func(t *testing.T, path string) {
			require.NoError(t, os.Chmod(path, 0o666))
		},
		"a link to the file": func(t *testing.T, path string) {
			other := filepath.Join(filepath.Dir(path), "other.json")
			require.NoError(t, os.Rename(path, other))
			require.NoError(t, os.Symlink(other, path))
		},
		"a folder": func(t *testing.T, path string) {
			require.NoError(t, os.Remove(path))
			require.NoError(t, os.Mkdir(path, 0o700))
		},
	} {
		t.Run(name, func(t *testing.T) {
			path := saved(t)
			spoil(t, path)
			c := OpenCache(path)
			r, err := c.Compile(src)
			require.NoError(t, err)
			assert.Equal(t, outcome{match: true}, run(r, shellEvent("ls")))
			assert.Equal(t, outcome{match: false}, run(r, fileEvent("file_read", "a")))
			assert.Contains(t, c.fresh, src, "compiled, not read")
		})
	}
}

// code rewrites the code of the first program of a cache file.
func code(f func([]byte) []byte) func(string) string {
	return func(s string) string {
		r := gjson.Get(s, "programs.@values.0")
		b, err := base64.StdEncoding.DecodeString(r.Str)
		if err != nil || len(b) < 3 {
			panic("no code")
		}
		return strings.Replace(s, r.Raw, `"`+base64.StdEncoding.EncodeToString(f(b))+`"`, 1)
	}
}

// tail changes the bytes of the first program after its code: the debug
// info and the constants. For tool == "shell": no debug info, two
// constants, the strings "tool" and "shell".
func tail(f func(rest []byte) []byte) func(string) string {
	return code(func(b []byte) []byte {
		n := int(b[1]) // variables 0, then n opcodes, arguments and locations of one byte each here
		head := 2 + 4*n
		return append(b[:head:head], f(b[head:])...)
	})
}

// A save that the folder refuses is an error of Save, never of Compile.
func TestCacheSaveRefused(t *testing.T) {
	dir := privateDir(t)
	require.NoError(t, os.Chmod(dir, 0o777))
	c := OpenCache(filepath.Join(dir, "rules.json"))
	_, err := c.Compile(`tool == "shell"`)
	require.NoError(t, err)
	assert.Error(t, c.Save())

	// The folder is created, for this user alone.
	path := filepath.Join(t.TempDir(), "a", "b", "rules.json")
	c = OpenCache(path)
	_, err = c.Compile(`tool == "shell"`)
	require.NoError(t, err)
	require.NoError(t, c.Save())
	st, err := os.Stat(filepath.Dir(path))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), st.Mode().Perm())
	st, err = os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
}

func TestCacheInMemory(t *testing.T) {
	for _, c := range []*Cache{OpenCache(""), nil} {
		r1, err := c.Compile(`tool == "shell"`)
		require.NoError(t, err)
		r2, err := c.Compile(`tool == "shell"`)
		require.NoError(t, err)
		if c != nil {
			assert.Same(t, r1.prog, r2.prog, "the second is answered from memory")
		}
		assert.Equal(t, outcome{match: true}, run(r2, shellEvent("ls")))
		_, err = c.Compile(`tool ==`)
		assert.Error(t, err)
		assert.NoError(t, c.Save())
	}
}

// Nothing added, nothing written.
func TestCacheSaveNoop(t *testing.T) {
	path := filepath.Join(privateDir(t), "rules.json")
	c := OpenCache(path)
	_, err := c.Compile(`tool ==`)
	require.Error(t, err)
	require.NoError(t, c.Save())
	_, err = os.Stat(path)
	assert.True(t, os.IsNotExist(err))
}

func savedSources(t *testing.T, path string) []string {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.True(t, gjson.ValidBytes(b))
	var out []string
	gjson.GetBytes(b, "programs").ForEach(func(k, _ gjson.Result) bool {
		out = append(out, k.Str)
		return true
	})
	return out
}

// The file keeps maxCached programs: those the saving process used first.
func TestCacheBounded(t *testing.T) {
	path := filepath.Join(privateDir(t), "rules.json")
	src := func(i int) string { return fmt.Sprintf(`command == "c%d"`, i) }
	c := OpenCache(path)
	for i := range maxCached + 100 {
		_, err := c.Compile(src(i))
		require.NoError(t, err)
	}
	require.NoError(t, c.Save())
	got := savedSources(t, path)
	require.Len(t, got, maxCached)
	assert.Equal(t, src(0), got[0])
	assert.Equal(t, src(maxCached-1), got[maxCached-1])

	// The file is larger than what is read at first: a program at its end
	// is read as well, and one not there is compiled.
	st, err := os.Stat(path)
	require.NoError(t, err)
	require.Greater(t, st.Size(), int64(cacheChunk))
	c = OpenCache(path)
	for _, i := range []int{maxCached - 1, 3, maxCached} {
		r, err := c.Compile(src(i))
		require.NoError(t, err)
		assert.Equal(t, outcome{match: false}, run(r, shellEvent("ls")))
	}
	assert.Equal(t, []string{src(maxCached)}, keys(c.fresh))

	// The file replaced after its start was read: its rest is not read
	// as if it followed.
	c = OpenCache(path)
	_, err = c.Compile(src(0))
	require.NoError(t, err)
	other := OpenCache(path)
	_, err = other.Compile(src(maxCached + 1))
	require.NoError(t, err)
	require.NoError(t, other.Save())
	r, err := c.Compile(src(maxCached - 2))
	require.NoError(t, err)
	assert.Equal(t, outcome{match: false}, run(r, shellEvent("ls")))
	assert.Equal(t, []string{src(maxCached - 2)}, keys(c.fresh), "compiled, not read past a replaced start")

	// A later process uses one old program and adds two.
	c = OpenCache(path)
	for _, i := range []int{7, maxCached + 50, maxCached + 300} {
		_, err := c.Compile(src(i))
		require.NoError(t, err)
	}
	assert.Equal(t, []string{src(maxCached + 50), src(maxCached + 300)}, keys(c.fresh))
	require.NoError(t, c.Save())
	got = savedSources(t, path)
	require.Len(t, got, maxCached)
	assert.Equal(t, []string{src(7), src(maxCached + 50), src(maxCached + 300), src(maxCached + 1), src(0)}, got[:5])
	assert.NotContains(t, got, src(maxCached-1), "the last of the old ones made room")
}

// keys are the sources of m, sorted.
func keys(m map[string][]byte) []string {
	return slices.Sorted(maps.Keys(m))
}

// Saves racing on one file (two calls at once, or two goroutines) leave a
// whole file, which still answers.
func TestCacheConcurrentSave(t *testing.T) {
	path := filepath.Join(privateDir(t), "rules.json")
	shared := OpenCache(path)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			own := OpenCache(path)
			for i := range 20 {
				for _, c := range []*Cache{own, shared} {
					_, err := c.Compile(fmt.Sprintf(`command == "g%d-%d"`, g, i))
					assert.NoError(t, err)
					assert.NoError(t, c.Save())
				}
			}
		})
	}
	wg.Wait()
	got := savedSources(t, path)
	assert.NotEmpty(t, got)
	c := OpenCache(path)
	for _, src := range got {
		r, err := c.Compile(src)
		require.NoError(t, err)
		assert.Equal(t, outcome{match: false}, run(r, shellEvent("ls")))
	}
	assert.Empty(t, c.fresh, "every saved program was read back")
	entries, err := os.ReadDir(filepath.Dir(path))
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file is left")
}

// A program holding a constant the cache cannot rebuild is not kept; its
// rule still runs.
func TestEncodeUnknownConstant(t *testing.T) {
	p := vm.NewProgram(file.NewSource("x"), nil, []file.Location{{}}, 0, []any{time.Second},
		[]vm.Opcode{vm.OpPush}, []int{0}, nil, map[string]string{}, nil)
	_, ok := encodeProgram(p)
	assert.False(t, ok)
	p = vm.NewProgram(file.NewSource("x"), nil, []file.Location{{}}, 0, []any{"s"},
		[]vm.Opcode{vm.OpPush}, []int{0}, nil, map[string]string{}, nil)
	_, ok = encodeProgram(p)
	assert.True(t, ok)
}

// The expr version the cache records in a test binary is the one go.mod
// requires.
func TestExprVersion(t *testing.T) {
	v, err := os.ReadFile("../../third_party/expr/VERSION")
	require.NoError(t, err)
	assert.Equal(t, strings.TrimSpace(string(v)), exprVersion)
	assert.Contains(t, cacheVersion(), exprModule+"@"+exprVersion)
}

// A change to the types expressions see changes the cache's version.
func TestEnvTypes(t *testing.T) {
	assert.Equal(t, typesHash(), envTypes, "the types expressions see changed: set envTypes to the new hash")
}
