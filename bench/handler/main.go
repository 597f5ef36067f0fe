// Command handler is the trivial OpenHook handler of the process benchmark:
// it reads the envelope hookshim sends and denies a shell command that
// contains "rm -rf /", answering in the canonical schema. With -sleep it
// first waits, standing in for a policy that calls a service. With
// -discard it reads the envelope to its end, keeps none of it and says
// nothing: the handler of the 10 MiB rows, whose own time is then a few
// milliseconds instead of the 60 to 140 that keeping 20 MiB costs (fresh
// pages and collections), a spread that buried hookshim's own time.
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
	discard := flag.Bool("discard", false, "read the envelope, keep nothing, answer nothing")
	flag.Parse()
	if *discard {
		if _, err := io.Copy(io.Discard, os.Stdin); err != nil {
			os.Exit(1)
		}
		return
	}
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
