package config

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/remotecall"
	"github.com/tidwall/gjson"
)

// Remote is what an http or prompt handler asks of a server: hookshim
// sends it through hookshim-remote (internal/remote), a program of its
// own, so that the HTTP and TLS code is not loaded by the calls that send
// nothing (every call starts a fresh process, and loading costs time).
type Remote struct {
	// http
	URL    string      // where the envelope is POSTed
	Wrap   string      // a key to send the envelope under ({"input": envelope} for OPA's data API); "" to send it as it is
	Result string      // a gjson path to the answer inside the response ("result" for OPA's data API); "" for the whole body
	Header [][2]string // name, value as written: ${VAR} and $VAR are expanded from the environment at call time
	// AllowedEnv names the variables a header may use (Claude Code's
	// allowedEnvVars): any other $VAR is sent empty, with a warning, so
	// that a config cannot send a secret of the environment it runs in to
	// its server without naming it. No list: no variable is expanded.
	AllowedEnv []string

	// prompt
	Prompt    string // the prompt, $ARGUMENTS in place of the event's JSON
	Model     string
	BaseURL   string
	APIKeyEnv string
	API       string // "openai", "anthropic", or "" to choose from the environment
	// AllowRewrite: the model's answer may rewrite the tool's input (the
	// rewrite is checked by the call's other hooks again); without it an
	// answer with updated_input is the handler's failure.
	AllowRewrite bool
	// AllowApprove: the model's allow may approve the call over the tool's
	// own permission prompt; without it an allow is "no objection".
	AllowApprove bool

	// AllowHTTP lets plain http:// reach a host that is not this machine.
	AllowHTTP bool
}

// DefaultModel is the model a prompt handler asks of api when the config
// names none: a small, fast one, as a judge of one tool call needs. A
// switch, not a map literal, which every process would build at start.
func DefaultModel(api string) string {
	switch api {
	case remotecall.OpenAI:
		return "gpt-4o-mini"
	case remotecall.Anthropic:
		return "claude-haiku-4-5"
	}
	return ""
}

// remote parses an http or prompt handler. Its fields are those of a
// command handler that still mean something without a process (timeout,
// timeout_action, status_message; async for http) and its own.
func (p *parser) remote(h *Hook, v gjson.Result, typ string) {
	r := &Remote{}
	h.Type, h.Remote = typ, r
	var urlAt, baseAt gjson.Result
	known := "type, url, headers, allowed_env_vars, wrap, result, allow_http, timeout, timeout_action, async, status_message, dialect"
	if typ == "prompt" {
		known = "type, prompt, model, base_url, api_key_env, api, headers, allowed_env_vars, allow_http, allow_rewrite, allow_approve, timeout, timeout_action, status_message"
	}
	v.ForEach(func(k, val gjson.Result) bool {
		key := k.Str
		switch {
		case key == "type" || key == "status_message":
			p.str(val, key)
		case key == "timeout":
			h.Timeout = p.timeout(val)
		case key == "timeout_action":
			a := p.str(val, "timeout_action")
			if a != "warn" && a != "block" && p.err == nil {
				p.fail(val, `"timeout_action" must be "warn" or "block"`)
			}
			h.TimeoutAction = a
		case key == "headers":
			r.Header = p.headers(val)
		case key == "allowed_env_vars":
			r.AllowedEnv = p.envNames(val)
		case key == "allow_http":
			r.AllowHTTP = p.boolean(val, key)
		case typ == "http" && key == "url":
			urlAt, r.URL = val, p.str(val, key)
		case typ == "http" && key == "wrap":
			r.Wrap = p.str(val, key)
		case typ == "http" && key == "result":
			r.Result = p.str(val, key)
		case typ == "http" && key == "async":
			h.Async = p.boolean(val, key)
		case typ == "http" && key == "dialect":
			h.Dialect = p.str(val, key)
		case typ == "prompt" && key == "prompt":
			r.Prompt = p.str(val, key)
		case typ == "prompt" && key == "model":
			r.Model = p.str(val, key)
		case typ == "prompt" && key == "base_url":
			baseAt, r.BaseURL = val, p.str(val, key)
		case typ == "prompt" && key == "api_key_env":
			r.APIKeyEnv = p.str(val, key)
		case typ == "prompt" && key == "allow_rewrite":
			r.AllowRewrite = p.boolean(val, key)
		case typ == "prompt" && key == "allow_approve":
			r.AllowApprove = p.boolean(val, key)
		case typ == "prompt" && key == "api":
			r.API = p.str(val, key)
			if r.API != remotecall.OpenAI && r.API != remotecall.Anthropic && p.err == nil {
				p.fail(val, `"api" must be "openai" or "anthropic"`)
			}
		default:
			p.fail(k, fmt.Sprintf("unknown field %q in %s handler%s (known: %s)", key, typ, DidYouMean(key, strings.Split(known, ", ")), known))
		}
		return p.err == nil
	})
	if p.err != nil {
		return
	}
	switch typ {
	case "http":
		if !urlAt.Exists() {
			p.fail(v, `an http handler needs "url"`)
		} else if err := remotecall.CheckURL(r.URL, r.AllowHTTP); err != nil {
			p.fail(urlAt, err.Error())
		}
	case "prompt":
		if strings.TrimSpace(r.Prompt) == "" {
			p.fail(v, `a prompt handler needs a non-empty "prompt"`)
		} else if baseAt.Exists() {
			if err := remotecall.CheckURL(r.BaseURL, r.AllowHTTP); err != nil {
				p.fail(baseAt, `"base_url": `+err.Error())
			}
		}
	}
}

