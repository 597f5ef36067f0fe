package rule

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm"
	"github.com/expr-lang/expr/vm/runtime"
	"github.com/hookshim/hookshim/internal/private"
	"github.com/tidwall/gjson"
)

// cacheFormat numbers the layout of the cache file and the way Compile
// builds a program (the constants pass, the options of config): a program
// kept by one build must run the same in another with the same number.
// Bump it when either changes. The expr version and the types of Env
// (envTypes) are recorded beside it on their own.
const cacheFormat = 2

// maxCached is how many programs a cache file keeps at most: those used by
// the process that writes it first, then the others in their order.
const maxCached = 512

// maxCacheFile bounds what is read: a larger file is not ours to read
// every call.
const maxCacheFile = 16 << 20

// exprModule is the module whose bytecode the cache keeps.
const exprModule = "github.com/expr-lang/expr"

// Cache keeps compiled programs between processes, keyed by expression
// source. Every hook call is a new process; parsing, checking and
// compiling its rules is most of what a call with rules costs, and is the
// same on every call until the config changes.
//
// The file is JSON, one program a line:
//
//	{"version":"…","programs":{
//	"<source>":{"code":…,"debug":…,"consts":…},
//	…
//	}}
//
// and read with gjson, from the top, only as far as the programs asked
// for: Save puts the programs of the saving call first, so a call whose
// config has not changed finds all of its own before the rest of the file,
// however large. A program is decoded only when it is asked for. Read
// this way in a fresh process, the eight programs of a typical config cost
// less than half of what encoding/json's decoding of the same file does,
// and a twentieth in a full file.
//
// A Cache may be used by several goroutines at once.
type Cache struct {
	path string

	mu     sync.Mutex
	loaded bool // file has been read
	file   cacheFile
	progs  map[string]*vm.Program // decoded or compiled by this process
	fresh  map[string][]byte      // encoded programs compiled by this process
	used   []string               // the sources asked for, in order, once each
	seen   map[string]bool
}

// CacheFile is the file, in hookshim's cache folder, that keeps the
// compiled programs between calls.
const CacheFile = "rules.json"

// UserCache is the user's cache of compiled programs, under
// $XDG_CACHE_HOME/hookshim (else ~/.cache/hookshim); nil, which compiles
// every expression, when neither variable is set.
func UserCache(getenv func(string) string) *Cache {
	dir := private.CacheDir(getenv)
	if dir == "" {
		return nil
	}
	return OpenCache(filepath.Join(dir, CacheFile))
}

// OpenCache reads the cache file at path. Any problem (missing,
// unreadable, corrupt, written by another expr or format version, a folder
// or file not this user's alone) gives an empty cache that still works: a
// cache can make a call faster, never fail it. path "" is an in-memory
// cache. The file is read on the first Compile: a call whose configs hold
// no rule never touches it.
func OpenCache(path string) *Cache {
	return &Cache{path: path, progs: map[string]*vm.Program{}, fresh: map[string][]byte{}, seen: map[string]bool{}}
}

// load reads the file, once; c.mu is held.
func (c *Cache) load() {
	if !c.loaded {
		c.loaded = true
		if c.path != "" {
			c.file = readCache(c.path)
		}
	}
}

// cacheFile is a cache file being read: the programs found so far, by
// source and in order, not decoded, and the lines not read yet. Only the
// start of a large file is read at first (the programs of the call that
// saved it), the rest when a program is not found there.
type cacheFile struct {
	entries map[string]gjson.Result
	order   []string
	rest    string // the lines read but not yet scanned
	path    string // the file, when there is more of it to read
	head    []byte // what was read of it
}

// cacheChunk is how much of the file is read at first: the programs of
// a large config. Reading all of a full cache (512 programs) costs more
// than decoding a config's programs.
const cacheChunk = 32 << 10

// header is the first line of a cache file. The version is module paths,
// versions and digits: quoted as it is, without encoding/json, whose first
// use in a process costs as much as reading the cache.
var header = sync.OnceValue(func() string {
	v := cacheVersion()
	if strings.ContainsFunc(v, func(r rune) bool { return r < ' ' || r == '"' || r == '\\' || r > '~' }) {
		return "" // no file matches: nothing is read or saved
	}
	return `{"version":"` + v + `","programs":{` + "\n"
})

