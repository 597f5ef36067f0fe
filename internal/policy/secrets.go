package policy

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/tidwall/gjson"
)

var secretFiles = &spec{
	Info: Info{
		Name:    "hookshim/secret-files",
		Summary: "deny reading or writing files that hold secrets, through file tools and shell commands",
		Events:  toolEvents,
		Catches: "file tools (read, write, edit, search) whose path is a secret file, and shell commands that name one " +
			"as an argument, an `--option=value` or a redirection (`cat .env`, `cp .env /tmp/x`, `grep KEY .env.local`, " +
			"`echo x >> ~/.aws/credentials`, `git add .env`). Secret files: `.env`, `.env.*`, `*.pem`, `*.key`, `*.p12`, " +
			"`*.pfx`, `*.keystore`, `*.jks`, SSH private keys (`id_rsa`, `id_ed25519`, … and anything in `~/.ssh` but " +
			"`*.pub`, `known_hosts`, `config`), `.netrc`, `.pgpass`, `.git-credentials`, `.aws/credentials`, " +
			"`.docker/config.json`, `.kube/config`, `credentials.json`, `*.tfvars`, `terraform.tfstate`, " +
			"`.gnupg/*`; `.npmrc`, `.pypirc` and `.yarnrc.yml` when they hold a credential (`_authToken`, `password`, …: the file on disk " +
			"and what is being written are read; one in the home folder, which hookshim cannot find, counts as holding one). A glob that starts with a literal part matching one counts (`cat .env*`).",
		Misses: "`.env.example`, `.env.sample`, `.env.template`, `.env.dist` and the like (`.env.local.example`: templates; see allow), names printed by `echo`/`printf` " +
			"and files opened by `source`/`.` (which run them without showing them) or only listed, deleted or chmod-ed (`ls`, `stat`, `rm`, `chmod`), files reached through variables or " +
			"globs that start with a wildcard (`cat *`), other tools reading them (`docker run --env-file`, a test " +
			"that loads .env), and secrets in files with ordinary names.",
		Params: []Param{
			{"allow", "array of globs", "files that may be read and written although they match, e.g. `[\".env.test\"]`; matched against the name, or the path's end when the glob has a `/`"},
			{"files", "array of globs", "more secret files, same form, e.g. `[\"secrets/*.yaml\"]`"},
		},
		Denied: []Example{
			{Tool: event.ToolFileRead, Text: ".env"},
			{Tool: event.ToolFileRead, Text: "/home/u/.ssh/id_ed25519"},
			{Tool: event.ToolFileEdit, Text: "config/.env.production"},
			{Tool: event.ToolFileWrite, Text: "/home/u/.aws/credentials"},
			{Tool: event.ToolFileRead, Text: "certs/server.key"},
			{Tool: event.ToolShell, Text: "cat .env"},
			{Tool: event.ToolShell, Text: "cp .env /tmp/env-copy"},
			{Tool: event.ToolShell, Text: "grep -n KEY .env.local"},
			{Tool: event.ToolShell, Text: "cat .env*"},
			{Tool: event.ToolShell, Text: "echo 'TOKEN=x' >> .env"},
			{Tool: event.ToolShell, Text: "sudo cat ~/.ssh/id_rsa"},
			{Tool: event.ToolShell, Text: "base64 < ~/.netrc"},
			{Tool: event.ToolShell, Text: "tar czf /tmp/k.tgz ~/.kube/config"},
			{Tool: event.ToolFileRead, Text: "secrets/prod.yaml", With: `{"files": ["secrets/*.yaml"]}`},
		},
		Allowed: []Example{
			{Tool: event.ToolFileRead, Text: ".env.example"},
			{Tool: event.ToolFileRead, Text: "src/environment.ts"},
			{Tool: event.ToolFileRead, Text: "/home/u/.ssh/id_ed25519.pub"},
			{Tool: event.ToolFileRead, Text: "docs/keys.md"},
			{Tool: event.ToolShell, Text: "echo .env >> .gitignore"},
			{Tool: event.ToolShell, Text: "cp .env.example .env.sample"},
			{Tool: event.ToolShell, Text: "source .env && npm start"},
			{Tool: event.ToolShell, Text: "ls -la"},
			{Tool: event.ToolShell, Text: `git commit -m "stop reading .env"`},
			{Tool: event.ToolFileRead, Text: ".env.test", With: `{"allow": [".env.test"]}`},
		},
	},
	compile: func(p *params) (func(ev *event.Event) string, error) {
		allow := p.strs("allow")
		extra := p.strs("files")
		p.checkGlobs("allow", allow)
		p.checkGlobs("files", extra)
		files, ok := defaultSecrets(), defaultAllow()
		if len(extra) > 0 {
			files = compileGlobs(append(append([]string{}, secretGlobs...), extra...))
		}
		if len(allow) > 0 {
			ok = compileGlobs(append(append([]string{}, secretAllow...), allow...))
		}
		return func(ev *event.Event) string { return secretFile(ev, files, ok) }, nil
	},
}