func (p *parser) headers(v gjson.Result) [][2]string {
	if !v.IsObject() {
		p.fail(v, `"headers" must be an object of strings`)
		return nil
	}
	var out [][2]string
	v.ForEach(func(k, val gjson.Result) bool {
		s := p.str(val, "headers."+k.Str)
		if strings.ContainsAny(k.Str+s, "\r\n") && p.err == nil {
			p.fail(val, "a header must not contain a line break")
		}
		out = append(out, [2]string{k.Str, s})
		return p.err == nil
	})
	return out
}

// UnlistedEnv is a variable a handler's header expands that
// "allowed_env_vars" does not name: the header is sent with it empty.
type UnlistedEnv struct {
	Header string // the header's name
	Var    string // the variable, as os.Expand reads it after "$"
}

// Allows reports whether a header may expand the variable v: only a
// variable "allowed_env_vars" names is read from the environment.
func (r *Remote) Allows(v string) bool { return slices.Contains(r.AllowedEnv, v) }

// Unlisted lists the variables r's headers expand (${VAR} and $VAR, read
// as os.Expand reads them when the handler is sent) that Allows refuses,
// each once per header, in the order written: what doctor names before
// the first call sends them empty.
func (r *Remote) Unlisted() []UnlistedEnv {
	var out []UnlistedEnv
	for _, h := range r.Header {
		os.Expand(h[1], func(v string) string {
			if u := (UnlistedEnv{h[0], v}); !r.Allows(v) && !slices.Contains(out, u) {
				out = append(out, u)
			}
			return ""
		})
	}
	return out
}

// envNames parses "allowed_env_vars": bare variable names, as the
// environment spells them. "$TOKEN" would never match a header's $TOKEN,
// and a list that silently matches nothing sends the token empty.
func (p *parser) envNames(v gjson.Result) []string {
	if !v.IsArray() {
		p.fail(v, `"allowed_env_vars" must be a list of variable names`)
		return nil
	}
	var out []string
	v.ForEach(func(_, val gjson.Result) bool {
		s := p.str(val, "allowed_env_vars")
		if p.err == nil && !IsEnvName(s) {
			p.fail(val, fmt.Sprintf(`"allowed_env_vars": %q is not a variable name (write it without "$" or braces)`, s))
		}
		out = append(out, s)
		return p.err == nil
	})
	return out
}