// readCache opens the file at path; an empty cacheFile when the file
// cannot be trusted or read, or is of another version.
func readCache(path string) cacheFile {
	if header() == "" {
		return cacheFile{}
	}
	dir := filepath.Dir(path)
	st, err := os.Lstat(dir)
	if err != nil || private.Dir(dir, st) != nil {
		return cacheFile{}
	}
	b, whole := readPrivate(path, cacheChunk)
	// b is never changed: the entries are slices of it, not copies.
	rest, ok := strings.CutPrefix(view(b), header())
	if !ok {
		return cacheFile{}
	}
	f := cacheFile{entries: map[string]gjson.Result{}, rest: rest, head: b}
	if !whole {
		f.path = path
	}
	return f
}

// readPrivate reads up to n bytes of the file at path, in a folder that
// passed private.Dir; whole when that is all of it. Nothing when the file
// is not this user's alone.
func readPrivate(path string, n int64) (b []byte, whole bool) {
	// Lstat: a link is refused, not followed. The folder is this user's
	// alone, so the file cannot be swapped between this and the read.
	st, err := os.Lstat(path)
	if err != nil || private.File(path, st) != nil || st.Size() > maxCacheFile {
		return nil, false
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	b = make([]byte, min(n, st.Size()))
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, false
	}
	return b, int64(len(b)) == st.Size()
}

// view is b as a string without a copy; b never changes.
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// find reads lines until the program of src, if it is there.
func (f *cacheFile) find(src string) (gjson.Result, bool) {
	if e, ok := f.entries[src]; ok {
		return e, true
	}
	for {
		key, e, ok := f.next()
		if !ok {
			return gjson.Result{}, false
		}
		if key == src {
			return e, true
		}
	}
}

// next reads the next line's program. A line that is not one ends the
// file: what follows is not read.
func (f *cacheFile) next() (string, gjson.Result, bool) {
	line, rest, ok := strings.Cut(f.rest, "\n")
	if !ok && f.path != "" {
		f.readAll()
		line, rest, ok = strings.Cut(f.rest, "\n")
	}
	f.rest = rest
	key := gjson.Parse(line)
	value, _ := strings.CutPrefix(line[len(key.Raw):], ":")
	value = strings.TrimSuffix(value, ",")
	if !ok || key.Type != gjson.String || len(value) < 2 || value[0] != '{' || value[len(value)-1] != '}' {
		f.rest = ""
		return "", gjson.Result{}, false
	}
	e := gjson.Result{Type: gjson.JSON, Raw: value}
	if _, dup := f.entries[key.Str]; !dup {
		f.entries[key.Str] = e
		f.order = append(f.order, key.Str)
	}
	return key.Str, e, true
}

// readAll reads the rest of the file, if it still starts as it did (a
// Save may have replaced it since).
func (f *cacheFile) readAll() {
	at := len(f.head) - len(f.rest)
	b, whole := readPrivate(f.path, maxCacheFile)
	f.path = ""
	if !whole || !bytes.HasPrefix(b, f.head) {
		f.rest = ""
		return
	}
	f.head = b
	f.rest = view(b)[at:]
}

// all reads the whole file, keeping only programs that are whole JSON, to
// be copied as they are into the next file.
func (f *cacheFile) all() {
	for {
		if _, _, ok := f.next(); !ok {
			break
		}
	}
	order := f.order[:0]
	for _, src := range f.order {
		if gjson.Valid(f.entries[src].Raw) {
			order = append(order, src)
		} else {
			delete(f.entries, src)
		}
	}
	f.order = order
}

// Compile is rule.Compile, answered from the cache when it holds src: then
// no parse, check or compile happens at all, and the returned Rule's
// program is ready. On a miss it compiles (Compile, then the program at
// once) and remembers the program. A nil *Cache is plain Compile.
func (c *Cache) Compile(src string) (*Rule, error) {
	if c == nil {
		return Compile(src)
	}
	if p := c.lookup(src); p != nil {
		r := &Rule{Source: src, prog: p}
		r.once.Do(func() {}) // the program is there: program() returns it
		return r, nil
	}
	r, err := Compile(src)
	if err != nil {
		return nil, err
	}
	p, err := r.program()
	if err != nil {
		return r, nil // the rule carries its error to Match, as Compile's does
	}
	enc, ok := encodeProgram(p)
	// A source that is not UTF-8 would be written as another (JSON has
	// only UTF-8), never found again, and saved again on every call.
	ok = ok && utf8.ValidString(src)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.use(src)
	if _, there := c.progs[src]; !there {
		c.progs[src] = p
		if ok {
			c.fresh[src] = enc
		}
	}
	return r, nil
}

