package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hookshim/hookshim/e2e/mockmodel"
	"github.com/hookshim/hookshim/e2e/pins"
	"github.com/tidwall/gjson"
)

// prompt is what every client is asked; the mock model ignores it and asks
// for the shell call anyway.
const prompt = "Create the file marker.txt in the current folder, then say done."

// Planted texts: each appears only in a handler's answer, so finding one in
// a request the model received proves that channel reached the model.
const (
	tokDeny      = "HSE2E_DENY_REASON_Q7"
	tokJudge     = "HSE2E_JUDGE_REASON_P3"
	tokAsk       = "HSE2E_ASK_REASON_K4"
	tokCtxPrefix = "HSE2E_CTX_"
	tokStop      = "HSE2E_STOP_REASON_P2"
	tokIgnore    = "HSE2E_IGNORED_N6"
)

// runDir is one client run's throwaway world.
type runDir struct {
	c        *client
	scenario string
	root     string // everything below is inside
	home     string // HOME of the client
	proj     string // the project (the client's working directory)
	bin      string // the client's executable
	node     string // the node the client runs on
	mock     *mockmodel.Server
	judge    *mockmodel.Server // the model of a prompt handler, when the scenario has one
	hookLog  string            // HOOKSHIM_LOG
	recFile  string            // envelopes the recording handler saw
}

