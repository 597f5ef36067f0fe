package policy

import (
	"slices"

	"github.com/hookshim/hookshim/internal/secret"
)

// secretIn names the first secret in text that is neither allowed nor a
// stand-in, or "". The formats are package secret's, which the decision
// log redacts too.
func secretIn(text string, allow []string) string {
	msg := ""
	secret.Each(text, func(start, end int, k *secret.Kind) bool {
		found := text[start:end]
		if slices.Contains(allow, found) || secret.Placeholder(found) {
			return true
		}
		msg = "the prompt contains " + k.Name + "; remove it (and rotate it if it was real) and pass it through an environment variable instead"
		return false
	})
	return msg
}
