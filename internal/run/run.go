// Package run executes the handlers that match an event: in parallel, each
// under its own deadline, in a process group of its own that is killed
// whole on timeout, once its answer is read, and when hookshim is sent
// SIGTERM or SIGINT, with the OpenHook envelope on stdin.
package run

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/decision"
)

// MaxOutput bounds what is read of a handler's stdout and of its stderr. A
// handler that prints more has failed: it is killed there, and its answer
// is not read.
const MaxOutput = 1 << 20

// WaitDelay is how long hookshim waits for a finished handler's pipes to
// close: children it forked may hold them open long after it exited.
const WaitDelay = 250 * time.Millisecond

// Result is what one handler did.
type Result struct {
	Hook     *config.Hook
	Output   decision.Output // the canonical answer (empty on error)
	Exit     int             // -1 when it did not exit by itself
	Err      error           // the handler failed (an *Error): not started, timed out, output over the cap or not an answer, exit not 0 or 2, stopped by a signal to hookshim
	TimedOut bool
	Duration time.Duration
	Stderr   string
	Async    bool
	// Exports is what the handler wrote into its Job.EnvFile (at most
	// MaxOutput bytes), nil when it wrote nothing or had none.
	Exports []byte
}

// Runner runs handlers.
type Runner struct {
	Env      []string  // the environment every handler gets (before its own env)
	Deadline time.Time // when hookshim must have answered; zero for none
}

// Job is one handler to run in this call, with what it is given and how
// its answer is read. The pipeline builds one per matched handler: how a
// handler type or dialect speaks is decided there, not here.
type Job struct {
	Hook *config.Hook
	// Input is what a command handler reads on stdin, in pieces written
	// one after the other (normalize.EnvelopeParts): a large tool output
	// is not joined into a copy.
	Input [][]byte
	// Env is added to the handler's environment after Runner.Env and
	// before the hook's own env.
	Env []string
	// Read turns what a command handler did (its exit code, stdout and
	// stderr) into the canonical answer. nil reads the OpenHook contract:
	// exit 0 with a JSON answer or nothing, exit 2 to block.
	Read func(exit int, stdout []byte, stderr string) (decision.Output, error)
	// Shell starts the command line the way the tool the handler was
	// written for does ({"sh", "-c"}: a script without a #! line runs as
	// a shell script); nil starts it hookshim's way (see command).
	Shell []string
	// EnvFile names a variable (CLAUDE_ENV_FILE) under which the handler
	// gets a fresh file of its own, empty, for `export NAME=value` lines;
	// what it wrote is the Result's Exports. "" for none.
	EnvFile string
	// Eval answers for a handler that runs no process of its own (rules,
	// built-in policies, http and prompt handlers). It must return by the
	// context's deadline. nil starts Hook.Command.
	Eval func(ctx context.Context) (decision.Output, error)
}

// Run runs the hooks with the envelope on stdin, each read by the OpenHook
// contract (see RunJobs).
func (r *Runner) Run(ctx context.Context, hooks []*config.Hook, envelope [][]byte) []Result {
	jobs := make([]Job, len(hooks))
	for i, h := range hooks {
		jobs[i] = Job{Hook: h, Input: envelope}
	}
	return r.RunJobs(ctx, jobs)
}

