package provider

import (
	"errors"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// ErrNoToolInput: the payload holds no tool input where the tool keeps it.
var ErrNoToolInput = errors.New("no tool input to replace")

// PutInput is payload raw with its tool input replaced by input, where
// this tool keeps it: for a sample (hookshim simulate --tool-input), and
// for a call whose input a handler rewrote, read again as the tool would
// send it.
func (pr *Provider) PutInput(raw, input []byte) ([]byte, error) {
	if pr.SetInput != nil {
		return pr.SetInput(raw, input)
	}
	where := pr.Fields.ToolInput
	if where == "" || !gjson.GetBytes(raw, where).Exists() {
		return nil, ErrNoToolInput
	}
	if gjson.GetBytes(raw, where).Type == gjson.String {
		// The tool sends its input as a JSON string (Copilot's toolArgs).
		return sjson.SetBytes(raw, where, string(input))
	}
	return sjson.SetRawBytes(raw, where, input)
}
