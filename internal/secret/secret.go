// Package secret knows the formats of secrets: the API keys and tokens of
// the major services, private keys, passwords in URLs and connection
// strings. One table, read by the prompt-secrets policy (which refuses a
// prompt that holds one) and by the decision log (which redacts them).
package secret

import (
	"encoding/base64"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Kind is one format of secret.
type Kind struct {
	Name  string // what it is, for a message: "a GitHub token"
	RE    string // its pattern, with no capture group of its own
	Valid func(string) bool
}

// Kinds are the secrets known, alternatives of Pattern in this order. The prefixes, lengths and alphabets are those of the public
// rule sets of gitleaks (config/gitleaks.toml, rule ids in brackets) and
// trufflehog (pkg/detectors/<name>), loosened where a service has issued
// longer tokens over time; valid, when set, looks closer at a match.
var Kinds = []Kind{
	// [anthropic-api-key, anthropic-admin-api-key]: sk-ant-api03-…, sk-ant-admin01-…
	{"an Anthropic API key (sk-ant-…)", `sk-ant-[A-Za-z0-9_-]{20,}`, nil},
	// [openai-api-key], trufflehog openai: sk-, sk-proj-, sk-svcacct-, sk-admin-;
	// keys carry T3BlbkFJ ("OpenAI" in base64). Without it, only a
	// random-looking body counts: `sk-learn-tutorial-…` is a word.
	{"an OpenAI API key (sk-…)", `sk-(?:proj-|svcacct-|admin-|service-)?[A-Za-z0-9_-]{20,}`, openAIKey},
	// [aws-access-token]: A3T?, AKIA, ASIA, ABIA, ACCA and 16 characters;
	// trufflehog's aws detector takes them from A-Z0-9, not only base 32,
	// and its test keys (AKIAWGXZ9OPDOWUJMZGI) have 8s and 9s.
	{"an AWS access key id", `\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b`, nil},
	// trufflehog aws: the secret key is 40 base-64 characters, found here
	// only under its name (credentials file, environment, aws cli JSON).
	{"an AWS secret access key", `(?i:aws_?secret_?access_?key|secretaccesskey)["']?\s*[:=]\s*["']?[A-Za-z0-9/+]{40}(?:[^A-Za-z0-9/+=]|$)`, nil},
	// [github-pat, github-oauth, github-app-token, github-refresh-token,
	// github-fine-grained-pat]: gh[pousr]_ and 36, github_pat_ and 82.
	{"a GitHub token", `gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}`, nil},
	// [gitlab-pat, gitlab-ptt, gitlab-rrt, gitlab-deploy-token, …]: glpat- and
	// 20 or more (trufflehog gitlab v3: longer routable tokens).
	{"a GitLab token", `(?:glpat|gldt|glrt|glptt|glcbt|glsoat|glft|glimt|gloas)-[A-Za-z0-9_-]{20,}`, nil},
	// [pypi-upload-token]: pypi-AgEIcHlwaS5vcmc ("pypi.org" in macaroon base64) and 50 or more.
	{"a PyPI token", `pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}`, nil},
	// [vault-service-token, vault-batch-token]: hvs. and hvb. tokens.
	{"a HashiCorp Vault token", `(?:hvs|hvb)\.[A-Za-z0-9_-]{24,}`, nil},
	// trufflehog sendgrid: SG. 20–24 . 39–50.
	{"a SendGrid API key", `SG\.[A-Za-z0-9_-]{20,24}\.[A-Za-z0-9_-]{39,50}`, nil},
	// Google's OAuth client secrets (client_secret.json since 2021): GOCSPX- and 28.
	{"a Google OAuth client secret", `GOCSPX-[A-Za-z0-9_-]{28}`, nil},
	// [gcp-api-key]: AIza and 35.
	{"a Google API key", `AIza[0-9A-Za-z_-]{35}\b`, nil},
	// [npm-access-token]: npm_ and 36.
	{"an npm token", `npm_[A-Za-z0-9]{36}`, nil},
	// [slack-bot-token, slack-user-token, slack-app-token, slack-legacy-token,
	// slack-legacy-workspace-token, slack-config-access-token,
	// slack-webhook-url]: the numeric team and user ids are part of each
	// shape, so `xoxb-my-bot-token` and `xoxp-1234567890` are not tokens.
	{"a Slack token", `xoxb-[0-9]{10,13}-[0-9]{10,13}[A-Za-z0-9-]*|xox[pe](?:-[0-9]{10,13}){2,3}-[A-Za-z0-9-]{28,34}|` +
		`xox[os]-[0-9]+-[0-9]+-[0-9]+-[a-fA-F0-9]+|xoxe\.xox[bp]-[0-9]-[A-Z0-9]{163,166}|` +
		`xoxe-[0-9]-[A-Z0-9]{146}|(?i:xapp-[0-9]-[A-Z0-9]+-[0-9]+-[a-z0-9]+)|hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{20,}`, nil},
	// [slack-legacy-workspace-token]: xoxa- and xoxr-; a random body has a
	// digit somewhere, a word such as `xoxa-faketoken` has none.
	{"a Slack token", `xox[ar]-(?:[0-9]-)?[0-9A-Za-z]{8,48}\b`, hasDigit},
	// [groq-api-key]: gsk_ and 52.
	{"a Groq API key", `gsk_[A-Za-z0-9]{52}\b`, nil},
	// trufflehog xai: xai- and 80.
	{"an xAI API key", `xai-[0-9A-Za-z_]{80}\b`, nil},
	// [stripe-access-token], trufflehog stripe: sk_live_, rk_live_ and 20 or more.
	{"a Stripe live key", `(?:sk|rk)_live_[0-9A-Za-z]{20,}`, nil},
	// [twilio-api-key]: SK and 32 hex digits.
	{"a Twilio API key", `SK[0-9a-fA-F]{32}\b`, nil},
	// trufflehog mailgun: key- and 32 (the private API key).
	{"a Mailgun API key", `key-[0-9a-f]{32}\b`, nil},
	// [huggingface-access-token], trufflehog huggingface: hf_ and 34.
	{"a Hugging Face token", `hf_[A-Za-z0-9]{34}\b`, nil},
	// [digitalocean-pat, digitalocean-access-token, digitalocean-refresh-token]: do?_v1_ and 64 hex.
	{"a DigitalOcean token", `do[opr]_v1_[a-f0-9]{64}`, nil},
	// [shopify-access-token, shopify-custom-access-token,
	// shopify-private-app-access-token, shopify-shared-secret]: 32 hex.
	{"a Shopify token", `shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}`, nil},
	// [doppler-api-token], trufflehog doppler: dp.pt., dp.st., … and 40–44.
	{"a Doppler token", `dp\.(?:pt|ct|st|sa|scim|audit)\.[A-Za-z0-9._-]{40,}`, nil},
	// [databricks-api-token]: dapi and 32 hex digits.
	{"a Databricks token", `dapi[a-f0-9]{32}(?:-\d)?\b`, nil},
	// [azure-ad-client-secret], trufflehog azure_entra: 3, a digit, Q~, 31–34.
	{"an Azure client secret", `[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}`, nil},
	// trufflehog azure_storage: AccountKey= and 86–88 base-64 characters.
	{"an Azure storage account key", `AccountKey=[A-Za-z0-9+/]{86,88}={0,2}`, nil},
	// [private-key]: a PEM private key block's first line.
	{"a private key", `-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----`, nil},
	// [jwt]: three base64url parts; the first two must decode to JSON
	// objects, the first naming its "alg": a word like eyJ.eyJ.x is not one.
	{"a JSON Web Token", `eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`, jwt},
	// trufflehog uri, postgres, mongodb, redis: scheme://user:password@host,
	// the user may be empty (redis://:password@host).
	{"a password in a URL", `[A-Za-z][A-Za-z0-9+.-]{1,20}://[^\s:/@'"<>]*:[^\s/@'"<>]+@[A-Za-z0-9.\[\]-]`, urlPassword},
	// A connection string's Password=… or Pwd=… after another Key=value;
	// (ADO.NET, ODBC): `User Id=sa;Password=…`.
	{"a password in a connection string", `[A-Za-z][A-Za-z ]*=[^;\s'"]*;\s*(?i:password|pwd)\s*=\s*[^;\s'"]{3,}`, connPassword},
}

// Pattern matches any of Kinds, each in a group of its own, in order.
// It is compiled on first use: most calls never read a prompt. (A
// sync.Once, not sync.OnceValue, whose closure every process would
// allocate at start.)
func Pattern() *regexp.Regexp {
	patternOnce.Do(compilePattern)
	return pattern
}

var (
	patternOnce sync.Once
	pattern     *regexp.Regexp
)

func compilePattern() {
	var b strings.Builder
	for i, k := range Kinds {
		if i > 0 {
			b.WriteByte('|')
		}
		b.WriteString(`(` + k.RE + `)`)
	}
	// A token starts at a word boundary; a key block anywhere.
	pattern = regexp.MustCompile(`(?:^|[^A-Za-z0-9_-])(?:` + b.String() + `)`)
}

// Hints are literal parts of every pattern of Kinds: a text with none of
// them holds no secret, and the pattern is neither compiled nor run (the
// common case, in a process that lives for one call).
var Hints = []string{"sk-", "AKIA", "ASIA", "ABIA", "ACCA", "A3T", "ecret_access_key", "ECRET_ACCESS_KEY", "ecretAccessKey",
	"ecret_Access_Key", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "gldt-", "glrt-", "glptt-", "glcbt-",
	"glsoat-", "glft-", "glimt-", "gloas-", "pypi-", "hvs.", "hvb.", "SG.", "GOCSPX-", "AIza", "npm_", "xox", "xapp-", "gsk_", "xai-",
	"hooks.slack.com", "_live_", "SK", "key-", "hf_", "_v1_", "shpat_", "shpca_", "shppa_", "shpss_", "dp.", "dapi", "Q~",
	"AccountKey=", "PRIVATE KEY", "eyJ", "://", "assword", "ASSWORD", "wd=", "WD=", "Wd="}

// Hinted reports whether text holds one of Hints: only then can it hold a
// secret.
func Hinted(text string) bool {
	for _, h := range Hints {
		if strings.Contains(text, h) {
			return true
		}
	}
	return false
}

// Each calls fn with the place and kind of every secret in text, in order,
// until fn returns false. A match its kind's Valid refuses is no secret;
// stand-ins (Placeholder) are secrets to Each, and left to the caller.
func Each(text string, fn func(start, end int, k *Kind) bool) {
	if !Hinted(text) {
		return
	}
	re := Pattern()
	for off := 0; off < len(text); {
		m := re.FindStringSubmatchIndex(text[off:])
		if m == nil {
			return
		}
		for i := range Kinds {
			k := &Kinds[i]
			s, e := m[2+2*i], m[3+2*i]
			if s < 0 {
				continue
			}
			if (k.Valid == nil || k.Valid(text[off+s:off+e])) && !fn(off+s, off+e, k) {
				return
			}
			break
		}
		off += max(m[1], 1)
	}
}

// placeholders are parts of the stand-ins documentation and people write
// for a secret (`ghp_xxxx…`, `<token>`, `${TOKEN}`, `your-api-key`),
// lower case.
var placeholders = []string{"xxxx", "****", "....", "…", "<", ">", "${", "{{", "your", "placeholder", "redacted",
	"dummy", "changeme", "insert", "replace"}

// Placeholder reports whether a match is a stand-in rather than a secret:
// it holds a placeholder word, ends in EXAMPLE (the AWS documentation's
// keys), or a long one is made of a handful of characters (`ghp_0000…`).
func Placeholder(s string) bool {
	l := strings.ToLower(s)
	for _, p := range placeholders {
		if strings.Contains(l, p) {
			return true
		}
	}
	if strings.HasSuffix(s, "EXAMPLE") {
		return true
	}
	if len(s) >= 16 {
		var seen [256]bool
		n := 0
		for i := 0; i < len(s); i++ {
			if !seen[s[i]] {
				seen[s[i]] = true
				n++
			}
		}
		return n < 10
	}
	return false
}

// openAIKey: a key carries T3BlbkFJ, or a body of random-looking base64
// (upper and lower case letters and digits).
func openAIKey(s string) bool {
	if strings.Contains(s, "T3BlbkFJ") {
		return true
	}
	body := s[strings.LastIndexByte(s[:min(len(s), 16)], '-')+1:]
	return len(body) >= 32 && strings.ContainsAny(body, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") &&
		strings.ContainsAny(body, "abcdefghijklmnopqrstuvwxyz") && strings.ContainsAny(body, "0123456789")
}

// jwt: the header and the claims decode to JSON objects, the header with
// an "alg".
func jwt(s string) bool {
	parts := strings.SplitN(s, ".", 3)
	var header map[string]any
	var claims map[string]any
	h, err1 := base64.RawURLEncoding.DecodeString(parts[0])
	c, err2 := base64.RawURLEncoding.DecodeString(parts[1])
	return err1 == nil && err2 == nil && json.Unmarshal(h, &header) == nil && header["alg"] != nil &&
		json.Unmarshal(c, &claims) == nil
}

// weakPasswords stand for a password in examples and local setups.
var weakPasswords = []string{"password", "pass", "passwd", "pwd", "secret", "changeme", "example", "test"}

// urlPassword: the password of scheme://user:password@ is not a
// stand-in (`user:password@`, `:${DB_PASS}@`, `postgres:postgres@`).
func urlPassword(s string) bool {
	rest := s[strings.Index(s, "://")+3:]
	user, pass, _ := strings.Cut(rest[:strings.LastIndexByte(rest, '@')], ":")
	return realPassword(user, pass)
}

// connPassword: the Password= of a connection string is not a stand-in.
func connPassword(s string) bool {
	_, pass, _ := strings.Cut(s[strings.LastIndexByte(s, ';')+1:], "=")
	return realPassword("", strings.TrimSpace(pass))
}

func realPassword(user, pass string) bool {
	l := strings.ToLower(pass)
	if pass == "" || pass == user || slices.Contains(weakPasswords, l) || strings.Contains(l, "password") {
		return false
	}
	switch pass[0] {
	case '$', '%', '{', '[', ':', '*':
		return false // a variable or template: $DB_PASS, %(pw)s, {password}
	}
	return true
}

func hasDigit(s string) bool { return strings.ContainsAny(s[5:], "0123456789") }
