package hookshim_test

import (
	"bufio"
	"bytes"
	"debug/buildinfo"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// initCost is what one package's initialisation allocates at the start of
// the hook binary, as GODEBUG=inittrace=1 reports it.
type initCost struct {
	bytes, allocs int
	why           string // why the package is linked and what its init builds
}

// initGo is the Go release initAllowance was measured with: the standard
// library's own initialisation changes from one release to the next, and
// is judged only with this one.
const initGo = "go1.26"

// initAllowance is what each package of cmd/hookshim may allocate while it
// initialises, at the start of every hook call (one process per call).
// The allocations stand for the work: the clock time of an init is what
// it costs, but it moves with the load of the machine; the bytes and
// allocations do not.
//
// A package that is not listed and allocates, or one that allocates more
// than its entry (plus initSlack), fails TestInitCost. When the cost is
// worth it, add or raise the entry: `go test -run TestInitCost -v .` logs
// the figures of every package, and a failure prints the line to paste;
// give it a reason. Else make the work lazy (a sync.Once, a switch
// instead of a map literal) or leave the package out of the hook binary
// (as net/http is, TestHookshimLoadsNoHTTP).
var initAllowance = map[string]initCost{
	// The standard library.
	"iter":                            {16, 1, "linked by bytes, strings, slices and reflect"},
	"internal/godebug":                {720, 19, "the GODEBUG settings the runtime and the packages read"},
	"encoding/base64":                 {1408, 4, "the standard encodings' tables; linked by encoding/json, config and expr"},
	"crypto":                          {160, 1, "the table of hash functions; linked by crypto/sha256 (config, trust, dedupe)"},
	"crypto/fips140":                  {48, 1, "its GODEBUG setting; linked by crypto/sha256"},
	"crypto/internal/fips140":         {320, 8, "the FIPS 140 module's settings; linked by crypto/sha256"},
	"crypto/internal/fips140/sha256":  {144, 2, "registers its self-test; linked by crypto/sha256"},
	"crypto/internal/fips140/sha512":  {192, 1, "registers its self-test; linked with the FIPS 140 module"},
	"crypto/internal/fips140/aes/gcm": {432, 3, "registers its self-test; linked by crypto/cipher, through crypto/sha256"},
	"syscall":                         {832, 5, "the system call layer of os"},
	"time":                            {256, 2, "its errors and its GODEBUG setting"},
	"context":                         {112, 1, "its closed channel; linked by os/exec and os/signal"},
	"internal/poll":                   {72, 2, "its errors; the file layer of os"},
	"os":                              {432, 9, "its errors and the standard files"},
	"unicode":                         {11400, 16, "the Unicode tables as maps; linked by strings, bytes and reflect"},
	"encoding/json":                   {32, 2, "its literals; linked by gjson's pretty, providers and expr"},
	"flag":                            {128, 2, "its errors; the commands' flags (internal/cli)"},
	"regexp/syntax":                   {2344, 6, "the character class tables; linked by regexp (rule, policy, install)"},
	"net/netip":                       {728, 18, "its address constants; linked by net/url (config: extends by URL)"},

	// Modules.
	"github.com/tidwall/gjson":    {552, 5, "the JSON reader of every call"},
	"github.com/tidwall/pretty":   {240, 1, "linked by gjson and sjson"},
	"github.com/tailscale/hujson": {16, 1, "JSON with comments, for the tools' own configs (install)"},
	// expr (rule handlers) builds its tables at every process start, rules
	// or not: 16.5 KB in 232 allocations over its nine packages, most in
	// builtin (the builtin functions with their reflected types) and vm
	// (the function-type list).
	"github.com/expr-lang/expr/builtin":         {10008, 72, "expr's builtin functions with their reflected types"},
	"github.com/expr-lang/expr/vm":              {720, 90, "expr's VM: the list of function types it calls without reflection"},
	"github.com/expr-lang/expr/ast":             {1448, 21, "expr's syntax tree: one regular expression"},
	"github.com/expr-lang/expr/parser":          {1528, 19, "expr's parser: the map of predicates"},
	"github.com/expr-lang/expr/parser/operator": {1576, 6, "expr's operator tables"},
	"github.com/expr-lang/expr/checker/nature":  {760, 6, "expr's type checker: the reflected types it compares with"},
	"github.com/expr-lang/expr/types":           {224, 14, "expr's type names"},
	"github.com/expr-lang/expr/parser/lexer":    {128, 2, "expr's lexer"},
	"github.com/expr-lang/expr/file":            {96, 2, "expr's error positions: a strings.Replacer"},

	// mvdan.cc/sh reads agents' shell commands (internal/shellcmd); expand
	// gives bash's brace expansion and printf, so neither is written here.
	"mvdan.cc/sh/v3/expand":   {4928, 70, "the variable names bash sets itself, and its printf verbs"},
	"mvdan.cc/sh/v3/fileutil": {15216, 104, "two regular expressions (shebang and file extension), linked through expand"},

	// hookshim's own packages: none. What a package needs only sometimes
	// (a regular expression, a compiler's configuration, the user's id) is
	// built on first use, behind a sync.Once: sync.OnceValue and
	// sync.OnceFunc allocate their closure at start, and a map literal is
	// built at start. The table of tools is a literal the compiler lays
	// out as data: no function call and no method value in it (a call
	// makes the compiler build the rest of the package's tables at start
	// too), and no field read from another table. Judged without the
	// floor of initSlack (ownPackage).
}

// ownPackage reports whether pkg is hookshim's: its entries are judged
// without initSlack's floor of 512 bytes and 4 allocations, which would
// let a sync.OnceValue or a small map literal through unseen.
func ownPackage(pkg string) bool { return strings.HasPrefix(pkg, "github.com/hookshim/hookshim/") }

// initSlack is how far past its entry a package may go: the runtime's own
// work during an init (the GODEBUG settings, a timer) is counted in the
// package that runs then, by a few hundred bytes at most.
func initSlack(n, floor int) int { return n + max(n/8, floor) }

// initRuns is how many times the binary is started; each package is judged
// on its least, which the runtime's work does not inflate.
const initRuns = 5

var initLine = regexp.MustCompile(`^init (\S+) @\S+ ms, (\S+) ms clock, (\d+) bytes, (\d+) allocs$`)

// TestInitCost: no package of the hook binary does more work when the
// process starts than initAllowance says. Every call of every agent pays
// it, whether the call uses the package or not.
func TestInitCost(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not installed")
	}
	bin := filepath.Join(t.TempDir(), "hookshim")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	// Built as releases are (Makefile: build, dist).
	build := exec.Command(gobin, "build", "-trimpath", "-ldflags", "-s -w", "-o", bin, "./cmd/hookshim")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	info, err := buildinfo.ReadFile(bin)
	require.NoError(t, err)
	sameGo := info.GoVersion == initGo || strings.HasPrefix(info.GoVersion, initGo+".")

	least := map[string]initCost{}
	clock := map[string]float64{}
	for range initRuns {
		cmd := exec.Command(bin, "version")
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		require.NoError(t, cmd.Run(), "%s", stderr.Bytes())
		seen := 0
		sc := bufio.NewScanner(&stderr)
		for sc.Scan() {
			m := initLine.FindStringSubmatch(sc.Text())
			if m == nil {
				continue
			}
			seen++
			pkg := m[1]
			ms, _ := strconv.ParseFloat(m[2], 64)
			b, _ := strconv.Atoi(m[3])
			a, _ := strconv.Atoi(m[4])
			clock[pkg] += ms / initRuns
			if c, ok := least[pkg]; ok {
				b, a = min(b, c.bytes), min(a, c.allocs)
			}
			least[pkg] = initCost{bytes: b, allocs: a}
		}
		require.NotZero(t, seen, "no inittrace line in the output: has its format changed?\n%s", stderr.Bytes())
	}

	pkgs := slices.Sorted(maps.Keys(least))
	var total initCost
	var totalClock float64
	for _, pkg := range pkgs {
		got := least[pkg]
		total.bytes += got.bytes
		total.allocs += got.allocs
		if pkg != "runtime" { // the runtime's own start, not a package's work
			totalClock += clock[pkg]
		}
		if got.bytes == 0 && got.allocs == 0 {
			continue
		}
		t.Logf("%-50s %6d bytes %4d allocs %6.3f ms (mean clock)", pkg, got.bytes, got.allocs, clock[pkg])
		std := !strings.Contains(strings.Split(pkg, "/")[0], ".")
		if std && !sameGo {
			continue // the toolchain's own work, judged with initGo
		}
		want, ok := initAllowance[pkg]
		paste := fmt.Sprintf("%q: {%d, %d, \"…why it is linked, what its init builds…\"},", pkg, got.bytes, got.allocs)
		switch {
		case !ok:
			t.Errorf("%s allocates %d bytes in %d allocations at every start of hookshim and is not in initAllowance (initcost_test.go): make it lazy, or add\n\t%s", pkg, got.bytes, got.allocs, paste)
		case ownPackage(pkg) && (got.bytes > initSlack(want.bytes, 0) || got.allocs > initSlack(want.allocs, 0)),
			!ownPackage(pkg) && (got.bytes > initSlack(want.bytes, 512) || got.allocs > initSlack(want.allocs, 4)):
			t.Errorf("%s allocates %d bytes in %d allocations at every start of hookshim, over its allowance of %d in %d (initcost_test.go): make it lazy, or raise it\n\t%s", pkg, got.bytes, got.allocs, want.bytes, want.allocs, paste)
		}
	}
	t.Logf("%s: %d packages initialised, %d bytes in %d allocations, %.3f ms (mean clock, this machine, now)", info.GoVersion, len(pkgs), total.bytes, total.allocs, totalClock)
	if !sameGo {
		t.Logf("built with %s: the standard library's figures are judged only with %s", info.GoVersion, initGo)
	}
}

// TestToolTableIsData: the table of tools (internal/provider) is laid out
// by the compiler as data, with no code to run at start. One call, method
// value or field read from another table in it is enough to make the
// compiler build much of the table at every start (its providers, the
// registry: 2.8 KB in 27 allocations, and 5 KB of code writing the rest
// into place, when the test was written); the compiler's -% flag prints
// "not static" for each such part.
func TestToolTableIsData(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not installed")
	}
	const pkg = "github.com/hookshim/hookshim/internal/provider"
	build := exec.Command(gobin, "build", "-gcflags="+pkg+"=-%", "-o", os.DevNull, "./internal/provider")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	lines := strings.Split(string(out), "\n")
	for i, l := range lines {
		if l == "not static" && i+1 < len(lines) {
			t.Errorf("built at every start of hookshim, not laid out as data: %s\n\t(a call, a method value or another table's field in the table of tools: name a function, or share a variable)", strings.TrimSpace(lines[i+1]))
		}
	}
}
