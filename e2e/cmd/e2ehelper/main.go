// Command e2ehelper is the end-to-end tests' companion program.
//
//	e2ehelper handler STEP ARG ...   a hookshim handler whose behaviour the test chooses
//	e2ehelper mock [-log FILE] [-command CMD] [-lifetime DUR]
//	                                 run the mock model alone, for debugging a client
//	e2ehelper bump [-cache DIR] [-only NAMES] FILE move every pin of versions.json FILE to the newest
//	                                 version npm has that installs and runs (within
//	                                 "range" where one is set)
//
// Handler steps run in order, after the envelope has been read from stdin:
//
//	record FILE     append the envelope (one line) to FILE
//	stdout TEXT     print TEXT
//	stderr TEXT     print TEXT on stderr
//	sleep DURATION  sleep (a handler that hangs past its timeout)
//	exit CODE       exit with CODE (a handler that crashes)
//	rewrite CMD     answer {"updated_input": …}: the call's tool_input with its
//	                command replaced by CMD (an argv array stays an array, a
//	                list of command lines becomes [CMD])
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/hookshim/hookshim/e2e/mockmodel"
	"github.com/hookshim/hookshim/e2e/pins"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: e2ehelper handler STEP ARG ... | e2ehelper mock [-log FILE]")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "handler":
		os.Exit(handler(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	case "mock":
		os.Exit(mock(os.Args[2:]))
	case "bump":
		os.Exit(bump(os.Args[2:]))
	}
	fmt.Fprintf(os.Stderr, "e2ehelper: unknown command %q\n", os.Args[1])
	os.Exit(2)
}

func handler(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	envelope, _ := io.ReadAll(stdin)
	for i := 0; i+1 < len(args); i += 2 {
		op, arg := args[i], args[i+1]
		switch op {
		case "record":
			f, err := os.OpenFile(arg, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				fmt.Fprintln(stderr, err)
				return 1
			}
			// One write per envelope: parallel handlers do not interleave.
			_, _ = f.Write(append(envelope, '\n'))
			_ = f.Close()
		case "stdout":
			fmt.Fprint(stdout, arg)
		case "stderr":
			fmt.Fprint(stderr, arg)
		case "sleep":
			d, err := time.ParseDuration(arg)
			if err != nil {
				fmt.Fprintln(stderr, err)
				return 1
			}
			time.Sleep(d)
		case "rewrite":
			out, err := rewrite(envelope, arg)
			if err != nil {
				fmt.Fprintln(stderr, err)
				return 1
			}
			fmt.Fprint(stdout, out)
		case "exit":
			code, err := strconv.Atoi(arg)
			if err != nil {
				fmt.Fprintln(stderr, err)
				return 1
			}
			return code
		default:
			fmt.Fprintf(stderr, "e2ehelper: unknown handler step %q\n", op)
			return 1
		}
	}
	if len(args)%2 != 0 {
		fmt.Fprintf(stderr, "e2ehelper: handler step %q has no argument\n", args[len(args)-1])
		return 1
	}
	return 0
}

// rewrite answers with the envelope's tool input, its command replaced.
func rewrite(envelope []byte, command string) (string, error) {
	input := gjson.GetBytes(envelope, "data.tool_input")
	if !input.IsObject() {
		return "", fmt.Errorf("e2ehelper: the envelope has no tool_input object")
	}
	key := "command"
	if !input.Get("command").Exists() && input.Get("cmd").Exists() {
		key = "cmd"
	}
	var value any = command
	switch {
	case !input.Get(key).Exists() && input.Get("commands").IsArray():
		// A list of command lines (Cline's run_commands).
		key, value = "commands", []string{command}
	case input.Get(key).IsArray():
		value = []string{"bash", "-lc", command}
	}
	updated, err := sjson.Set(input.Raw, key, value)
	if err != nil {
		return "", err
	}
	return `{"updated_input": ` + updated + `}`, nil
}

func mock(args []string) int {
	fs := flag.NewFlagSet("mock", flag.ContinueOnError)
	log := fs.String("log", "", "append one JSON line per request to this file")
	command := fs.String("command", "touch marker.txt", "the shell command the model asks for")
	lifetime := fs.Duration("lifetime", 10*time.Minute, "stop after this long")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	s, err := mockmodel.Start(mockmodel.Options{Command: *command, Log: *log, Lifetime: *lifetime})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(s.URL)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	select {
	case <-sig:
		s.Close()
	case <-s.Done():
	}
	return 0
}

// bump moves each pin of versions.json to the newest published version that
// installs and runs (pins.Bumper). It exits 1 when npm could not be asked
// about a package or a client is kept below its newest version, which is
// reported on stdout ("NOT AT THE NEWEST", with the reason) and copied by
// make e2e-bump into the drift report.
func bump(args []string) int {
	fs := flag.NewFlagSet("bump", flag.ContinueOnError)
	cache := fs.String("cache", ".e2e", "the folder clients are installed into")
	tries := fs.Int("tries", 3, "versions to try below the newest before keeping the pin")
	only := fs.String("only", "", "comma-separated pins to bump (default: all)")
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: e2ehelper bump [-cache DIR] e2e/versions.json")
		return 2
	}
	path := fs.Arg(0)
	all, err := pins.Read(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	b := pins.NewBumper(*cache, *tries)
	if *only != "" {
		b.Only = strings.Split(*only, ",")
	}
	ok := b.Bump(all, os.Stdout)
	if err := pins.Write(path, all); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if !ok {
		return 1
	}
	return 0
}