// newRunDir makes the folders of one run under the system's temp folder:
// outside this repository, so that no client mistakes it for the project.
func newRunDir(t *testing.T, c *client, scenario string) *runDir {
	t.Helper()
	tmp, err := os.MkdirTemp("", "hse2e-"+c.name+"-"+scenario+"-")
	if err != nil {
		t.Fatal(err)
	}
	tmp, err = filepath.EvalSymlinks(tmp)
	if err != nil {
		t.Fatal(err)
	}
	r := &runDir{c: c, scenario: scenario, root: tmp, home: filepath.Join(tmp, "home"), proj: filepath.Join(tmp, "proj"),
		hookLog: filepath.Join(tmp, "hookshim.log"), recFile: filepath.Join(tmp, "envelopes.jsonl")}
	for _, d := range []string{r.home, r.proj, filepath.Join(tmp, "tmp"), filepath.Join(tmp, "run")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// write creates a file (and its folder) below the run's root.
func (r *runDir) write(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(content), 0o644)
}

// env is the client's whole environment: built from scratch, so that no
// credential, config folder or proxy of the machine running the tests
// reaches a client, and nothing points anywhere but the mock.
func (r *runDir) env() []string {
	// hookshim first: project-scope registrations run it from PATH, as on
	// a teammate's machine.
	path := filepath.Dir(hookshimBin) + ":" + filepath.Dir(r.node) + ":/usr/local/bin:/usr/bin:/bin"
	env := []string{
		"HOME=" + r.home,
		"USER=e2e",
		"LOGNAME=e2e",
		"SHELL=/bin/bash",
		"PATH=" + path,
		"LANG=C.UTF-8",
		"TERM=dumb",
		"NO_COLOR=1",
		"TMPDIR=" + filepath.Join(r.root, "tmp"),
		"XDG_CONFIG_HOME=" + filepath.Join(r.home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(r.home, ".local", "state"),
		"XDG_CACHE_HOME=" + filepath.Join(r.home, ".cache"),
		"XDG_DATA_HOME=" + filepath.Join(r.home, ".local", "share"),
		"XDG_RUNTIME_DIR=" + filepath.Join(r.root, "run"),
		"HOOKSHIM_LOG=" + r.hookLog,
		"DO_NOT_TRACK=1",
		"NO_UPDATE_NOTIFIER=1",
		"npm_config_update_notifier=false",
		"npm_config_offline=true",
	}
	return append(env, r.c.env(r)...)
}

// hookshim runs a hookshim command (install, allow) as the user of the run.
func (r *runDir) hookshim(args ...string) (string, error) {
	cmd := exec.Command(hookshimBin, args...)
	cmd.Dir = r.proj
	cmd.Env = r.env()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// result is what one client run left behind.
type result struct {
	r        *runDir
	exit     int
	timedOut bool
	took     time.Duration
	stdout   string
	stderr   string
	requests []mockmodel.Request
	calls    []call
	payloads []payload // every native payload the recording handler saw
	setupLog string    // install / allow output
	leftover []string  // processes of the run still alive after the client exited (killed)
	traced   bool      // the network calls were traced
	network  []string  // traced contacts with anything but 127.0.0.1
	loopback int       // traced contacts with 127.0.0.1
}

// call is one line of hookshim's log.
type call struct {
	Provider     string `json:"provider"`
	ProviderHint string `json:"provider_hint"` // the --provider it was registered with
	Detection    struct {
		Overruled bool `json:"overruled"`
	} `json:"detection"`
	NativeEvent   string   `json:"native_event"`
	Event         string   `json:"event"`
	Tool          string   `json:"tool"`
	Handlers      []string `json:"handlers"`
	HandlerErrors []string `json:"handler_errors"`
	Decision      string   `json:"decision"`
	Reason        string   `json:"reason"`
	Degraded      []string `json:"degraded"`
	Notes         []string `json:"notes"`
	Problems      []string `json:"problems"`
	Exit          int      `json:"exit"`
	Stdout        string   `json:"stdout"`
	raw           string
}

// payload is one envelope the recording handler saw.
type payload struct {
	Source   string
	Native   string
	Event    string
	Data     gjson.Result
	Raw      []byte // the tool's payload, untouched
	Scenario string
	dir      *runDir
}

// launch runs the client once, bounded by its timeout; its process group is
// killed when the time is up.
func (r *runDir) launch(t *testing.T) *result {
	t.Helper()
	res := &result{r: r}
	ctx, cancel := context.WithTimeout(context.Background(), r.c.timeout)
	defer cancel()
	name, args := r.bin, r.c.args
	trace := ""
	if straceBin != "" {
		// Every connect() and addressed send of the client and its
		// children, to prove that nothing but the mock was contacted.
		trace = filepath.Join(r.root, "net.trace")
		args = append([]string{"-f", "-qq", "-e", "trace=connect,sendto,sendmsg", "-o", trace, name}, args...)
		name = straceBin
	}
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = r.proj
	cmd.Env = r.env()
	cmd.Stdin = nil // /dev/null: headless, nothing to answer a prompt
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	ownGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := cmd.Run()
	res.took = time.Since(start)
	if cmd.Process != nil {
		// Whatever the client left running in its group goes too.
		_ = killGroup(cmd)
	}
	res.leftover = r.reapLeftovers(5 * time.Second)
	res.timedOut = ctx.Err() == context.DeadlineExceeded
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		res.exit = ee.ExitCode()
	case res.timedOut:
		res.exit = -1
	default:
		res.exit = -1
		fmt.Fprintf(&stderr, "\n[e2e] could not run the client: %v\n", err)
	}
	res.stdout, res.stderr = stdout.String(), stderr.String()
	if trace != "" {
		res.network, res.loopback = offLoopback(trace)
		res.traced = true
	}
	r.mock.Close()
	res.requests = r.mock.Requests()
	res.calls = readCalls(t, r.hookLog)
	res.payloads = readEnvelopes(t, r)
	return res
}

// reapLeftovers finds the processes the run started outside the client's
// process group (a detached daemon, a hook still running): every process
// whose environment has the run's HOME. Those that do not end within
// grace are killed and returned, so that no run leaves anything behind.
func (r *runDir) reapLeftovers(grace time.Duration) []string {
	mark := []byte("\x00HOME=" + r.home + "\x00")
	find := func() map[int]string {
		found := map[int]string{}
		dirs, _ := os.ReadDir("/proc")
		for _, d := range dirs {
			pid, err := strconv.Atoi(d.Name())
			if err != nil || pid == os.Getpid() {
				continue
			}
			env, err := os.ReadFile(filepath.Join("/proc", d.Name(), "environ"))
			if err != nil || !bytes.Contains(append([]byte{0}, env...), mark) {
				continue
			}
			cmdline, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
			found[pid] = strings.TrimSpace(string(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '})))
		}
		return found
	}
	deadline := time.Now().Add(grace)
	left := find()
	for len(left) > 0 && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
		left = find()
	}
	var out []string
	for pid, cmdline := range left {
		killPid(pid)
		out = append(out, fmt.Sprintf("pid %d: %s", pid, cmdline))
	}
	sort.Strings(out)
	return out
}

func readCalls(t *testing.T, path string) []call {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []call
	for _, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var c call
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Errorf("hookshim log line is not JSON: %v: %s", err, line)
			continue
		}
		c.raw = line
		out = append(out, c)
	}
	return out
}

// readEnvelopes reads the recording handler's file: a stream of envelopes
// (an envelope may span lines when the tool's payload did).
func readEnvelopes(t *testing.T, r *runDir) []payload {
	f, err := os.Open(r.recFile)
	if err != nil {
		return nil
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	var out []payload
	for {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			if !errors.Is(err, io.EOF) {
				t.Errorf("recorded envelopes: %v", err)
			}
			return out
		}
		e := gjson.ParseBytes(raw)
		p := e.Get("extensions.hookshim.payload")
		out = append(out, payload{Source: e.Get("source").Str, Native: e.Get("data.native_event").Str,
			Event: e.Get("data.event").Str, Data: e.Get("data"), Raw: []byte(p.Raw), Scenario: r.scenario, dir: r})
	}
}

// exists reports whether the run left a file in the project.
func (res *result) exists(name string) bool {
	_, err := os.Stat(filepath.Join(res.r.proj, name))
	return err == nil
}

// firstToolCall is the sequence number of the request the model answered
// with the shell call; 0 when it never did.
func (res *result) firstToolCall() int {
	for _, q := range res.requests {
		if q.Answer == "tool_call" {
			return q.Seq
		}
	}
	return 0
}

// reached reports whether text was in a request the model received after
// request number after (0: any request).
func (res *result) reached(text string, after int) bool {
	for _, q := range res.requests {
		if q.Seq > after && (strings.Contains(string(q.Body), text) || strings.Contains(q.Raw, text)) {
			return true
		}
	}
	return false
}

// toolResult is the content of the first tool message the model received
// (Chat Completions), or "".
func (res *result) toolResult() string {
	for _, q := range res.requests {
		for _, m := range gjson.GetBytes(q.Body, "messages").Array() {
			if m.Get("role").Str == "tool" {
				return m.Get("content").String()
			}
		}
	}
	return ""
}

// callsFor returns hookshim's calls for a canonical event.
func (res *result) callsFor(ev string) []call {
	var out []call
	for _, c := range res.calls {
		if c.Event == ev {
			out = append(out, c)
		}
	}
	return out
}

// dump is everything a failing run is judged by: the client's output, the
// mock's request log and hookshim's log.
func (res *result) dump() string {
	var b strings.Builder
	r := res.r
	fmt.Fprintf(&b, "==== %s %s: exit %d, timed out %v, took %s; run folder %s\n", r.c.name, r.scenario, res.exit, res.timedOut, res.took.Round(time.Millisecond), r.root)
	fmt.Fprintf(&b, "==== setup (install, allow):\n%s\n", res.setupLog)
	cfg, _ := os.ReadFile(filepath.Join(r.proj, ".openhook.json"))
	fmt.Fprintf(&b, "==== .openhook.json:\n%s\n", cfg)
	fmt.Fprintf(&b, "==== client stdout:\n%s\n", clip(res.stdout, 16<<10))
	fmt.Fprintf(&b, "==== client stderr:\n%s\n", clip(res.stderr, 16<<10))
	fmt.Fprintf(&b, "==== hookshim log (%s):\n", r.hookLog)
	for _, c := range res.calls {
		b.WriteString(c.raw + "\n")
	}
	fmt.Fprintf(&b, "==== mock model requests:\n")
	for _, q := range res.requests {
		fmt.Fprintf(&b, "#%d %s %s (%s) -> %s, %d bytes\n", q.Seq, q.Method, q.Path, q.Protocol, q.Answer, len(q.Body)+len(q.Raw))
	}
	for _, q := range res.requests {
		body := string(q.Body)
		if body == "" {
			body = q.Raw
		}
		fmt.Fprintf(&b, "---- request #%d body (tail):\n%s\n", q.Seq, clip(body, 6<<10))
	}
	return b.String()
}

// clip keeps the end of long text: where a client's error is, and a
// request's latest messages.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return fmt.Sprintf("[… %d bytes cut …]\n%s", len(s)-n, s[len(s)-n:])
}

