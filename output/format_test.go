package output

import (
	"strings"
	"testing"
)

func TestParseFormat(t *testing.T) {
	tests := []struct {
		in      string
		want    Format
		wantErr bool
	}{
		{"", "", false},
		{"json", FormatJSON, false},
		{"yaml", FormatYAML, false},
		{"table", FormatTable, false},
		{"text", FormatText, false},
		{"JSON", FormatJSON, false},
		{"xml", "", true},
		{"yml", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseFormat(tc.in)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tc.wantErr)
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if err != nil && !strings.Contains(err.Error(), "json, yaml, table, text") {
				t.Errorf("error %q does not list the formats", err)
			}
		})
	}
}

func TestDefaultFormat(t *testing.T) {
	if DefaultFormat(true) != FormatText || DefaultFormat(false) != FormatJSON {
		t.Error("want text on a terminal and JSON on a pipe")
	}
	raw := `{"content":[{"type":"text","text":"hi"}]}`
	if got := render(t, false, Options{}, KindToolCall, raw); got != `{"content":[{"type":"text","text":"hi"}]}`+"\n" {
		t.Errorf("pipe default: %q", got)
	}
	if got := render(t, true, Options{}, KindToolCall, raw); got != "hi\n" {
		t.Errorf("terminal default: %q", got)
	}
}