// RunJobs runs the jobs and returns their results in the jobs' order.
// Async hooks are started detached and reported as such.
//
// The last handler runs on the calling goroutine, the others each on one of
// their own: the common case of one handler then starts no goroutine, whose
// small first stack would be copied twice on the way into os/exec.
func (r *Runner) RunJobs(ctx context.Context, jobs []Job) []Result {
	results := make([]Result, len(jobs))
	last := -1
	for i := len(jobs) - 1; i >= 0; i-- {
		if !jobs[i].async() {
			last = i
			break
		}
	}
	// A tool that gives up on the call (SIGTERM, or SIGINT from a
	// terminal) stops hookshim, and with it every handler group it waits
	// for: handlers are in groups of their own, out of reach of the
	// signals sent to hookshim's. The watch is armed once the last
	// handler has started, and set up when they outlast watchDelay (see
	// watch).
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	w := &watch{cancel: cancel}
	defer w.stop()
	others := 0
	var wg sync.WaitGroup
	for i, j := range jobs {
		switch {
		case j.async():
			results[i] = r.startAsync(j)
		case i != last:
			others++
			wg.Add(1)
			go func(i int, j Job) {
				defer wg.Done()
				results[i] = r.runOne(ctx, j, nil)
			}(i, j)
		}
	}
	if last >= 0 {
		results[last] = r.runOne(ctx, jobs[last], w.arm)
		if others > 0 {
			// Should the last handler not have started, the others are
			// watched all the same (arm does nothing the second time).
			w.arm()
		}
	}
	wg.Wait()
	return results
}

func (r *Runner) timeout(h *config.Hook) time.Duration {
	d := h.Timeout
	if !r.Deadline.IsZero() {
		if left := time.Until(r.Deadline); left < d {
			d = left
		}
	}
	if d <= 0 {
		d = time.Millisecond
	}
	return d
}

// async reports whether the job is started and left to run: only a
// process can outlive the call.
func (j Job) async() bool { return j.Hook.Async && j.Eval == nil }

// runOne runs one handler; started, when not nil, is called once its
// process has started, while it runs.
func (r *Runner) runOne(ctx context.Context, j Job, started func()) (res Result) {
	h := j.Hook
	res = Result{Hook: h, Exit: -1}
	limit := r.timeout(h)
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	if j.Eval != nil {
		return r.eval(ctx, j, res, limit)
	}
	envelope := j.Input
	cmd, err := j.command(ctx)
	if err != nil {
		res.Err = err
		return res
	}
	env := j.Env
	if j.EnvFile != "" {
		f, err := newEnvFile()
		if err != nil {
			res.Err = failed(j.EnvFile+": "+err.Error(), "")
			return res
		}
		defer os.Remove(f)
		defer func() { res.Exports = readEnvFile(f) }()
		env = append(slices.Clip(env), j.EnvFile+"="+f)
	}
	cmd.Env = environ(r.Env, env, h.Env)
	setGroup(cmd)
	// Past the cap the handler is stopped where it stands (cmd.Cancel
	// kills its group): the rest of its output is never read, and a
	// handler that keeps writing neither blocks on a full pipe nor keeps
	// hookshim reading.
	stdout, stderr := capped{stop: cmd.Cancel}, capped{stop: cmd.Cancel}
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = WaitDelay
	start := time.Now()
	if size(envelope) > bigEnvelope {
		err = runFed(cmd, envelope, started)
	} else {
		cmd.Stdin = reader(envelope)
		if err = cmd.Start(); err == nil {
			if started != nil {
				started()
			}
			err = cmd.Wait()
		}
	}
	// The answer is read: whatever the handler left running in its group
	// goes now (async handlers, which may outlive the call, are started
	// in sessions of their own by startAsync and never come here).
	killGroup(cmd)
	res.Duration = time.Since(start)
	res.Stderr = strings.TrimSpace(stderr.String())
	if cmd.ProcessState != nil {
		res.Exit = cmd.ProcessState.ExitCode()
	}
	// A handler that exited by itself has answered, even when the deadline
	// passed while hookshim reaped it or waited out WaitDelay for a child
	// holding its pipes: its answer is whole, and the call still has the
	// margin before the tool's own timeout to give it. Only a handler the
	// deadline or a signal killed has no answer.
	exited := exitedByItself(cmd.ProcessState)
	if ctx.Err() == context.DeadlineExceeded && !exited {
		res.TimedOut = true
		res.Exit = -1
		if h.Blocking && h.TimeoutAction == "block" {
			res.Output = decision.Output{Handler: h.Name, Decision: decision.Deny,
				Reason: fmt.Sprintf("%s timed out after %s", h.Name, h.Timeout)}
			return res
		}
		res.Err = timedOut(h, limit)
		return res
	}
	if ctx.Err() != nil && !exited {
		res.Err = &Error{Kind: Stopped, Msg: fmt.Sprintf("stopped: %v; its process group was killed", context.Cause(ctx))}
		return res
	}
	if stdout.over || stderr.over {
		stream := "stdout"
		if stderr.over {
			stream = "stderr"
		}
		res.Err = failed(fmt.Sprintf("printed more than %d bytes on %s; it was killed and its answer was not read", MaxOutput, stream),
			"print one JSON answer on stdout; send logs to a file")
		return res
	}
	// A handler that exited was started: the error Wait gives it then is
	// the context's, when the deadline came as it was being reaped.
	var exitErr *exec.ExitError
	if err != nil && !exited && !errors.As(err, &exitErr) && !errors.Is(err, exec.ErrWaitDelay) {
		res.Err = notStarted(h, err)
		return res
	}
	if j.Read != nil && res.Exit >= 0 && res.Exit != 126 && res.Exit != 127 {
		out, rerr := j.Read(res.Exit, stdout.Bytes(), res.Stderr)
		if rerr != nil {
			res.Err = failed(rerr.Error(), "")
			return res
		}
		out.Handler = h.Name
		res.Output = out
		return res
	}
	switch res.Exit {
	case 0:
		out, perr := decision.Parse(h.Name, stdout.Bytes())
		if perr != nil {
			res.Err = failed("exit 0 but "+perr.Error(),
				`print one JSON object such as {"decision":"deny","reason":"…"}, or nothing, on stdout; logs go to stderr`)
			return res
		}
		res.Output = out
	case 2:
		if !h.Blocking {
			res.Err = failed(`exited 2 but is not "blocking": treated as a warning`+firstLine(res.Stderr),
				fmt.Sprintf(`set "blocking": true at %s to let it block`, where(h)))
			return res
		}
		reason := res.Stderr
		if reason == "" {
			reason = "blocked by " + h.Name
		}
		res.Output = decision.Output{Handler: h.Name, Decision: decision.Deny, Reason: reason}
	case 126, 127:
		// The shell (or env, for a #!/usr/bin/env line) could not run
		// the command.
		res.Err = notRun(res.Exit, res.Stderr)
	default:
		res.Err = failed(fmt.Sprintf("exited %d%s", res.Exit, firstLine(res.Stderr)), "")
	}
	return res
}

