// Command handler is the trivial OpenHook handler of the process benchmark:
// it reads the envelope hookshim sends and denies a shell command that
// contains "rm -rf /", answering in the canonical schema. With -sleep it
// first waits, standing in for a policy that calls a service.
package main

import (
	"flag"
	"io"
	"os"
	"strings"
	"time"

	"github.com/tidwall/gjson"
)

func main() {
	sleep := flag.Duration("sleep", 0, "wait this long before answering")
	flag.Parse()
	env, err := io.ReadAll(os.Stdin)
	if err != nil {
		os.Exit(1)
	}
	if *sleep > 0 {
		time.Sleep(*sleep)
	}
	if strings.Contains(gjson.GetBytes(env, "data.command").Str, "rm -rf /") {
		_, _ = os.Stdout.Write([]byte(`{"decision":"deny","reason":"rm -rf / is not allowed"}`))
	}
}
