package rule

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/fnv"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/hookshim/hookshim/internal/private"
	"github.com/hookshim/hookshim/third_party/expr/builtin"
	"github.com/hookshim/hookshim/third_party/expr/file"
	"github.com/hookshim/hookshim/third_party/expr/vm"
	"github.com/hookshim/hookshim/third_party/expr/vm/runtime"
	"github.com/tidwall/gjson"
)

// cacheFormat numbers the layout of the cache file and the way Compile
// builds a program (the constants pass, the options of config): a program
// kept by one build must run the same in another with the same number.
// Bump it when either changes. The expr version and the types of Env
// (envTypes) are recorded beside it on their own.
const cacheFormat = 3

// maxCached is how many programs a cache file keeps at most: those used by
// the process that writes it first, then the others in their order.
const maxCached = 512

// maxCacheFile bounds what is read: a larger file is not ours to read
// every call.
const maxCacheFile = 16 << 20

// exprModule is the module whose bytecode the cache keeps (a copy of its
// release in third_party/expr).
const exprModule = "github.com/expr-lang/expr"

// Cache keeps compiled programs between processes, keyed by expression
// source. Every hook call is a new process; parsing, checking and
// compiling its rules is most of what a call with rules costs, and is the
// same on every call until the config changes.
//
// The file is JSON, one program a line:
//
//	{"version":"…","programs":{
//	"<source>":"<the program: base64, see encodeProgram>",
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
	// A program is one string of base64, whose text is its value (a
	// quote or backslash in it fails the decoding, and the program is
	// compiled again).
	if !ok || key.Type != gjson.String || len(value) < 2 || value[0] != '"' || value[len(value)-1] != '"' {
		f.rest = ""
		return "", gjson.Result{}, false
	}
	e := gjson.Result{Type: gjson.String, Raw: value, Str: value[1 : len(value)-1]}
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
		if e := f.entries[src]; e.Type == gjson.String {
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
	if err := private.EnsureDir(filepath.Dir(c.path)); err != nil {
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
	if err := private.WriteFile(c.path, buf.Bytes(), 0o600); err != nil {
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
		c.file.entries[src] = gjson.Result{Type: gjson.String, Raw: string(enc), Str: string(enc[1 : len(enc)-1])}
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

// exprVersion is the release of exprModule third_party/expr holds, with
// its tables built on first use (TestExprVersion keeps the two in step).
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
const envTypes = "ee2bda5e3a2f94db"

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

// A program is kept as one base64 string of:
//
//	uvarint variables, uvarint n, n opcodes (a byte each), n varint
//	arguments, n varint pairs (the locations: from, to),
//	uvarint count, then each debug info entry as two strings (the names
//	of variables, functions and builtin constants, which Disassemble
//	shows and by which functions are found again),
//	uvarint count, then each constant as a tag byte and its value;
//
// a string is a uvarint length and its bytes. One string, read with no
// JSON below it: decoding the programs of a typical config that way costs
// a fifth of what an object of fields per program did.

// The tags of constants: the types expr's compiler puts in a program for
// our environment.
const (
	tagNil byte = iota
	tagString
	tagBool
	tagInt
	tagInt8
	tagInt16
	tagInt32
	tagInt64
	tagUint
	tagUint8
	tagUint16
	tagUint32
	tagUint64
	tagFloat32
	tagFloat64
	tagBytes
	tagField
	tagMethod
	tagRegexp
	tagSafe
	tagError
)

// encodeProgram is p as the cache keeps it, a JSON string; false when p
// holds what the cache cannot rebuild (a constant of another type, a
// function not found by name): such a program is compiled on every call,
// as without a cache.
func encodeProgram(p *vm.Program) ([]byte, bool) {
	v := reflect.ValueOf(p).Elem()
	if !v.FieldByName("span").IsNil() {
		return nil, false // profiling, which config never turns on
	}
	debug := map[string]string{}
	for it := v.FieldByName("debugInfo").MapRange(); it.Next(); {
		debug[it.Key().String()] = it.Value().String()
	}
	for i := range v.FieldByName("functions").Len() {
		if findFunc(debug["func_"+strconv.Itoa(i)]) == nil {
			return nil, false
		}
	}
	locs := p.Locations()
	if len(p.Arguments) != len(p.Bytecode) || len(locs) != len(p.Bytecode) {
		return nil, false
	}
	b := binary.AppendUvarint(nil, uint64(v.FieldByName("variables").Int()))
	b = binary.AppendUvarint(b, uint64(len(p.Bytecode)))
	for _, op := range p.Bytecode {
		b = append(b, byte(op))
	}
	for _, a := range p.Arguments {
		b = binary.AppendVarint(b, int64(a))
	}
	for _, l := range locs {
		b = binary.AppendVarint(b, int64(l.From))
		b = binary.AppendVarint(b, int64(l.To))
	}
	b = binary.AppendUvarint(b, uint64(len(debug)))
	for _, k := range slices.Sorted(maps.Keys(debug)) {
		b = appendString(appendString(b, k), debug[k])
	}
	b = binary.AppendUvarint(b, uint64(len(p.Constants)))
	for i, k := range p.Constants {
		var ok bool
		if b, ok = appendConst(b, k, debug["const_"+strconv.Itoa(i)]); !ok {
			return nil, false
		}
	}
	out := make([]byte, 0, base64.StdEncoding.EncodedLen(len(b))+2)
	out = append(out, '"')
	out = base64.StdEncoding.AppendEncode(out, b)
	return append(out, '"'), true
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// appendConst appends a constant's tag and value. name is the constant's
// debug name, that of the builtin when it is one's function.
func appendConst(b []byte, k any, name string) ([]byte, bool) {
	switch k := k.(type) {
	case nil:
		return append(b, tagNil), true
	case string:
		return appendString(append(b, tagString), k), true
	case bool:
		if k {
			return append(b, tagBool, 1), true
		}
		return append(b, tagBool, 0), true
	case int:
		return binary.AppendVarint(append(b, tagInt), int64(k)), true
	case int8:
		return binary.AppendVarint(append(b, tagInt8), int64(k)), true
	case int16:
		return binary.AppendVarint(append(b, tagInt16), int64(k)), true
	case int32:
		return binary.AppendVarint(append(b, tagInt32), int64(k)), true
	case int64:
		return binary.AppendVarint(append(b, tagInt64), k), true
	case uint:
		return binary.AppendUvarint(append(b, tagUint), uint64(k)), true
	case uint8:
		return binary.AppendUvarint(append(b, tagUint8), uint64(k)), true
	case uint16:
		return binary.AppendUvarint(append(b, tagUint16), uint64(k)), true
	case uint32:
		return binary.AppendUvarint(append(b, tagUint32), uint64(k)), true
	case uint64:
		return binary.AppendUvarint(append(b, tagUint64), k), true
	case float32:
		return binary.LittleEndian.AppendUint32(append(b, tagFloat32), math.Float32bits(k)), true
	case float64:
		return binary.LittleEndian.AppendUint64(append(b, tagFloat64), math.Float64bits(k)), true
	case []byte:
		return appendString(append(b, tagBytes), string(k)), true
	case *runtime.Field:
		b = binary.AppendUvarint(append(b, tagField), uint64(len(k.Index)))
		for _, i := range k.Index {
			b = binary.AppendVarint(b, int64(i))
		}
		b = binary.AppendUvarint(b, uint64(len(k.Path)))
		for _, p := range k.Path {
			b = appendString(b, p)
		}
		return b, true
	case *runtime.Method:
		return binary.AppendVarint(appendString(append(b, tagMethod), k.Name), int64(k.Index)), true
	case *lazyRE:
		// The pattern, then the literals every match holds (literals.go).
		b = binary.AppendUvarint(appendString(append(b, tagRegexp), k.pattern), uint64(len(k.need)))
		for _, w := range k.need {
			b = appendString(b, w)
		}
		return b, true
	case vm.SafeFunction:
		// A builtin's function (sort, reverse, …), named by debug info.
		if f := findBuiltin(name); f != nil && f.Safe != nil {
			return appendString(append(b, tagSafe), name), true
		}
		return nil, false
	case error:
		// Messages the compiler raises when the program runs there.
		if reflect.TypeOf(k) != reflect.TypeOf(errors.New("")) {
			return nil, false
		}
		return appendString(append(b, tagError), k.Error()), true
	}
	return nil, false
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
	b, err := base64.StdEncoding.DecodeString(e.Str)
	if e.Type != gjson.String || err != nil {
		return nil
	}
	d := decoder{b: b}
	nvars, n := d.uvarint(), d.uvarint()
	if d.bad || n > uint64(len(d.b)) || nvars > 1<<20 {
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
	ndebug := d.count()
	debugInfo := make(map[string]string, ndebug)
	for range ndebug {
		k := d.str()
		debugInfo[k] = d.str()
	}
	var functions []vm.Function
	for i := 0; !d.bad; i++ {
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
	nconst := d.count()
	constants := make([]any, 0, nconst)
	for i := 0; i < nconst && !d.bad; i++ {
		constants = append(constants, d.constant(debugInfo, i))
	}
	if d.bad || len(d.b) != 0 || !inRange(ops, args, len(constants), len(functions)) {
		return nil
	}
	return vm.NewProgram(file.NewSource(src), nil, locations, int(nvars), constants, ops, args, functions, debugInfo, nil)
}

// decoder reads a program's bytes; bad once what it reads is not whole.
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
	if len(d.b) > 0 && d.b[0] < 0x80 {
		// One byte, as most arguments and locations are: binary.Varint
		// is not inlined, and a program holds a few hundred of them.
		u := d.b[0]
		d.b = d.b[1:]
		return int(u>>1) ^ -int(u&1)
	}
	v, n := binary.Varint(d.b)
	if n <= 0 || v != int64(int(v)) {
		d.bad = true
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

// count is a number of things to read, each at least a byte long.
func (d *decoder) count() int {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.bad = true
		return 0
	}
	return int(n)
}

func (d *decoder) bytes(n int) []byte {
	if n > len(d.b) || d.bad {
		d.bad = true
		return nil
	}
	b := d.b[:n:n]
	d.b = d.b[n:]
	return b
}

func (d *decoder) str() string { return string(d.bytes(d.count())) }

func (d *decoder) byte() byte {
	if b := d.bytes(1); b != nil {
		return b[0]
	}
	return 0
}

// constant reads the tag and value of constant i; debug names builtins'
// functions.
func (d *decoder) constant(debug map[string]string, i int) any {
	switch tag := d.byte(); tag {
	case tagNil:
		return nil
	case tagString:
		return d.str()
	case tagBool:
		return d.byte() != 0
	case tagInt:
		return d.varint()
	case tagInt8:
		return int8(d.varint())
	case tagInt16:
		return int16(d.varint())
	case tagInt32:
		return int32(d.varint())
	case tagInt64:
		return int64(d.varint())
	case tagUint:
		return uint(d.uvarint())
	case tagUint8:
		return uint8(d.uvarint())
	case tagUint16:
		return uint16(d.uvarint())
	case tagUint32:
		return uint32(d.uvarint())
	case tagUint64:
		return d.uvarint()
	case tagFloat32:
		if b := d.bytes(4); b != nil {
			return math.Float32frombits(binary.LittleEndian.Uint32(b))
		}
	case tagFloat64:
		if b := d.bytes(8); b != nil {
			return math.Float64frombits(binary.LittleEndian.Uint64(b))
		}
	case tagBytes:
		return []byte(d.str())
	case tagField:
		index := make([]int, d.count())
		for i := range index {
			index[i] = d.varint()
		}
		path := make([]string, d.count())
		for i := range path {
			path[i] = d.str()
		}
		return &runtime.Field{Index: index, Path: path}
	case tagMethod:
		name := d.str()
		return &runtime.Method{Name: name, Index: d.varint()}
	case tagRegexp:
		re := &lazyRE{pattern: d.str()}
		if n := d.count(); n > 0 {
			re.need = make([]string, n)
			for i := range re.need {
				re.need[i] = d.str()
			}
		}
		return re
	case tagSafe:
		f := findBuiltin(d.str())
		if f == nil || f.Safe == nil || debug["const_"+strconv.Itoa(i)] != f.Name {
			d.bad = true
			return nil
		}
		return vm.SafeFunction(f.Safe)
	case tagError:
		return errors.New(d.str())
	default:
		d.bad = true
	}
	return nil
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
