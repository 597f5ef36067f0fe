// Package otel checks deploy/otel/collector.yaml against a real
// OpenTelemetry Collector (make e2e-otel builds one with the filelog
// receiver and the file exporter): hookshim calls in, the decision log
// tailed by the collector, log records with semantic-convention
// attributes out of the file exporter. The collector opens no socket.
package otel

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// otlp is the part of the file exporter's OTLP JSON that is checked.
type otlp struct {
	ResourceLogs []struct {
		Resource struct {
			Attributes []kv `json:"attributes"`
		} `json:"resource"`
		ScopeLogs []struct {
			LogRecords []logRecord `json:"logRecords"`
		} `json:"scopeLogs"`
	} `json:"resourceLogs"`
}

type logRecord struct {
	TimeUnixNano   string `json:"timeUnixNano"`
	SeverityNumber int    `json:"severityNumber"`
	SeverityText   string `json:"severityText"`
	Body           value  `json:"body"`
	Attributes     []kv   `json:"attributes"`
	resource       []kv
}

type kv struct {
	Key   string `json:"key"`
	Value value  `json:"value"`
}

type value struct {
	StringValue *string  `json:"stringValue"`
	DoubleValue *float64 `json:"doubleValue"`
	KvlistValue *struct {
		Values []kv `json:"values"`
	} `json:"kvlistValue"`
}

func (v value) str() string {
	switch {
	case v.StringValue != nil:
		return *v.StringValue
	case v.DoubleValue != nil:
		return strconv.FormatFloat(*v.DoubleValue, 'f', -1, 64)
	}
	return ""
}

// attr finds an attribute by its key; a dotted path after "hookshim"
// reaches into the record kept under it.
func attr(attrs []kv, key string) (value, bool) {
	for _, a := range attrs {
		if a.Key == key {
			return a.Value, true
		}
	}
	if rest, ok := strings.CutPrefix(key, "hookshim."); ok {
		if h, ok := attr(attrs, "hookshim"); ok && h.KvlistValue != nil {
			return attr(h.KvlistValue.Values, rest)
		}
	}
	return value{}, false
}

func records(t *testing.T, path string) []logRecord {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []logRecord
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var doc otlp
		if json.Unmarshal(sc.Bytes(), &doc) != nil {
			continue // a line being written
		}
		for _, rl := range doc.ResourceLogs {
			for _, sl := range rl.ScopeLogs {
				for _, r := range sl.LogRecords {
					r.resource = rl.Resource.Attributes
					out = append(out, r)
				}
			}
		}
	}
	return out
}

type call struct {
	args    []string
	payload string
}

