package commands

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/internal/argv"
	"github.com/mcpctl/mcpctl/internal/interact"
	"github.com/mcpctl/mcpctl/output"
)

// An elicitation answer given as text (--answer KEY.FIELD=TEXT) is typed
// exactly as tools call types the same text as key=value for a parameter
// of the same type: one typer. Before, a number answer went through
// float64 (9007199254740993 was sent as 9007199254740992, 1.50 as 1.5) and
// a boolean took yes, on and 1, which tools call refuses.
func TestElicitAnswerTypedLikeToolsCall(t *testing.T) {
	t.Parallel()
	texts := []string{"9007199254740993", "99999999999999999999", "1.50", "-0", "1e3", "+1", "01", ".5", "0x10",
		"true", "false", "yes", "no", "on", "1", "TRUE", "text", ""}
	for _, typ := range []string{"integer", "number", "boolean", "string"} {
		prop := `{"type":"object","properties":{"v":{"type":"` + typ + `"}}}`
		tool := json.RawMessage(`{"name":"t","inputSchema":` + prop + `}`)
		for _, text := range texts {
			args, paths, err := argv.ParseItems("", []string{"v=" + text}, strings.NewReader(""))
			if err != nil {
				t.Fatal(err)
			}
			called, callErr := prepareToolArgs("t", tool, args, paths, false, nil)
			answered, answerErr := answerField(t, prop, "v", text)
			if (callErr == nil) != (answerErr == nil) {
				t.Errorf("%s %q: tools call error %v, elicitation answer error %v", typ, text, callErr, answerErr)
				continue
			}
			if callErr != nil {
				continue
			}
			var sent struct{ V json.RawMessage }
			_ = json.Unmarshal(called, &sent)
			if string(sent.V) != string(answered) {
				t.Errorf("%s %q: tools call sends %s, the elicitation answer is %s", typ, text, sent.V, answered)
			}
		}
	}
}

// answerField is the value --answer q.FIELD=TEXT gives field in the answer
// to an elicitation asking for requestedSchema.
func answerField(t *testing.T, requestedSchema, field, text string) (json.RawMessage, error) {
	t.Helper()
	cfg := &interact.Config{FieldAnswers: map[string][]interact.FieldAnswer{"q": {{Field: field, Value: text}}}, FieldOrder: []string{"q"}}
	ios, _, _, _ := output.Test()
	h := interact.NewHandler(cfg, ios, interact.Command{})
	params := json.RawMessage(`{"message":"?","requestedSchema":` + requestedSchema + `}`)
	out, err := h.Answer(context.Background(), client.InputRound{Method: "tools/call", Requests: []client.InputRequest{{Key: "q", Method: "elicitation/create", Params: params}}})
	if err != nil {
		return nil, err
	}
	var res struct {
		Action  string
		Content map[string]json.RawMessage
	}
	if err := json.Unmarshal(out["q"], &res); err != nil || res.Action != "accept" {
		t.Fatalf("the answer %s is no acceptance (%v)", out["q"], err)
	}
	return res.Content[field], nil
}