// IsEnvName reports whether s is a variable name a header can use: a
// letter or "_", then letters, digits and "_" (what os.Expand reads
// after "$").
func IsEnvName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, c := range s {
		if c != '_' && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// Endpoint is where a prompt handler's model answers.
type Endpoint struct {
	API    string // remotecall.OpenAI or remotecall.Anthropic
	URL    string // the request URL: …/chat/completions or …/v1/messages
	Model  string
	KeyEnv string // the variable holding the API key
}

// ErrNoEndpoint is a prompt handler's failure to find any model endpoint:
// the handler then follows its llm_evaluated degradation.
var ErrNoEndpoint = errors.New("no model endpoint configured")

// Endpoint finds the model a prompt handler asks: the handler's own
// base_url, api and api_key_env first, then the conventional variables of
// the two APIs' own SDKs. OPENAI_BASE_URL includes the version path
// ("https://api.openai.com/v1"), to which /chat/completions is added;
// ANTHROPIC_BASE_URL does not ("https://api.anthropic.com"), and
// /v1/messages is added.
func (r *Remote) Endpoint(getenv func(string) string) (Endpoint, error) {
	api, base := r.API, r.BaseURL
	if api == "" {
		switch {
		case base != "":
			// A server named by hand is most often a local one, and
			// those speak OpenAI's API.
			api = remotecall.OpenAI
		case getenv("ANTHROPIC_BASE_URL") != "" || getenv("ANTHROPIC_API_KEY") != "":
			api = remotecall.Anthropic
		case getenv("OPENAI_BASE_URL") != "" || getenv("OPENAI_API_KEY") != "":
			api = remotecall.OpenAI
		default:
			return Endpoint{}, ErrNoEndpoint
		}
	}
	ep := Endpoint{API: api, Model: r.Model, KeyEnv: r.APIKeyEnv}
	if ep.KeyEnv == "" {
		ep.KeyEnv = strings.ToUpper(api) + "_API_KEY"
	}
	if ep.Model == "" {
		ep.Model = DefaultModel(api)
	}
	if base == "" {
		base = getenv(strings.ToUpper(api) + "_BASE_URL")
	}
	if base == "" {
		if getenv(ep.KeyEnv) == "" {
			return Endpoint{}, ErrNoEndpoint
		}
		base = map[string]string{remotecall.OpenAI: "https://api.openai.com/v1", remotecall.Anthropic: "https://api.anthropic.com"}[api]
	}
	if err := remotecall.CheckURL(base, r.AllowHTTP); err != nil {
		return Endpoint{}, err
	}
	base = strings.TrimRight(base, "/")
	if api == remotecall.Anthropic {
		// A base given with its version path is taken as meant.
		base = strings.TrimSuffix(base, "/v1")
		ep.URL = base + "/v1/messages"
	} else {
		ep.URL = base + "/chat/completions"
	}
	return ep, nil
}

// Helper finds hookshim-remote: next to the running hookshim (where make
// build and the release archives put it), else in PATH.
func Helper(lookPath LookPath) (string, error) {
	name := programFile(runtime.GOOS, remotecall.Program)
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		p := filepath.Join(filepath.Dir(exe), name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	return lookPath(remotecall.Program)
}

// Problem kinds of http and prompt handlers.
const (
	NoHelper   = "no-helper"    // hookshim-remote is not installed
	NoEndpoint = "no-endpoint"  // a prompt handler finds no model
	Unlisted   = "unlisted-env" // a header expands a variable "allowed_env_vars" does not name
)

// HelperFix is how to get hookshim-remote.
const HelperFix = "install it next to hookshim: every release archive, install.sh and the npm package carry both; in a checkout, go install ./cmd/... installs both"

// checkRemote is the check of an http or prompt handler at allow, status
// and doctor time: the helper that sends it is there, and a prompt
// handler finds a model in this environment (a tool started from here
// has the same variables).
func (h *Hook) checkRemote(lookPath LookPath) []Problem {
	var out []Problem
	add := func(kind, path, msg, fix string) {
		out = append(out, Problem{Hook: h.Name, Pos: h.Pos, Kind: kind, Path: path, Msg: msg, Fix: fix})
	}
	if _, err := Helper(lookPath); err != nil {
		add(NoHelper, remotecall.Program, remotecall.Program+", which sends "+h.Type+" handlers, is neither next to hookshim nor in PATH", HelperFix)
	}
	if h.Type == "prompt" {
		// The environment of this process, as exec.LookPath reads its
		// PATH: a tool started from here has the same variables.
		if _, err := h.Remote.Endpoint(os.Getenv); err != nil {
			msg := err.Error()
			if errors.Is(err, ErrNoEndpoint) {
				msg = "no model endpoint here: " + map[string]string{
					"exclude": "the handler is left out of every call",
					"warn":    "every call it matches warns and goes on without it",
					"block":   "every call it matches is denied",
				}[Degradation(h)] + " (degradation llm_evaluated: " + Degradation(h) + ")"
				if h.Degradation["llm_evaluated"] == "" && (h.Blocking || h.OnError == "deny") {
					// Never left out in silence: see pipeline's degradePrompt.
					msg = "no model endpoint here: the blocking handler cannot run, so every call it matches is put to the user (denied under on_error: deny)"
				}
			}
			add(NoEndpoint, "", msg, `set ANTHROPIC_API_KEY or OPENAI_API_KEY (OPENAI_BASE_URL for a local server), or "base_url" in the handler`)
		}
	}
	return out
}

// Degradation is what a prompt handler without a model does, as its
// llm_evaluated strategy says: "exclude" (the default), "warn" or "block".
func Degradation(h *Hook) string {
	if s := h.Degradation["llm_evaluated"]; s != "" {
		return s
	}
	return "exclude"
}

// programFile is the file name of a program on the system goos.
func programFile(goos, name string) string {
	if goos == "windows" {
		return name + ".exe"
	}
	return name
}