func TestCollector(t *testing.T) {
	if os.Getenv("HOOKSHIM_E2E_OTEL") != "1" {
		t.Skip("make e2e-otel runs this, with a collector it builds")
	}
	hookshim, collector := os.Getenv("HOOKSHIM_BIN"), os.Getenv("OTELCOL_BIN")
	require.NotEmpty(t, hookshim, "HOOKSHIM_BIN")
	require.NotEmpty(t, collector, "OTELCOL_BIN")
	config, err := filepath.Abs("../../deploy/otel/collector.yaml")
	require.NoError(t, err)

	dir := t.TempDir()
	project := filepath.Join(dir, "project")
	require.NoError(t, os.MkdirAll(project, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(project, ".openhook.json"), []byte(`{"spec": "hooks/0.1", "hooks": [
  {"name": "no-rm-rf", "event": "before_tool_execute", "matcher": "shell",
   "handler": {"type": "command", "command": "sh ./guard.sh"}}
]}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(project, "guard.sh"), []byte(`cat > in.json
if grep -q 'rm -rf' in.json; then echo '{"decision":"deny","reason":"not on this machine"}'; fi
`), 0o644))
	state := filepath.Join(dir, "state")
	logFile := filepath.Join(state, "hookshim", "calls.jsonl")
	out := filepath.Join(dir, "otel.json")
	env := append(os.Environ(), "HOME="+dir, "XDG_STATE_HOME="+state, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"XDG_RUNTIME_DIR="+filepath.Join(dir, "run"), "HOOKSHIM_TRUST_ALL=1", "HOOKSHIM_LOG=")

	run := func(c call, extra ...string) {
		cmd := exec.Command(hookshim, c.args...)
		cmd.Dir, cmd.Env, cmd.Stdin = project, append(env, extra...), strings.NewReader(c.payload)
		b, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", b)
	}
	const token = "ghp_0123456789abcdefghijABCDEFGHIJ0123"
	before := []call{
		{[]string{"run", "--provider", "claude-code"}, `{"session_id":"s-1","transcript_path":"/tmp/t.jsonl","cwd":"` + project + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`},
		{[]string{"run", "--provider", "claude-code"}, `{"session_id":"s-1","transcript_path":"/tmp/t.jsonl","cwd":"` + project + `","hook_event_name":"UserPromptSubmit","prompt":"hello"}`},
		{[]string{"run"}, `{"conversation_id":"c-2","generation_id":"g","cursor_version":"1.7.2","hook_event_name":"beforeShellExecution","command":"GITHUB_TOKEN=` + token + ` git push","cwd":"` + project + `","workspace_roots":["` + project + `"]}`},
	}
	// A small size cap: the log is rotated under these calls, and the
	// collector reads the rotated copy as well as the live file.
	for _, c := range before {
		run(c, "HOOKSHIM_LOG_MAX=3K")
	}
	_, err = os.Stat(logFile + ".1")
	require.NoError(t, err, "the log was rotated")

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	col := exec.CommandContext(ctx, collector, "--config", config)
	col.Env = append(os.Environ(), "HOOKSHIM_LOG_FILE="+logFile, "HOOKSHIM_OTEL_OUT="+out)
	var colOut bytes.Buffer
	col.Stdout, col.Stderr = &colOut, &colOut
	require.NoError(t, col.Start())
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			col.Process.Signal(syscall.SIGTERM)
			col.Wait()
		}
	}
	defer stop()
	wait := func(n int) []logRecord {
		for {
			if rs := records(t, out); len(rs) >= n {
				return rs
			}
			select {
			case <-ctx.Done():
				t.Fatalf("the collector exported %d of %d records; its output:\n%s", len(records(t, out)), n, colOut.String())
			case <-time.After(200 * time.Millisecond):
			}
		}
	}
	wait(3)
	if sockets, err := filepath.Glob("/proc/" + strconv.Itoa(col.Process.Pid) + "/fd/*"); err == nil {
		for _, fd := range sockets {
			link, _ := os.Readlink(fd)
			assert.False(t, strings.HasPrefix(link, "socket:"), "the collector opened a socket: %s", fd)
		}
	}
	// A call made while the collector runs is tailed too.
	run(call{[]string{"run", "--provider", "claude-code"}, `{"session_id":"s-3","transcript_path":"/tmp/t.jsonl","cwd":"` + project + `","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/etc/hosts"}}`})
	rs := wait(4)
	stop()
	require.Len(t, records(t, out), 4, "each call once")

	// The log is the source of truth: every record there is one log
	// record out of the collector, with its id.
	logged := map[string]map[string]any{}
	var data []byte
	for _, f := range []string{logFile + ".1", logFile} {
		b, err := os.ReadFile(f)
		if !os.IsNotExist(err) {
			require.NoError(t, err)
		}
		data = append(data, b...)
	}
	for _, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var m map[string]any
		require.NoError(t, json.Unmarshal(l, &m))
		logged[m["id"].(string)] = m
	}
	require.Len(t, logged, 4)
	byEvent := map[string]logRecord{}
	for _, r := range rs {
		id, ok := attr(r.Attributes, "log.record.uid")
		require.True(t, ok, "log.record.uid")
		rec, ok := logged[id.str()]
		require.True(t, ok, "log.record.uid %s is a logged call's id", id.str())
		name, _ := attr(r.Attributes, "event.name")
		assert.Equal(t, "hookshim.decision", name.str())
		svc, _ := attr(r.resource, "service.name")
		assert.Equal(t, "hookshim", svc.str())
		agent, _ := attr(r.Attributes, "gen_ai.agent.name")
		assert.Equal(t, rec["provider"], agent.str())
		native, _ := attr(r.Attributes, "hookshim.native_event")
		assert.Equal(t, rec["native_event"], native.str())
		ts, err := time.Parse(time.RFC3339Nano, rec["time"].(string))
		require.NoError(t, err)
		assert.Equal(t, strconv.FormatInt(ts.UnixNano(), 10), r.TimeUnixNano, "the record's time is the call's")
		assert.Equal(t, rec["decision"], r.Body.str(), "the body is the decision")
		byEvent[native.str()+"/"+agent.str()+"/"+rec["session"].(string)] = r
	}

	deny := byEvent["PreToolUse/claude-code/s-1"]
	assert.Equal(t, "deny", deny.SeverityText)
	assert.Equal(t, 13, deny.SeverityNumber, "a denial is WARN")
	for key, want := range map[string]string{
		"gen_ai.tool.name":     "shell",
		"session.id":           "s-1",
		"process.command_line": "rm -rf /",
		"hookshim.reason":      "not on this machine",
		"hookshim.native_tool": "Bash",
		"hookshim.exit":        "0",
	} {
		v, ok := attr(deny.Attributes, key)
		if assert.True(t, ok, key) {
			assert.Equal(t, want, v.str(), key)
		}
	}
	prompt := byEvent["UserPromptSubmit/claude-code/s-1"]
	assert.Equal(t, 9, prompt.SeverityNumber, "no opinion is INFO")
	_, ok := attr(prompt.Attributes, "gen_ai.tool.name")
	assert.False(t, ok, "no tool, no tool attribute")

	cursor := byEvent["beforeShellExecution/cursor/c-2"]
	v, _ := attr(cursor.Attributes, "hookshim.tool_version")
	assert.Equal(t, "1.7.2", v.str())
	v, _ = attr(cursor.Attributes, "process.command_line")
	assert.Equal(t, "GITHUB_TOKEN=[redacted] git push", v.str())

	read := byEvent["PreToolUse/claude-code/s-3"]
	v, _ = attr(read.Attributes, "file.path")
	assert.Equal(t, "/etc/hosts", v.str())

	all, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.NotContains(t, string(all), token, "no secret reaches the collector")
}
