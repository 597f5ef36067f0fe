package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hookshim/hookshim/internal/remotecall"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// Instructions is the system prompt of every prompt handler: the answer
// it asks for is a command handler's.
const Instructions = `You check one event of an AI coding agent against a policy, as a hook does before the agent goes on. The user message holds the policy and the event as JSON. Answer with one JSON object and nothing else:
{"decision": "allow" | "deny" | "ask", "reason": "why, in one sentence", "context": "optional text for the agent"}
Leave "decision" out when the policy says nothing about this event.`

// AnthropicVersion is the anthropic-version header of Messages requests.
const AnthropicVersion = "2023-06-01"

// MaxTokens bounds the model's answer (Anthropic's API requires a bound).
const MaxTokens = 1024

// Prompt is the user message: the handler's prompt with the event's JSON
// (the envelope a command handler reads) in place of every $ARGUMENTS, as
// in Claude Code's prompt hooks; after it when the prompt has none.
func Prompt(prompt string, envelope []byte) string {
	ev := string(bytes.TrimSpace(envelope))
	if !strings.Contains(prompt, "$ARGUMENTS") {
		return prompt + "\n\n" + ev
	}
	return strings.ReplaceAll(prompt, "$ARGUMENTS", ev)
}

// Judge asks the call's model about the event and returns its answer as a
// command handler's JSON.
func Judge(ctx context.Context, c *remotecall.Call, envelope []byte) ([]byte, error) {
	user := Prompt(c.Prompt, envelope)
	req := []byte(`{}`)
	set := func(k string, v any) { req, _ = sjson.SetBytes(req, k, v) }
	set("model", c.Model)
	hs := append([][2]string(nil), c.Header...)
	if c.API == remotecall.Anthropic {
		set("max_tokens", MaxTokens)
		set("system", Instructions)
		set("messages.0.role", "user")
		set("messages.0.content", user)
		hs = append(hs, [2]string{"anthropic-version", AnthropicVersion})
		if c.Key != "" {
			hs = append(hs, [2]string{"x-api-key", c.Key})
		}
	} else {
		set("messages.0.role", "system")
		set("messages.0.content", Instructions)
		set("messages.1.role", "user")
		set("messages.1.content", user)
		if c.Key != "" {
			hs = append(hs, [2]string{"Authorization", "Bearer " + c.Key})
		}
	}
	call := *c
	call.Header = hs
	body, err := send(ctx, &call, req)
	if err != nil {
		return nil, err
	}
	text, err := reply(c.API, body)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", c.URL, err)
	}
	return Answer(text)
}

// reply is the text of a model's response.
func reply(api string, body []byte) (string, error) {
	if !gjson.ValidBytes(body) {
		return "", fmt.Errorf("the response is not JSON: %s", excerpt(body))
	}
	doc := gjson.ParseBytes(body)
	if e := doc.Get("error"); e.Exists() {
		return "", fmt.Errorf("the model API answered an error: %s", excerpt([]byte(e.Raw)))
	}
	var text string
	if api == remotecall.Anthropic {
		var parts []string
		doc.Get("content").ForEach(func(_, b gjson.Result) bool {
			if b.Get("type").Str == "text" {
				parts = append(parts, b.Get("text").Str)
			}
			return true
		})
		text = strings.Join(parts, "")
	} else {
		text = doc.Get("choices.0.message.content").Str
	}
	if strings.TrimSpace(text) == "" {
		return "", fmt.Errorf("the response holds no text: %s", excerpt(body))
	}
	return text, nil
}

// maxTries bounds how many '{' of a reply are tried as the start of its
// JSON answer, so that a reply full of braces costs linear time.
const maxTries = 8

// Answer reads a model's reply as a command handler's answer: the first
// JSON object in it (models wrap their answer in ```json fences or put
// words around it). The answers that prompts written for Claude Code's
// and Cursor's own prompt hooks ask for are read too: {"ok": false,
// "reason": …} denies, {"ok": true} has no opinion, and the older
// "approve" / "block" are allow / deny.
func Answer(text string) ([]byte, error) {
	obj, ok := firstObject(text)
	if !ok {
		return nil, fmt.Errorf("the model's answer holds no JSON object: %s", excerpt([]byte(text)))
	}
	doc := gjson.ParseBytes(obj)
	if okv := doc.Get("ok"); okv.IsBool() {
		obj, _ = sjson.DeleteBytes(obj, "ok")
		if !okv.Bool() && !doc.Get("decision").Exists() {
			obj, _ = sjson.SetBytes(obj, "decision", "deny")
		}
	}
	switch doc.Get("decision").Str {
	case "approve":
		obj, _ = sjson.SetBytes(obj, "decision", "allow")
	case "block":
		obj, _ = sjson.SetBytes(obj, "decision", "deny")
	case "":
		if d := doc.Get("decision"); d.Exists() && d.Type == gjson.String {
			obj, _ = sjson.DeleteBytes(obj, "decision")
		}
	}
	return obj, nil
}

func firstObject(text string) ([]byte, bool) {
	rest := text
	for try := 0; try < maxTries; try++ {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			return nil, false
		}
		dec := json.NewDecoder(strings.NewReader(rest[i:]))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err == nil {
			return raw, true
		}
		rest = rest[i+1:]
	}
	return nil, false
}
