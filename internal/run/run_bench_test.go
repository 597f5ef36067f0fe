package run

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/hookshim/hookshim/internal/config"
)

// The test binary doubles as the benchmark's handler: with this variable
// set it reads its envelope, denies and exits, as bench/handler does.
const handlerEnv = "HOOKSHIM_RUN_TEST_HANDLER"

func TestMain(m *testing.M) {
	if os.Getenv(handlerEnv) == "1" {
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Stdout.WriteString(`{"decision":"deny","reason":"no"}`)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// BenchmarkOneHandler is one handler run by the Runner, against "spawn":
// the least a Go program does to run the same handler (exec.Command, the
// envelope on stdin, stdout and stderr in buffers), the floor of the
// budget's one-handler ratio.
func BenchmarkOneHandler(b *testing.B) {
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	envelope := pieces(2 << 10)
	b.Run("spawn", func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command(self)
			cmd.Env = append(os.Environ(), handlerEnv+"=1")
			cmd.Stdin = reader(envelope)
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("runner", func(b *testing.B) {
		h := &config.Hook{Name: "h", Command: self, Dir: b.TempDir(), Timeout: 10 * time.Second,
			Env: []string{handlerEnv + "=1"}}
		r := &Runner{Env: os.Environ()}
		for b.Loop() {
			res := r.Run(context.Background(), []*config.Hook{h}, envelope)
			if res[0].Err != nil {
				b.Fatal(res[0].Err)
			}
		}
	})
}
