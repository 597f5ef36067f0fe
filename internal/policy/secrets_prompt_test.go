package policy

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/hookshim/hookshim/internal/decision"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	alnum  = "Ab3Cd9Ef2Gh7Jk4Lm8Np1Qr6St5Uv0Wx-Yz_aB3cD9eF2gH7jK4lM8nP1qR6sT5uV0wX"
	alnums = "Ab3Cd9Ef2Gh7Jk4Lm8Np1Qr6St5Uv0WxYzaB3cD9eF2gH7jK4lM8nP1qR6sT5uV0wXy"
	hex    = "3f9a1c7e5b2d8046"
	b32    = "Z3MQ7RTX2KPW5HNV4LJD6CFB"
	b64    = "Ab3+Cd9/Ef2Gh7Jk4Lm8Np1Qr6St5Uv0Wx"
)

// fake is a real-looking but made-up secret: prefix and n characters of
// alphabet, built here so that no token stands in the source for secret
// scanners to report.
func fake(prefix, alphabet string, n int) string {
	var b strings.Builder
	b.WriteString(prefix)
	for i := range n {
		b.WriteByte(alphabet[(i*7+i/len(alphabet))%len(alphabet)])
	}
	return b.String()
}

// TestPromptSecretFormats: every format with a made-up value is denied,
// and the same format as a stand-in is not.
func TestPromptSecretFormats(t *testing.T) {
	b64url := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	for _, tt := range []struct{ kind, secret, placeholder string }{
		{"Anthropic", fake("sk-ant-api03-", alnum, 93) + "AA", "sk-ant-api03-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},
		{"Anthropic admin", fake("sk-ant-admin01-", alnum, 93) + "AA", "sk-ant-admin01-<your-admin-key>"},
		{"OpenAI project", fake("sk-proj-", alnum, 74) + "T3BlbkFJ" + fake("", alnum, 74), "sk-proj-your-api-key-goes-here-please"},
		{"OpenAI legacy", fake("sk-", alnums, 20) + "T3BlbkFJ" + fake("", alnums, 20), "sk-...your-key..."},
		{"OpenAI svcacct", fake("sk-svcacct-", alnum, 48), "sk-svcacct-XXXXXXXXXXXXXXXXXXXXXXXXXXXX"},
		{"AWS access key id", fake("AKIA", b32, 16), "AKIAXXXXXXXXXXXXXXXX"},
		{"AWS session key id", fake("ASIA", b32, 16), "ASIAIOSFODNN7EXAMPLE"},
		{"AWS secret key", "aws_secret_access_key = " + fake("", b64, 40), "aws_secret_access_key = <secret>"},
		{"AWS secret key (env)", "AWS_SECRET_ACCESS_KEY=" + fake("", b64, 40), "AWS_SECRET_ACCESS_KEY=${AWS_SECRET_ACCESS_KEY}"},
		{"AWS secret key (cli JSON)", `"SecretAccessKey": "` + fake("", b64, 40) + `"`, `"SecretAccessKey": "****************************************"`},
		{"GitHub classic", fake("ghp_", alnums, 36), "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},
		{"GitHub OAuth", fake("gho_", alnums, 36), "gho_000000000000000000000000000000000000"},
		{"GitHub user-to-server", fake("ghu_", alnums, 36), "ghu_<token>"},
		{"GitHub server-to-server", fake("ghs_", alnums, 36), "ghs_${GITHUB_TOKEN}"},
		{"GitHub refresh", fake("ghr_", alnums, 36), "ghr_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"},
		{"GitHub fine-grained", fake("github_pat_", alnum[:len(alnum)-1], 82), "github_pat_xxxxxxxxxxxxxxxxxxxxxx"},
		{"GitLab", fake("glpat-", alnum, 20), "glpat-xxxxxxxxxxxxxxxxxxxx"},
		{"GitLab deploy", fake("gldt-", alnum, 24), "gldt-<deploy-token>"},
		{"PyPI", fake("pypi-AgEIcHlwaS5vcmc", alnum, 70), "pypi-AgEIcHlwaS5vcmcxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},
		{"Vault service", fake("hvs.", alnum, 90), "hvs.xxxxxxxxxxxxxxxxxxxxxxxxxxxx"},
		{"Vault batch", fake("hvb.", alnum, 138), "hvb.<batch-token>"},
		{"SendGrid", fake("SG.", alnum, 22) + fake(".", alnum, 43), "SG.xxxxxxxxxxxxxxxxxxxxxx.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},
		{"Google OAuth client secret", fake("GOCSPX-", alnum, 28), "GOCSPX-xxxxxxxxxxxxxxxxxxxxxxxxxxxx"},
		{"Google API key", fake("AIza", alnum, 35), "AIzaXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"},
		{"npm", fake("npm_", alnums, 36), "npm_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},
		{"Slack bot", "xoxb-" + fake("", "0123456789", 12) + "-" + fake("", "0123456789", 13) + fake("-", alnums, 24), "xoxb-your-bot-token"},
		{"Slack user", "xoxp-" + fake("", "0123456789", 12) + "-" + fake("", "0123456789", 12) + fake("-", alnums, 32), "xoxp-xxxxxxxxxxxx-xxxxxxxxxxxx"},
		{"Slack app", "xapp-1-" + fake("A0", alnums, 9) + "-" + fake("", "0123456789", 13) + "-" + fake("", hex, 64), "xapp-1-XXXXXXXXXXX-XXXXXXXXXXXXX-xxxx"},
		{"Slack webhook", "https://hooks.slack.com/services/" + fake("T", b32, 8) + "/" + fake("B", b32, 10) + "/" + fake("", alnums, 24), "https://hooks.slack.com/services/XXXXXXXXX/XXXXXXXXXXX/xxxxxxxxxxxxxxxxxxxxxxxx"},
		{"Stripe secret", fake("sk_live_", alnums, 24), "sk_live_xxxxxxxxxxxxxxxxxxxxxxxx"},
		{"Stripe restricted", fake("rk_live_", alnums, 24), "rk_live_<restricted-key>"},
		{"Twilio", fake("SK", hex, 32), "SKxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},
		{"Mailgun", fake("key-", hex, 32), "key-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},
		{"Hugging Face", fake("hf_", alnums, 34), "hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},
		{"DigitalOcean", fake("dop_v1_", hex, 64), "dop_v1_<your-token>"},
		{"Shopify", fake("shpat_", hex, 32), "shpat_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},
		{"Doppler", fake("dp.pt.", alnums, 43), "dp.pt.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},
		{"Databricks", fake("dapi", hex, 32), "dapixxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},
		{"Azure client secret", fake("", alnums, 3) + "8Q~" + fake("", alnums, 34), "xxx8Q~xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},
		{"Azure storage key", "DefaultEndpointsProtocol=https;AccountName=shop;AccountKey=" + fake("", b64, 86) + "==", "AccountKey=<storage-key>"},
		{"PEM private key", "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA", "-----BEGIN PUBLIC KEY-----"},
		{"PEM EC private key", "-----BEGIN EC PRIVATE KEY-----", "a PRIVATE KEY block"},
		{"JWT", b64url(`{"alg":"RS256","typ":"JWT"}`) + "." + b64url(`{"sub":"u-1","exp":1900000000}`) + "." + fake("", alnum, 43), "eyJhbGciOi.eyJzdWIiOi.xxxxxxxx"},
		{"JWT-like words", "", "see eyJhbGciOiJub3RqcyJ9xx.eyJmb29iYXJiYXoi.signature"},
		{"postgres URL", "postgres://app:" + fake("", alnums, 16) + "@db.internal:5432/shop", "postgres://user:password@localhost:5432/db"},
		{"postgresql URL", "postgresql://svc:Tr0ub4dor-3@10.0.0.5/app", "postgresql://postgres:postgres@localhost/app"},
		{"MongoDB SRV URL", "mongodb+srv://admin:" + fake("", alnums, 20) + "@cluster0.ab1cd.mongodb.net/shop", "mongodb+srv://<user>:<password>@cluster0.mongodb.net"},
		{"Redis URL", "redis://:" + fake("", alnums, 24) + "@cache.internal:6379/0", "redis://:${REDIS_PASSWORD}@cache:6379"},
		{"MySQL URL", "mysql://root:h7Kq2-Lm9Np@mysql:3306/app", "mysql://root:root@localhost/app"},
		{"HTTPS basic auth", "https://deploy:" + fake("", alnums, 20) + "@git.example.com/x.git", "https://user:$TOKEN@git.example.com/x.git"},
		{"connection string", "Server=db;Database=shop;User Id=sa;Password=Wq8-zLm2!Kp;", "Server=db;User Id=sa;Password={password};"},
		{"connection string Pwd", "Driver={ODBC};Server=db;Uid=app;Pwd=Vb7xN2qLw;", "Server=db;Uid=app;Pwd=changeme;"},
	} {
		t.Run(tt.kind, func(t *testing.T) {
			p, err := Compile("hookshim/prompt-secrets", nil)
			require.NoError(t, err)
			if tt.secret != "" {
				for _, prompt := range []string{tt.secret, "use " + tt.secret + " for the deploy", "KEY='" + tt.secret + "'\nnext line"} {
					out := p.Eval(eventFor(Example{Text: prompt}, nil))
					assert.Equal(t, decision.Deny, out.Decision, "%q", prompt)
					assert.NotContains(t, out.Reason, tt.secret)
				}
			}
			out := p.Eval(eventFor(Example{Text: "set it to " + tt.placeholder + " in the docs"}, nil))
			assert.True(t, out.Empty(), "%q: %s", tt.placeholder, out.Reason)
		})
	}
}

// TestPromptSecretWords: ordinary prose and code that look a little like
// a token are let through.
func TestPromptSecretWords(t *testing.T) {
	p, err := Compile("hookshim/prompt-secrets", nil)
	require.NoError(t, err)
	for _, text := range []string{
		"ASK the TASK runner about the DISK usage",
		"install scikit-learn and follow sk-learn-tutorial-for-beginners-2024",
		"the key-value store keeps key-0123 and key-abc",
		"visit https://example.com/docs and http://localhost:3000/path?x=1",
		"git clone git@github.com:org/repo.git",
		"ssh://git@github.com/org/repo.git",
		"set -x; PWD=/tmp; echo $PWD",
		"the password field must be at least 12 characters",
		"connect with postgres://localhost/db and no password",
		"the hash is 3f9a1c7e5b2d80463f9a1c7e5b2d8046",
		"SKIP_TESTS=1 go build",
		"email me at dev@example.com: thanks",
	} {
		out := p.Eval(eventFor(Example{Text: text}, nil))
		assert.True(t, out.Empty(), "%q: %s", text, out.Reason)
	}
	// Shell commands are not prompts.
	out := p.Eval(eventFor(Example{Tool: event.ToolShell, Text: "echo " + fake("ghp_", alnums, 36)}, nil))
	assert.True(t, out.Empty())
}