// watch cancels the handlers' context when hookshim is sent SIGTERM or
// SIGINT, from start to stop; stop gives the signals back to their default
// action. A signal hookshim was started ignoring (nohup, a background job)
// stays ignored.
//
// The watch is armed once the last handler has started, and set up only
// when the handlers are still running watchDelay later. Setting it up is
// the costliest part of running a quick handler: the first signal.Notify
// of a process starts the runtime's signal loop, and a goroutine locked to
// a thread of its own, which takes the runtime's template thread: three to
// five threads more than the call would start (measured on a 2-CPU virtual
// machine where a process start costs 5 ms: 2.5 ms of CPU and 1 ms of a
// 23 ms call that runs one compiled handler). 50 ms lets a compiled or
// shell handler, and most scripts, answer before it is needed there,
// while a tool gives up on a call after seconds, not milliseconds.
// Before the watch is up a signal has its default action: hookshim ends,
// and the handler it started is killed by the kernel (SIGKILL as its
// parent's death signal, on Linux; proc_linux.go), though not the children
// that handler started. stop ends the watch on its own goroutine:
// signal.Stop waits for the signal loop to be idle, which the answer need
// not wait for (a signal then is swallowed, while hookshim is answering
// anyway).
type watch struct {
	cancel context.CancelCauseFunc

	mu      sync.Mutex
	timer   *time.Timer   // armed, nil until then
	done    chan struct{} // set up, nil until then
	stopped bool
}