// secretGlobs are matched against a path's last elements (as many as the
// glob has).
var secretGlobs = []string{
	".env", ".env.*", "*.pem", "*.key", "*.p12", "*.pfx", "*.keystore", "*.jks",
	"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk", ".ssh/*",
	".netrc", "_netrc", ".pgpass", ".git-credentials", ".aws/credentials", ".docker/config.json",
	".kube/config", ".npmrc", ".pypirc", ".yarnrc.yml", "credentials.json", "*.tfvars", "terraform.tfstate", ".gnupg/*",
}

// secretAllow are look-alikes that hold no secrets.
var secretAllow = []string{
	".env*.example", ".env*.sample", ".env*.template", ".env*.dist", ".env.defaults",
	"*.pub", ".ssh/known_hosts", ".ssh/known_hosts.old", ".ssh/config", ".ssh/authorized_keys",
}

// The default patterns, split once per process when first used.
var (
	defaultSecrets = sync.OnceValue(func() globs { return compileGlobs(secretGlobs) })
	defaultAllow   = sync.OnceValue(func() globs { return compileGlobs(secretAllow) })
)

func isSecret(p string, files, allow globs) bool {
	p = strings.TrimSuffix(p, "/")
	if p == "" {
		return false
	}
	parts := strings.Split(p, "/")
	return files.matchTail(parts) && !allow.matchTail(parts)
}

// mayBeSecret is isSecret for a word that may be a glob: a glob counts
// when its literal start is the start of a secret name (`.env*`).
func mayBeSecret(w string, files, allow globs) bool {
	if isSecret(w, files, allow) {
		return true
	}
	i := strings.IndexAny(w, "*?[")
	if i <= 0 {
		return false
	}
	d, f := path2(w[:i])
	if f == "" {
		return false
	}
	for _, pat := range files {
		g := pat.src
		if !strings.ContainsAny(g[:1], "*?[") && strings.HasPrefix(g, f) {
			cand := g
			if d != "" {
				cand = d + "/" + g
			}
			if isSecret(cand, files, allow) {
				return true
			}
		}
	}
	return false
}

// noContent are commands whose arguments are text, not files, or that
// touch a file without reading or writing what is in it.
var noContent = []string{"echo", "printf", "source", ".",
	"ls", "stat", "test", "[", "chmod", "chown", "rm", "file"}