// lookup is the program of src if this process has it or the file holds
// one that decodes.
func (c *Cache) lookup(src string) *vm.Program {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.progs[src]
	if p == nil {
		c.load()
		e, ok := c.file.find(src)
		if !ok {
			return nil
		}
		if p = decodeProgram(src, e); p == nil {
			return nil // compiled again, and replaced on Save
		}
		c.progs[src] = p
	}
	c.use(src)
	return p
}

func (c *Cache) use(src string) {
	if !c.seen[src] {
		c.seen[src] = true
		c.used = append(c.used, src)
	}
}

// Save writes the cache back when this process added programs,
// atomically, into a folder only this user can write in (created 0700).
// It keeps at most maxCached programs: those this process used first, then
// those of the file as it is now (another call may have saved since this
// one read it), then those read. A no-op when nothing was added or the
// cache is in memory.
func (c *Cache) Save() error {
	if c == nil || c.path == "" {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.fresh) == 0 {
		return nil
	}
	if header() == "" {
		return errors.New("the cache's version cannot be written: compiled rules are not saved")
	}
	dir := filepath.Dir(c.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	st, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if err := private.Dir(dir, st); err != nil {
		return err
	}
	now := readCache(c.path)
	now.all()
	c.file.all()

	var buf bytes.Buffer
	buf.WriteString(header())
	n := 0
	written := map[string]bool{}
	add := func(src string, raw []byte) {
		if n >= maxCached || written[src] || raw == nil {
			return
		}
		written[src] = true
		if n > 0 {
			buf.WriteString(",\n")
		}
		writeJSONString(&buf, src)
		buf.WriteByte(':')
		buf.Write(raw)
		n++
	}
	rawOf := func(f *cacheFile, src string) []byte {
		if e, ok := f.entries[src]; ok {
			return []byte(e.Raw)
		}
		return nil
	}
	for _, src := range c.used {
		if enc, ok := c.fresh[src]; ok {
			add(src, enc)
		} else {
			add(src, rawOf(&c.file, src))
		}
	}
	for _, src := range now.order {
		add(src, rawOf(&now, src))
	}
	for _, src := range c.file.order {
		add(src, rawOf(&c.file, src))
	}
	if n > 0 {
		buf.WriteByte('\n')
	}
	buf.WriteString("}}\n")
	if err := private.WriteFile(c.path, buf.Bytes()); err != nil {
		return err
	}
	// Saved: a second Save is a no-op until a program is added.
	if c.file.entries == nil {
		c.file.entries = map[string]gjson.Result{}
	}
	for src, enc := range c.fresh {
		if _, ok := c.file.entries[src]; !ok {
			c.file.order = append(c.file.order, src)
		}
		c.file.entries[src] = gjson.Result{Type: gjson.JSON, Raw: string(enc)}
	}
	clear(c.fresh)
	return nil
}

// writeJSONString writes s quoted, with no raw newline (a line of the
// file is one program) and & < > as they are (a source holding && is then
// read back without unescaping).
func writeJSONString(buf *bytes.Buffer, s string) {
	buf.Write(marshal(s))
}

// marshal is json.Marshal without the escaping of & < >, which is for
// HTML; v always marshals.
func marshal(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// exprVersion is the version of exprModule go.mod requires
// (TestExprVersion keeps the two in step; third_party/expr is that
// release with its tables built on first use).
const exprVersion = "v1.17.8"

// cacheVersion is what a cache file must record to be read: the format,
// the expr release that compiled its programs (its bytecode, builtins and
// typed-call tables are numbered by position), envTypes, and the hookshim
// executable that wrote it, by size and time of change. A new build then
// compiles its rules once again rather than trust that nothing in how
// they compile has changed; identifying it costs two system calls, where
// reading the build information the toolchain stamps cost a call with
// rules more than reading the cache.
var cacheVersion = sync.OnceValue(func() string {
	build := "unknown"
	if exe, err := os.Executable(); err == nil {
		if st, err := os.Stat(exe); err == nil {
			build = strconv.FormatInt(st.Size(), 10) + "-" + strconv.FormatInt(st.ModTime().UnixNano(), 10)
		}
	}
	return strconv.Itoa(cacheFormat) + " " + exprModule + "@" + exprVersion + " " + envTypes + " " + build
})

// envTypes is a hash of the types expressions see: the fields of Env with
// their types, down to the fields of the structs they hold, and the types
// of funcs. A program fetches a struct field by its index, so a program
// compiled against other types is not to be run. It is a constant, not
// computed on every call (reflecting over them costs more than reading
// the cache); TestEnvTypes fails, giving the new value, when they change.
const envTypes = "4e2233258665d2df"

// typesHash is what envTypes must be.
func typesHash() string {
	var b strings.Builder
	seen := map[reflect.Type]bool{}
	env := reflect.TypeFor[Env]()
	for i := range env.NumField() {
		f := env.Field(i)
		if tag := f.Tag.Get("expr"); tag != "" && tag != "-" {
			b.WriteString(tag + " ")
			describeType(&b, f.Type, seen)
			b.WriteByte(';')
		}
	}
	for _, f := range funcs {
		b.WriteString(f.name + " ")
		describeType(&b, reflect.TypeOf(f.typ), seen)
		b.WriteByte(';')
	}
	h := fnv.New64a()
	h.Write([]byte(b.String()))
	return strconv.FormatUint(h.Sum64(), 16)
}

func describeType(b *strings.Builder, t reflect.Type, seen map[reflect.Type]bool) {
	b.WriteString(t.String())
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		describeType(b, t.Elem(), seen)
	case reflect.Map:
		describeType(b, t.Key(), seen)
		describeType(b, t.Elem(), seen)
	case reflect.Struct:
		if seen[t] {
			return
		}
		seen[t] = true
		b.WriteByte('{')
		for i := range t.NumField() {
			f := t.Field(i)
			b.WriteString(f.Name + " " + string(f.Tag) + " ")
			describeType(b, f.Type, seen)
			b.WriteByte(';')
		}
		b.WriteByte('}')
	}
}

// A program in the file is an object of three keys. "code" is, in
// base64, varints: the number of variables, of opcodes, the opcodes (a
// byte each), their arguments, and their locations (from, to): the bulk
// of a program, read without a JSON number to parse. "debug" is expr's
// debug info, the names of variables, functions and builtin constants,
// which Disassemble shows and by which the functions are found again.
// "consts" is the constants, a tag then a value each.
type programJSON struct {
	Code   string            `json:"code"`
	Debug  map[string]string `json:"debug"`
	Consts []any             `json:"consts"`
}

type fieldJSON struct {
	Index []int    `json:"i"`
	Path  []string `json:"p"`
}

type methodJSON struct {
	Name  string `json:"n"`
	Index int    `json:"i"`
}

// encodeProgram is p as the cache keeps it; false when p holds what the
// cache cannot rebuild (a constant of another type, a function not found
// by name): such a program is compiled on every call, as without a cache.
func encodeProgram(p *vm.Program) ([]byte, bool) {
	v := reflect.ValueOf(p).Elem()
	if !v.FieldByName("span").IsNil() {
		return nil, false // profiling, which config never turns on
	}
	out := programJSON{Debug: map[string]string{}, Consts: []any{}}
	for it := v.FieldByName("debugInfo").MapRange(); it.Next(); {
		out.Debug[it.Key().String()] = it.Value().String()
	}
	for i := range v.FieldByName("functions").Len() {
		if findFunc(out.Debug["func_"+strconv.Itoa(i)]) == nil {
			return nil, false
		}
	}
	locs := p.Locations()
	if len(p.Arguments) != len(p.Bytecode) || len(locs) != len(p.Bytecode) {
		return nil, false
	}
	code := binary.AppendUvarint(nil, uint64(v.FieldByName("variables").Int()))
	code = binary.AppendUvarint(code, uint64(len(p.Bytecode)))
	for _, op := range p.Bytecode {
		code = append(code, byte(op))
	}
	for _, a := range p.Arguments {
		code = binary.AppendVarint(code, int64(a))
	}
	for _, l := range locs {
		code = binary.AppendVarint(code, int64(l.From))
		code = binary.AppendVarint(code, int64(l.To))
	}
	out.Code = base64.StdEncoding.EncodeToString(code)
	for i, k := range p.Constants {
		tag, val, ok := encodeConst(k, out.Debug["const_"+strconv.Itoa(i)])
		if !ok {
			return nil, false
		}
		out.Consts = append(out.Consts, tag, val)
	}
	b := marshal(out)
	return b, b != nil
}

// encodeConst is a constant's tag and JSON value: the types expr's
// compiler puts in a program for our environment. name is the constant's
// debug name, that of the builtin when it is one's function.
func encodeConst(k any, name string) (string, any, bool) {
	switch k := k.(type) {
	case nil:
		return "nil", nil, true
	case string:
		return "s", k, true
	case bool:
		return "b", k, true
	case int:
		return "i", k, true
	case int8:
		return "i8", k, true
	case int16:
		return "i16", k, true
	case int32:
		return "i32", k, true
	case int64:
		return "i64", k, true
	case uint:
		return "u", k, true
	case uint8:
		return "u8", k, true
	case uint16:
		return "u16", k, true
	case uint32:
		return "u32", k, true
	case uint64:
		return "u64", k, true
	case float32:
		// Any float32 is a float64 exactly, and JSON has no NaN or Inf
		// (json.Marshal fails on them: the program is then not kept).
		return "f32", float64(k), true
	case float64:
		return "f64", k, true
	case []byte:
		return "bytes", k, true // base64
	case *runtime.Field:
		return "field", fieldJSON{Index: k.Index, Path: k.Path}, true
	case *runtime.Method:
		return "method", methodJSON{Name: k.Name, Index: k.Index}, true
	case *lazyRE:
		// The pattern, then the literals every match holds (literals.go).
		return "re", append([]string{k.pattern}, k.need...), true
	case vm.SafeFunction:
		// A builtin's function (sort, reverse, …), named by debug info.
		if f := findBuiltin(name); f != nil && f.Safe != nil {
			return "safe", name, true
		}
		return "", nil, false
	case error:
		// Messages the compiler raises when the program runs there.
		if reflect.TypeOf(k) != reflect.TypeOf(errors.New("")) {
			return "", nil, false
		}
		return "err", k.Error(), true
	}
	return "", nil, false
}

// findFunc is the function a program calls by name: one of ours, or
// a builtin's.
func findFunc(name string) vm.Function {
	for _, f := range funcs {
		if f.name == name {
			return f.fn
		}
	}
	if f := findBuiltin(name); f != nil {
		return f.Func
	}
	return nil
}

func findBuiltin(name string) *builtin.Function {
	i, ok := builtin.Index()[name]
	if !ok || i < 0 || i >= len(builtin.Builtins()) {
		return nil
	}
	return builtin.Builtins()[i]
}

// decodeProgram rebuilds the program of src from its entry; nil when the
// entry does not hold a whole, consistent program (it is then compiled
// again). No parse, check or compile of src happens: only the source text
// goes back in, for the messages of errors at run time.
func decodeProgram(src string, e gjson.Result) *vm.Program {
	var code64, dbg, consts gjson.Result
	e.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "code":
			code64 = v
		case "debug":
			dbg = v
		case "consts":
			consts = v
		}
		return true
	})
	if code64.Type != gjson.String || !dbg.IsObject() || !consts.IsArray() {
		return nil
	}
	code, err := base64.StdEncoding.DecodeString(code64.Str)
	if err != nil {
		return nil
	}
	d := decoder{b: code}
	nvars, n := d.uvarint(), d.uvarint()
	if d.bad || n > uint64(len(d.b)) {
		return nil
	}
	ops := make([]vm.Opcode, n)
	for i := range ops {
		ops[i] = vm.Opcode(d.b[i])
	}
	d.b = d.b[n:]
	args := make([]int, n)
	for i := range args {
		args[i] = d.varint()
	}
	locations := make([]file.Location, n)
	for i := range locations {
		locations[i] = file.Location{From: d.varint(), To: d.varint()}
	}
	if d.bad || len(d.b) != 0 || nvars > 1<<20 {
		return nil
	}
	debugInfo := map[string]string{}
	ok := true
	dbg.ForEach(func(k, v gjson.Result) bool {
		debugInfo[k.Str] = v.Str
		ok = v.Type == gjson.String
		return ok
	})
	if !ok {
		return nil
	}
	var functions []vm.Function
	for i := 0; ; i++ {
		name, there := debugInfo["func_"+strconv.Itoa(i)]
		if !there {
			break
		}
		fn := findFunc(name)
		if fn == nil {
			return nil
		}
		functions = append(functions, fn)
	}
	var constants []any
	var tag gjson.Result
	consts.ForEach(func(_, v gjson.Result) bool {
		if tag.Type == gjson.Null {
			tag = v
			ok = v.Type == gjson.String
			return ok
		}
		var k any
		k, ok = decodeConst(tag.Str, v, debugInfo["const_"+strconv.Itoa(len(constants))])
		constants = append(constants, k)
		tag = gjson.Result{}
		return ok
	})
	if !ok || tag.Type != gjson.Null || !inRange(ops, args, len(constants), len(functions)) {
		return nil
	}
	return vm.NewProgram(file.NewSource(src), nil, locations, int(nvars), constants, ops, args, functions, debugInfo, nil)
}