// watchDelay is how long handlers run before the watch is set up.
const watchDelay = 50 * time.Millisecond

// arm sets the watch up after watchDelay, unless it is stopped first.
func (w *watch) arm() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.timer == nil && !w.stopped {
		w.timer = time.AfterFunc(watchDelay, w.start)
	}
}

// start sets the watch up now.
func (w *watch) start() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done != nil || w.stopped {
		return
	}
	w.done = make(chan struct{})
	sigs := make([]os.Signal, 0, 2)
	for _, s := range []os.Signal{syscall.SIGTERM, os.Interrupt} {
		if !signal.Ignored(s) {
			sigs = append(sigs, s)
		}
	}
	if len(sigs) == 0 {
		return
	}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, sigs...)
	done := w.done
	go func() {
		defer signal.Stop(ch)
		select {
		case s := <-ch:
			w.cancel(fmt.Errorf("%v signal received", s))
		case <-done:
		}
	}()
}

func (w *watch) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopped = true
	if w.timer != nil {
		w.timer.Stop()
	}
	if w.done != nil {
		close(w.done)
	}
}

// startAsync starts a fire-and-forget handler: detached into its own
// session, stdout and stderr closed, the envelope on stdin through an
// unlinked temporary file so that hookshim need not stay to feed a pipe.
func (r *Runner) startAsync(j Job) Result {
	h, envelope := j.Hook, j.Input
	res := Result{Hook: h, Exit: -1, Async: true}
	cmd, err := j.command(context.Background())
	if err != nil {
		res.Err = err
		return res
	}
	f, err := os.CreateTemp("", "hookshim-async-*")
	if err != nil {
		res.Err = failed("async: "+err.Error(), "")
		return res
	}
	defer f.Close()
	defer os.Remove(f.Name())
	if _, err := io.Copy(f, reader(envelope)); err != nil {
		res.Err = failed("async: "+err.Error(), "")
		return res
	}
	if _, err := f.Seek(0, 0); err != nil {
		res.Err = failed("async: "+err.Error(), "")
		return res
	}
	cmd.Env = environ(r.Env, j.Env, h.Env)
	cmd.Stdin = f
	detach(cmd)
	if err := cmd.Start(); err != nil {
		res.Err = notStarted(h, err)
		return res
	}
	_ = cmd.Process.Release()
	return res
}

// command builds the handler's process. A plain command line is split with
// shell quoting rules and run directly (one process fewer on every call);
// one that needs a shell (pipes, redirections, variables, globs...) runs
// under the system's shell (argv). An interpreter whose script is missing
// is not started.
func command(ctx context.Context, h *config.Hook) (*exec.Cmd, error) {
	args, direct := argvHere(h.Command)
	if direct {
		if err := missingScript(h, args); err != nil {
			return nil, err
		}
		args[0] = resolve(h, args[0])
	}
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	if !direct {
		shellLine(cmd)
	}
	cmd.Dir = h.Dir
	return cmd, nil
}

// command is Job.Shell with the command line when set, else command.
func (j Job) command(ctx context.Context) (*exec.Cmd, error) {
	if len(j.Shell) == 0 {
		return command(ctx, j.Hook)
	}
	cmd := exec.CommandContext(ctx, j.Shell[0], append(j.Shell[1:len(j.Shell):len(j.Shell)], j.Hook.Command)...)
	cmd.Dir = j.Hook.Dir
	return cmd, nil
}

// newEnvFile creates an empty file for one handler's exports, readable by
// this user alone (they may hold tokens), and returns its path.
func newEnvFile() (string, error) {
	f, err := os.CreateTemp("", "hookshim-env-*")
	if err != nil {
		return "", err
	}
	return f.Name(), f.Close()
}

// readEnvFile reads what a handler wrote into its env file, nil for
// nothing.
func readEnvFile(path string) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, MaxOutput))
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	return b
}