func secretFile(ev *event.Event, files, allow globs) string {
	if ev.Tool == nil {
		return ""
	}
	switch ev.Tool.Name {
	case event.ToolFileRead, event.ToolFileWrite, event.ToolFileEdit, event.ToolSearch, event.ToolFind:
		for _, p := range filePaths(ev) {
			sp := strings.ReplaceAll(p, `\`, "/")
			if isSecret(sp, files, allow) && tokens(sp, ev.Cwd, ev.Tool.Input) {
				return p + " holds secrets; " + action(ev.Tool.Name) + " it is not allowed"
			}
		}
		return ""
	}
	runs, _, _ := shellOf(ev)
	for _, r := range runs {
		c := r.cmd
		name := c.Name()
		var words []string
		if !slices.Contains(noContent, name) && len(c.Args) > 1 {
			words = append(words, c.Args[1:]...)
		}
		if name == "git" {
			// Only git's file arguments: a commit message names no file.
			if sub, args := gitArgs(c); sub == "commit" || sub == "tag" || sub == "log" {
				words = nil
			} else {
				words = args
			}
		}
		for _, rd := range c.Redirects {
			if !strings.HasSuffix(rd.Op, "&") && rd.Op != "<<" && rd.Op != "<<-" && rd.Op != "<<<" {
				words = append(words, rd.Target)
			}
		}
		for _, w := range words {
			if _, v, ok := strings.Cut(w, "="); ok && strings.HasPrefix(w, "-") {
				w = v
			}
			if mayBeSecret(w, files, allow) && tokens(w, r.cwd, nil) {
				return showCmd(c) + " reads or writes " + w + ", which holds secrets"
			}
		}
	}
	return ""
}

// configFiles are package managers' settings: secret only when they hold
// a credential, which most do not (a registry URL, a proxy).
var configFiles = []string{".npmrc", ".pypirc", ".yarnrc.yml"}

// credentialKeys name a credential in those files, lowercased.
var credentialKeys = []string{"_authtoken", "_auth", "_password", "password", "npmauthtoken", "token"}

// tokens reports whether a secret file p holds a credential: always, but
// for configFiles, whose content on disk (relative to cwd) and content
// being written (the tool input's content, new_string) are read. One
// that cannot be read (~/.npmrc: the home folder is not known here)
// counts as holding one.
func tokens(p, cwd string, input []byte) bool {
	if !slices.Contains(configFiles, baseName(p)) {
		return true
	}
	var texts []string
	if in := gjson.ParseBytes(input); in.IsObject() {
		for _, k := range []string{"content", "new_string", "new_str", "contents"} {
			if v := in.Get(k); v.Type == gjson.String {
				texts = append(texts, v.Str)
			}
		}
	}
	disk := expand(p, cwd)
	switch {
	case strings.HasPrefix(disk, "/"):
		if b, err := readHead(disk, 64<<10); err == nil {
			texts = append(texts, b)
		} else if !os.IsNotExist(err) {
			return true
		}
	default:
		return true
	}
	for _, t := range texts {
		t = strings.ToLower(t)
		for _, k := range credentialKeys {
			if strings.Contains(t, k) {
				return true
			}
		}
	}
	return false
}

func action(tool string) string {
	switch tool {
	case event.ToolFileWrite, event.ToolFileEdit:
		return "writing"
	}
	return "reading"
}

var promptSecrets = &spec{
	Info: Info{
		Name:    "hookshim/prompt-secrets",
		Summary: "deny prompts that contain an API key, token or private key",
		Events:  []event.Name{event.BeforePrompt},
		Catches: "AWS access key ids (`AKIA…`, `ASIA…`), GitHub tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`), " +
			"OpenAI keys (`sk-…`, `sk-proj-…`), Anthropic keys (`sk-ant-…`), Slack tokens (`xoxb-`, `xoxp-`, …) and webhook URLs, " +
			"Google API keys (`AIza…`), Stripe live keys, npm tokens, PEM private key blocks, and JWTs (`eyJ….eyJ….…`). " +
			"The reason names the kind of secret, never the secret.",
		Misses: "passwords and keys without a recognisable format (a database password, a hex key), secrets split across lines " +
			"or obfuscated, and the AWS documentation's example keys (ending in `EXAMPLE`), which are let through on purpose.",
		Params: []Param{{"allow", "array of strings", "exact strings never reported, e.g. a test fixture's fake token"}},
		Denied: []Example{
			{Text: "deploy with AKIAZ3MEXAMPLEKEY7QR please"},
			{Text: "use token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"},
			{Text: "my key is sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789"},
			{Text: "OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz012345"},
			{Text: "post to xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx"},
			{Text: "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA\n-----END OPENSSH PRIVATE KEY-----"},
			{Text: "why is eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U rejected"},
		},
		Allowed: []Example{
			{Text: "read the AWS key from the AKIA prefix docs"},
			{Text: "the example key AKIAIOSFODNN7EXAMPLE is in the docs"},
			{Text: "rename task-runner to sk-runner"},
			{Text: "how do I rotate my GitHub token?"},
			{Text: "parse the -----BEGIN CERTIFICATE----- block"},
			{Text: "use token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB", With: `{"allow": ["ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"]}`},
		},
	},
	compile: func(p *params) (func(ev *event.Event) string, error) {
		allow := p.strs("allow")
		return func(ev *event.Event) string {
			if ev.Prompt == nil {
				return ""
			}
			return secretIn(*ev.Prompt, allow)
		}, nil
	},
}

// secretKinds name the alternatives of secretPattern, in order.
var secretKinds = []struct{ name, re string }{
	{"an Anthropic API key (sk-ant-…)", `sk-ant-[A-Za-z0-9_-]{20,}`},
	{"an OpenAI API key (sk-…)", `sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`},
	{"an AWS access key id", `(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}`},
	{"a GitHub token", `gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}`},
	{"a Slack token", `xox[abposr]-[A-Za-z0-9-]{10,}|hooks\.slack\.com/services/T[A-Za-z0-9/]+`},
	{"a Google API key", `AIza[0-9A-Za-z_-]{35}`},
	{"a Stripe live key", `(?:sk|rk)_live_[0-9A-Za-z]{24,}`},
	{"an npm token", `npm_[A-Za-z0-9]{36}`},
	{"a private key", `-----BEGIN (?:[A-Z]+ )*PRIVATE KEY(?: BLOCK)?-----`},
	{"a JSON Web Token", `eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`},
}

// secretPattern is compiled on first use: most calls never read a prompt.
var secretPattern = sync.OnceValue(func() *regexp.Regexp {
	var b strings.Builder
	for i, k := range secretKinds {
		if i > 0 {
			b.WriteByte('|')
		}
		b.WriteString(`(` + k.re + `)`)
	}
	// A token starts at a word boundary; a key block anywhere.
	return regexp.MustCompile(`(?:^|[^A-Za-z0-9_-])(?:` + b.String() + `)`)
})

// secretHints are literal parts of every secretKinds pattern: a prompt
// with none of them holds no secret, and the pattern is neither compiled
// nor run (the common case, in a process that lives for one call).
var secretHints = []string{"sk-", "AKIA", "ASIA", "ABIA", "ACCA", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_",
	"xox", "hooks.slack.com", "AIza", "_live_", "npm_", "PRIVATE KEY", "eyJ"}

// secretIn names the first secret in text, or "".
func secretIn(text string, allow []string) string {
	hinted := false
	for _, h := range secretHints {
		if strings.Contains(text, h) {
			hinted = true
			break
		}
	}
	if !hinted {
		return ""
	}
	re := secretPattern()
	for off := 0; off < len(text); {
		m := re.FindStringSubmatchIndex(text[off:])
		if m == nil {
			return ""
		}
		for k := range secretKinds {
			s, e := m[2+2*k], m[3+2*k]
			if s < 0 {
				continue
			}
			found := text[off+s : off+e]
			if !slices.Contains(allow, found) && !strings.HasSuffix(found, "EXAMPLE") {
				return "the prompt contains " + secretKinds[k].name + "; remove it (and rotate it if it was real) and pass it through an environment variable instead"
			}
			break
		}
		off += max(m[1], 1)
	}
	return ""
}
