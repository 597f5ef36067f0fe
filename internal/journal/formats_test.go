package journal

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The secrets of real command lines, headers and answers are redacted in
// every field that carries what the tool sent or what a handler answered;
// each value here is one no record may hold.
func TestSecretsInCommandsAndAnswers(t *testing.T) {
	const key = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACDx3k0Ie3yQbGvJmR8h5H4qP2b3q9oUu1l2p0m8YwqS1wAAAJgAAAAA\n-----END OPENSSH PRIVATE KEY-----"
	for _, tc := range []struct{ text, secret, keep string }{
		{"mysql -u root --password=Tr0ub4dor3 app", "Tr0ub4dor3", "mysql -u root --password="},
		{"psql --db-password 'c0rrect-h0rse' -h db", "c0rrect-h0rse", "psql --db-password"},
		{"mysql -uroot -pS3cretPassw0rd -h 10.0.0.5 shop", "S3cretPassw0rd", "mysql -uroot -p"},
		{"mysqldump -u backup -pHunter22 --all-databases > all.sql", "Hunter22", "--all-databases"},
		{"sshpass -p 'Winter2026!' ssh deploy@web1", "Winter2026!", "ssh deploy@web1"},
		{"docker login -u bob --password-stdin < pw.txt; deploy --token=a8f3k2m9x7q1", "a8f3k2m9x7q1", "--password-stdin"},
		{"git clone https://bob:pa55w0rd-x@github.com/acme/api.git", "pa55w0rd-x", "https://bob:"},
		{"psql postgres://app:S3cr3t!xyz@db.internal:5432/shop", "S3cr3t!xyz", "@db.internal:5432/shop"},
		{"aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYzyKEYq2mR8", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzyKEYq2mR8", "aws configure set aws_secret_access_key "},
		{"export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzyKEYq2mR8", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzyKEYq2mR8", "AWS_SECRET_ACCESS_KEY="},
		{"export AWS_ACCESS_KEY_ID=AKIA2JXHY3QW5RZ7TB4N", "AKIA2JXHY3QW5RZ7TB4N", "AWS_ACCESS_KEY_ID="},
		{`curl -H "Authorization: Token 9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b" https://api.example.com`, "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b", "Authorization: Token "},
		{`curl -H 'Authorization: Bearer ya29.a0AfB_byC3xQk9Lm2Np7Rs4Tu6Vw8Xy0Za1Bc' https://www.googleapis.com`, "ya29.a0AfB_byC3xQk9Lm2Np7Rs4Tu6Vw8Xy0Za1Bc", "Authorization: Bearer "},
		{`curl -H "authorization: basic Ym9iOmh1bnRlcjI=" localhost`, "Ym9iOmh1bnRlcjI=", "authorization: basic "},
		{`curl -H "X-Api-Key: 4f9c2a7e1b3d5f8a" https://api.example.com`, "4f9c2a7e1b3d5f8a", "X-Api-Key: "},
		{"gh auth login --with-token <<< gho_16C7e42F292c6912E7710c838347Ae178B4a", "gho_16C7e42F292c6912E7710c838347Ae178B4a", "gh auth login"},
		{"GITHUB_TOKEN=ghp_R8n2Kq7Xv4Tz1Lm9Pw3Ys6Hb5Jc0Fd2Ga8Ne curl", "ghp_R8n2Kq7Xv4Tz1Lm9Pw3Ys6Hb5Jc0Fd2Ga8Ne", "curl"},
		{"refresh with 1//0gXk7Lq2Wm9Rt4Yv6Zb8Nc1Pd3Fh5Jk-Ls7Mn9Qr", "1//0gXk7Lq2Wm9Rt4Yv6Zb8Nc1Pd3Fh5Jk-Ls7Mn9Qr", "refresh with"},
		{"slack: xoxb-2718281828-3141592653589-AbCdEfGhIjKlMnOpQrStUvWx", "xoxb-2718281828-3141592653589-AbCdEfGhIjKlMnOpQrStUvWx", "slack: "},
		{"cat > id_ed25519 <<EOF\n" + key + "\nEOF", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW", "cat > id_ed25519"},
		{"key:\n" + key, "QyNTUxOQAAACDx3k0Ie3yQbGvJmR8h5H4qP2b3q9oUu1l2p0m8YwqS1wAAAJgAAAAA", "key:"},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7Vq3xKz8", "MIIEowIBAAKCAQEA7Vq3xKz8", ""},
		{"stripe sk_live_51HqLyjWDarjtT1zdp7dcXYZ0aBcDeFgHiJ", "sk_live_51HqLyjWDarjtT1zdp7dcXYZ0aBcDeFgHiJ", "stripe "},
		{"Server=db;User Id=sa;Password=Qw3rty!987;", "Qw3rty!987", "User Id=sa;Password="},
	} {
		for _, quoted := range []bool{false, true} {
			text := tc.text
			if quoted {
				// The same text inside a JSON string in a string (a tool
				// input's field seen from the record).
				b, _ := json.Marshal(map[string]string{"command": text})
				text = string(b)
			}
			line := Secrets(append([]byte(nil), mustQuote(text)...))
			require.True(t, json.Valid(line), "%s", line)
			var got string
			require.NoError(t, json.Unmarshal(line, &got))
			assert.NotContains(t, got, tc.secret, tc.text)
			assert.NotContains(t, strings.ReplaceAll(got, `\/`, "/"), strings.ReplaceAll(tc.secret, "\n", `\n`), tc.text)
			if !quoted {
				assert.Contains(t, got, tc.keep, "what is no secret stays")
				assert.Contains(t, got, Redacted)
			}
		}
	}
	// What only looks like one stays.
	for _, text := range []string{"mkdir -p build/out", "cp -pr a b", "git log --pretty=oneline", "ssh -p 2222 host", "go test -run TestX ./...", "echo $PASSWORD_FILE"} {
		assert.Equal(t, string(mustQuote(text)), string(Secrets(mustQuote(text))), text)
	}
}

func mustQuote(s string) []byte {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return b
}

// containsFold finds a hint in any case, wherever its first byte is found
// in one case and not the other.
func TestContainsFold(t *testing.T) {
	for _, tc := range []struct {
		text, hint string
		want       bool
	}{
		{"", "pass", false},
		{"pas", "pass", false},
		{"PASS", "pass", true},
		{"my PaSsWord", "pass", true},
		{"ppppppppppPass", "pass", true},
		{"PPPPPPPPPPpass", "pass", true},
		{"pPpPpPpPpPpPpPaSs", "pass", true},
		{"pppp PPPP pas", "pass", false},
		{"mysql -psecret", "-p", true},
		{"mysql -Psecret", "-p", true},
		{"1//0abc", "1//0", true},
		{"1//1abc", "1//0", false},
		{"Authorization: x", "authorization", true},
		{"authorizatio", "authorization", false},
		{"end with toke", "token", false},
		{"end with TOKEN", "token", true},
	} {
		assert.Equal(t, tc.want, containsFold([]byte(tc.text), tc.hint), "%q in %q", tc.hint, tc.text)
		assert.Equal(t, strings.Contains(strings.ToLower(tc.text), tc.hint), containsFold([]byte(tc.text), tc.hint), "%q in %q, against strings", tc.hint, tc.text)
	}
}
