package schema

import (
	"encoding/json"
	"testing"
)

// TypeText types as Coerce does for a key=value string of that type.
func TestTypeTextMatchesCoerce(t *testing.T) {
	texts := []string{"9007199254740993", "1.50", "-0", "1e400", "+1", "01", ".5", "0x10", "NaN",
		"true", "false", "yes", "no", "y", "1", "on", "TRUE", "null", "", "text"}
	for _, typ := range []string{"string", "integer", "number", "boolean", "null"} {
		s, err := Compile(json.RawMessage(`{"type":"object","properties":{"v":{"type":"`+typ+`"}}}`), DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range texts {
			args, _ := json.Marshal(map[string]string{"v": text})
			coerced, err := s.Coerce(args, [][]string{{"v"}})
			if err != nil {
				t.Fatal(err)
			}
			var out struct{ V json.RawMessage }
			_ = json.Unmarshal(coerced, &out)
			got, ok := TypeText(typ, text)
			want := string(out.V)
			if !ok {
				// Coerce leaves what it cannot type as the string.
				got, _ = json.Marshal(text)
			}
			if string(got) != want {
				t.Errorf("TypeText(%q, %q) = %s, %v; Coerce gives %s", typ, text, got, ok, want)
			}
		}
	}
}

func TestTypeText(t *testing.T) {
	for _, tc := range []struct {
		typ, text, want string
		ok              bool
	}{
		{"integer", "9007199254740993", "9007199254740993", true},
		{"number", "9007199254740993", "9007199254740993", true},
		{"number", "0.10", "0.10", true},
		{"integer", "1.0", "", false},
		{"boolean", "yes", "", false},
		{"boolean", "true", "true", true},
		{"string", "<b>", `"<b>"`, true},
	} {
		got, ok := TypeText(tc.typ, tc.text)
		if ok != tc.ok || string(got) != tc.want {
			t.Errorf("TypeText(%q, %q) = %s, %v; want %s, %v", tc.typ, tc.text, got, ok, tc.want, tc.ok)
		}
	}
}

func TestCompareNumbers(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		c    int
		ok   bool
	}{
		{"9007199254740993", "9007199254740992", 1, true},
		{"1.0", "1", 0, true},
		{"-2", "1e-3", -1, true},
		{"x", "1", 0, false},
	} {
		c, ok := CompareNumbers(tc.a, tc.b)
		if c != tc.c || ok != tc.ok {
			t.Errorf("CompareNumbers(%s, %s) = %d, %v", tc.a, tc.b, c, ok)
		}
	}
	if !IsInteger("1e3") || !IsInteger("2.0") || IsInteger("2.5") || IsInteger("x") {
		t.Error("IsInteger")
	}
}