// decoder reads the varints of a program's code; bad once one is not.
type decoder struct {
	b   []byte
	bad bool
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.bad = true
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int {
	v, n := binary.Varint(d.b)
	if n <= 0 || v != int64(int(v)) {
		d.bad = true
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

func ints(r gjson.Result) ([]int, bool) {
	out := []int{}
	ok := r.IsArray()
	r.ForEach(func(_, v gjson.Result) bool {
		ok = v.Type == gjson.Number
		out = append(out, int(v.Int()))
		return ok
	})
	return out, ok
}

// decodeConst is the constant of tag and value v; name is its debug name.
func decodeConst(tag string, v gjson.Result, name string) (any, bool) {
	num := v.Type == gjson.Number
	str := v.Type == gjson.String
	switch tag {
	case "nil":
		return nil, v.Type == gjson.Null
	case "s":
		return v.Str, str
	case "b":
		return v.Bool(), v.IsBool()
	case "i":
		return int(v.Int()), num
	case "i8":
		return int8(v.Int()), num
	case "i16":
		return int16(v.Int()), num
	case "i32":
		return int32(v.Int()), num
	case "i64":
		return v.Int(), num
	case "u":
		return uint(v.Uint()), num
	case "u8":
		return uint8(v.Uint()), num
	case "u16":
		return uint16(v.Uint()), num
	case "u32":
		return uint32(v.Uint()), num
	case "u64":
		return v.Uint(), num
	case "f32":
		return float32(v.Float()), num
	case "f64":
		return v.Float(), num
	case "bytes":
		b, err := base64.StdEncoding.DecodeString(v.Str)
		return b, str && err == nil
	case "field":
		index, ok := ints(v.Get("i"))
		var path []string
		v.Get("p").ForEach(func(_, p gjson.Result) bool {
			path = append(path, p.Str)
			return true
		})
		return &runtime.Field{Index: index, Path: path}, ok && v.IsObject()
	case "method":
		return &runtime.Method{Name: v.Get("n").Str, Index: int(v.Get("i").Int())}, v.IsObject()
	case "re":
		var words []string
		v.ForEach(func(_, w gjson.Result) bool {
			words = append(words, w.Str)
			return w.Type == gjson.String
		})
		if !v.IsArray() || len(words) == 0 {
			return nil, false
		}
		re := &lazyRE{pattern: words[0]}
		if len(words) > 1 {
			re.need = words[1:]
		}
		return re, true
	case "safe":
		f := findBuiltin(v.Str)
		if f == nil || f.Safe == nil || name != v.Str {
			return nil, false
		}
		return vm.SafeFunction(f.Safe), true
	case "err":
		return errors.New(v.Str), str
	}
	return nil, false
}

// inRange: every argument that indexes a table of the program is inside
// it, so that a damaged entry is compiled again rather than run.
func inRange(ops []vm.Opcode, args []int, nconst, nfunc int) bool {
	for i, op := range ops {
		a := args[i]
		switch op {
		case vm.OpPush, vm.OpLoadConst, vm.OpLoadField, vm.OpLoadFast, vm.OpLoadMethod,
			vm.OpFetchField, vm.OpMethod, vm.OpMatchesConst:
			if a < 0 || a >= nconst {
				return false
			}
		case vm.OpLoadFunc, vm.OpCall0, vm.OpCall1, vm.OpCall2, vm.OpCall3:
			if a < 0 || a >= nfunc {
				return false
			}
		case vm.OpCallBuiltin1:
			if a < 0 || a >= len(builtin.Builtins()) {
				return false
			}
		case vm.OpCallTyped:
			if a < 0 || a >= len(vm.FuncTypes()) {
				return false
			}
		}
	}
	return true
}