// installPinned installs the pinned version of a client (or of the node a
// client runs on) into .e2e/<name>/<version>, once, and returns the path of
// its executable.
func installPinned(name string) (string, error) {
	p, ok := pinned[name]
	if !ok {
		return "", fmt.Errorf("%s is not pinned in e2e/versions.json", name)
	}
	dir, err := pins.Install(filepath.Join(root, ".e2e"), name, p)
	if err != nil {
		return "", err
	}
	return pins.BinPath(dir, p), nil
}

// straceBin traces the clients' network calls when strace is installed
// (HOOKSHIM_E2E_STRACE=0 turns it off).
var straceBin = func() string {
	if os.Getenv("HOOKSHIM_E2E_STRACE") == "0" {
		return ""
	}
	p, _ := exec.LookPath("strace")
	return p
}()

// inetAddr finds the port and address of an AF_INET or AF_INET6 sockaddr
// in a line of strace output.
var inetAddr = regexp.MustCompile(`sin6?_port=htons\((\d+)\), (?:sin_addr=inet_addr\("([^"]+)"\)|sin6_flowinfo=[^,]*, inet_pton\(AF_INET6, "([^"]+)")`)

// offLoopback lists the traced calls that reached for anything but the
// loopback address, and every DNS query (a name lookup is an attempt to
// reach a host, whatever the resolver's address); it counts the calls to
// loopback, which prove that the trace works.
func offLoopback(trace string) (out []string, loopback int) {
	b, err := os.ReadFile(trace)
	if err != nil {
		return []string{"no network trace: " + err.Error()}, 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		m := inetAddr.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		addr := m[2] + m[3]
		loop := addr == "127.0.0.1" || addr == "::1" || addr == "::ffff:127.0.0.1"
		if !loop || m[1] == "53" {
			out = append(out, strings.TrimSpace(line))
		} else {
			loopback++
		}
	}
	return out, loopback
}
