package interact

import (
	"encoding/json"
	"strings"
	"testing"
)

// Bounds are compared exactly too.
func TestElicitAnswerBoundsExact(t *testing.T) {
	t.Parallel()
	schema := json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","maximum":9007199254740992},"x":{"type":"number","minimum":0.1}}}`)
	if v, err := typeElicitValue(schema, "n", "9007199254740992"); err != nil || string(v) != "9007199254740992" {
		t.Errorf("the bound itself: %s, %v", v, err)
	}
	if _, err := typeElicitValue(schema, "n", "9007199254740993"); err == nil || !strings.Contains(err.Error(), "must be at most 9007199254740992") {
		t.Errorf("one past the bound: %v", err)
	}
	if _, err := typeElicitValue(schema, "x", "0.09999999999999999999"); err == nil || !strings.Contains(err.Error(), "must be at least 0.1") {
		t.Errorf("just under the bound: %v", err)
	}
	res := json.RawMessage(`{"action":"accept","content":{"n":9007199254740993}}`)
	if err := checkElicitResult(schema, res); err == nil {
		t.Error("--answers with a value past the bound was accepted")
	}
}

// At the form's prompt a boolean field asks "yes or no", and takes those
// words; what it sends is still true or false.
func TestFormPromptYesNo(t *testing.T) {
	t.Parallel()
	s, err := parseRequestedSchema(json.RawMessage(`{"type":"object","properties":{"b":{"type":"boolean"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	f := s.field("b")
	for in, want := range map[string]string{"y": "true", "Yes": "true", "true": "true", "n": "false", "NO": "false", "false": "false"} {
		if v, err := f.valueFromPrompt(in); err != nil || string(v) != want {
			t.Errorf("prompt answer %q = %s, %v; want %s", in, v, err, want)
		}
	}
	if _, err := f.valueFromPrompt("maybe"); err == nil || err.Error() != "answer yes or no" {
		t.Errorf("prompt answer maybe: %v", err)
	}
	if _, err := f.valueFromString("yes"); err == nil {
		t.Error("--answer b=yes was accepted")
	}
}

// Bounds are shown as written, exactly, 3.0 as 3.
func TestFormBoundsShown(t *testing.T) {
	t.Parallel()
	s, err := parseRequestedSchema(json.RawMessage(`{"type":"object","properties":{
		"h":{"type":"number","minimum":0.5,"maximum":3.0},
		"n":{"type":"integer","maximum":9007199254740993},
		"e":{"type":"number","minimum":1e999999999}}}`))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"h": "  a number from 0.5 to 3",
		"n": "  a whole number ≤ 9007199254740993",
		"e": "  a number ≥ 1e999999999",
	} {
		if got := fieldHint(s.field(name)); got != want {
			t.Errorf("hint of %s = %q, want %q", name, got, want)
		}
	}
}