// environ is a handler's environment: hookshim's, then the job's (a
// dialect's variables), then the hook's own. A NUL byte cannot cross into a process's environment (the system ends
// the value there, and os/exec refuses to start the process at all), and
// values come from payloads (session_id, cwd) and configs: each NUL
// becomes U+FFFD, as invalid UTF-8 in a payload does.
func environ(base []string, more ...[]string) []string {
	n := len(base)
	for _, m := range more {
		n += len(m)
	}
	env := make([]string, 0, n)
	env = append(env, base...)
	for _, m := range more {
		env = append(env, m...)
	}
	for i, kv := range env {
		if strings.IndexByte(kv, 0) >= 0 {
			env[i] = strings.ReplaceAll(kv, "\x00", "\uFFFD")
		}
	}
	return env
}

// capped keeps at most MaxOutput bytes of a handler's stream. The
// buffer is a field, not embedded: an embedded bytes.Buffer's ReadFrom
// would be what os/exec's copy calls, and it reads the whole stream past
// any cap (a handler printing 1 GB took 3 GB of memory).
type capped struct {
	buf  bytes.Buffer
	over bool
	stop func() error // kills the handler (its group)
}

// errOverCap ends os/exec's copy of the stream: it then closes its end of
// the pipe, so that a handler still writing gets EPIPE instead of waiting.
var errOverCap = errors.New("output over the cap")

func (c *capped) Write(p []byte) (int, error) {
	room := MaxOutput - c.buf.Len()
	if len(p) <= room {
		return c.buf.Write(p)
	}
	if !c.over {
		c.over = true
		c.buf.Write(p[:room])
		if c.stop != nil {
			_ = c.stop()
		}
	}
	return room, errOverCap
}

func (c *capped) Bytes() []byte  { return c.buf.Bytes() }
func (c *capped) String() string { return c.buf.String() }

func firstLine(s string) string {
	if s == "" {
		return ""
	}
	line, _, _ := strings.Cut(s, "\n")
	if len(line) > 200 {
		line = line[:200] + "…"
	}
	return ": " + line
}

func round(d time.Duration) time.Duration {
	if d > time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Millisecond)
}

// bigEnvelope is the size past which a handler gets its envelope through a
// pipe hookshim sizes itself: a pipe holds 64 KiB by default, and a 10 MiB
// tool output (twice in the envelope: in data and in the payload) would
// otherwise cross in hundreds of writes, each waiting for the handler to
// read the one before.
const bigEnvelope = 64 << 10

func size(pieces [][]byte) int {
	n := 0
	for _, p := range pieces {
		n += len(p)
	}
	return n
}

// runFed runs cmd with the envelope written into a pipe enlarged to the
// envelope's size (up to what the system allows; growPipe). It is
// cmd.Run with stdin fed by hookshim instead of by os/exec, which cannot
// size its pipe.
func runFed(cmd *exec.Cmd, envelope [][]byte, started func()) error {
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	growPipe(w, size(envelope))
	cmd.Stdin = r
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return err
	}
	r.Close() // the handler has it now
	if started != nil {
		started()
	}
	fed := make(chan struct{})
	go func() {
		defer close(fed)
		for _, p := range envelope {
			// A handler that exits without reading it all is its own
			// business (EPIPE): it is judged by its exit and its answer.
			if _, err := w.Write(p); err != nil {
				break
			}
		}
		w.Close()
	}()
	err = cmd.Wait()
	// The handler is gone, but a child it left behind may hold the pipe
	// without reading it: closing our end ends the write.
	w.Close()
	<-fed
	return err
}

// reader reads the envelope's pieces one after the other. (io.MultiReader
// hands each piece whole to the writer: a large one is written from where
// it lies.)
func reader(pieces [][]byte) io.Reader {
	rs := make([]io.Reader, len(pieces))
	for i, p := range pieces {
		rs[i] = bytes.NewReader(p)
	}
	return io.MultiReader(rs...)
}
